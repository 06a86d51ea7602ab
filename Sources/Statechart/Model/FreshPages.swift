#if os(Linux) && canImport(Glibc)
import Glibc
#elseif os(Linux) && canImport(Musl)
import Musl
#endif

/// Memory a compiler is about to fill, mapped by the kernel in one call instead of one page
/// fault per page.
///
/// Why: compiling a million-state chart writes some 200 MB of tables it has just allocated, and
/// each 4 KB page of it was mapped by a fault when first written — 40,000 to 55,000 faults, a
/// third of the compile's time, each an exception into the kernel and back (issue 16, "Build").
/// Linux's `MADV_POPULATE_WRITE` (5.14 and later) maps a whole range at once, as the faults would
/// have, without the exception per page. The pages are only those about to be written: an array
/// made whole (`Array.prefaulted(repeating:count:)`, `Array.prefaulted(count:_:)`), and a
/// ``TableBuffer`` an eighth of its room (a mebibyte at least) ahead of its appends, so that room
/// never written — most of a pool whose size was estimated — stays unmapped. Elsewhere, and on
/// an older kernel that refuses the advice, nothing happens: the first writes map the pages as
/// before.
///
/// Where a range covers whole 2 MiB blocks, those are asked for as transparent huge pages first
/// (`MADV_HUGEPAGE`, which the common setting `transparent_hugepage=madvise` honours): the kernel
/// then maps and charges one page a block instead of 512. Mapping 4 KB pages, a million-state
/// compile spent over four fifths of its mapping time on that per-page work and the rest
/// clearing the memory (issue 16, "Build"). A block mapped in part already cannot become one huge
/// page, so a large ``TableBuffer`` starts its room on a block
/// (``alignment(bytes:natural:)``) and ends its steps on one. The blocks stay marked once the
/// table is freed; they were wholly written, so the memory malloc hands out again from them is
/// mapped already. Only a chart of tens of thousands of states or more has a range that large. On
/// a host whose free memory is too fragmented for a huge page, the kernel compacts memory to
/// make one (under the common `defrag=madvise`) or maps 4 KB pages as before.
@usableFromInline
enum FreshPages {
    /// The smallest range worth a system call: below it the pages are few and often come from
    /// memory the process already has.
    @usableFromInline static let threshold = 1 << 20

    #if os(Linux) && canImport(Glibc)
    static var populateWrite: Int32 { MADV_POPULATE_WRITE }
    static var hugePageAdvice: Int32 { MADV_HUGEPAGE }
    #elseif os(Linux) && canImport(Musl)
    // Linux's values (`asm-generic/mman-common.h`), which Musl's headers may not name.
    static var populateWrite: Int32 { 23 }
    static var hugePageAdvice: Int32 { 14 }
    #endif

    #if os(Linux) && (canImport(Glibc) || canImport(Musl))
    /// The system's page size (4 KB on x86-64; 16 or 64 KB on some ARM kernels).
    static let pageSize = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
    #endif

    /// The size of a transparent huge page on x86-64 and on ARM with 4 KB pages: the blocks the
    /// kernel can map whole.
    @usableFromInline static let hugePage = 2 << 20

    /// Maps the whole pages of `bytes` bytes from `start` for writing, where the system can.
    @usableFromInline
    static func prefault(_ start: UnsafeMutableRawPointer, bytes: Int) {
        #if os(Linux) && (canImport(Glibc) || canImport(Musl))
        guard bytes >= threshold else { return }
        // Whole pages inside the range only: a page it shares with other memory is left alone.
        let first = roundUp(Int(bitPattern: start), to: pageSize)
        let end = roundDown(Int(bitPattern: start) + bytes, to: pageSize)
        guard end > first, let address = UnsafeMutableRawPointer(bitPattern: first) else { return }
        // Errors (an older kernel refusing the advice, huge pages turned off) change nothing.
        let hugeFirst = roundUp(first, to: hugePage)
        let hugeEnd = roundDown(end, to: hugePage)
        if hugeEnd > hugeFirst, let blocks = UnsafeMutableRawPointer(bitPattern: hugeFirst) {
            _ = madvise(blocks, hugeEnd - hugeFirst, hugePageAdvice)
        }
        _ = madvise(address, end - first, populateWrite)
        #endif
    }

    /// Maps the memory of `count` elements from `start` for writing, where the system can.
    @inlinable
    static func prefault<Element>(_ start: UnsafeMutablePointer<Element>, count: Int) {
        prefault(UnsafeMutableRawPointer(start), bytes: count * MemoryLayout<Element>.stride)
    }

    /// The alignment for an allocation of `bytes` about to be prefaulted: a huge page's for one
    /// of two or more, so that none of its blocks is shared with other memory; else `natural`.
    /// The memory skipped to reach the boundary is never written, so never mapped.
    @usableFromInline
    static func alignment(bytes: Int, natural: Int) -> Int {
        #if os(Linux) && (canImport(Glibc) || canImport(Musl))
        return bytes >= 2 * hugePage ? Swift.max(hugePage, natural) : natural
        #else
        return natural
        #endif
    }

    /// Where the next mapping step of room for `capacity` elements from `base`, `count` of them
    /// written, ends: an eighth of the room ahead (a mebibyte at least), up to the next huge
    /// page's boundary, so that the step after it starts on one (a block mapped in part cannot
    /// become a huge page); never past the room. The one rule of a ``TableBuffer``'s steps and
    /// of ``Swift/Array/mapReservedRoom(_:)``'s.
    ///
    /// An eighth at a time rather than all the room at once: the room may be an estimate (the
    /// entry pools), and room never written then stays unmapped. Not a mebibyte at a time: the
    /// calls' own cost showed, a million-state compile 0.271 → 0.288 s against the whole room at
    /// once (medians of eight rounds, alternately); in eighths, within the noise of it.
    @inlinable
    static func stepEnd<Element>(base: UnsafeMutablePointer<Element>, count: Int, capacity: Int) -> Int {
        let stride = Swift.max(MemoryLayout<Element>.stride, 1)
        let end = Swift.min(capacity, count + Swift.max(threshold / stride, capacity / 8, 1))
        guard end < capacity else { return end }
        let address = Int(bitPattern: base + end)
        return Swift.min(capacity, end + (roundUp(address, to: hugePage) - address) / stride)
    }

    @inlinable @inline(__always) static func roundUp(_ address: Int, to size: Int) -> Int { (address + size - 1) & ~(size - 1) }
    @inlinable @inline(__always) static func roundDown(_ address: Int, to size: Int) -> Int { address & ~(size - 1) }
}

extension Array {
    /// `count` elements, `element(i)` at `i`, in memory prefaulted at once (``FreshPages``).
    @inlinable
    static func prefaulted(count: Int, _ element: (Int) throws -> Element) rethrows -> [Element] {
        // Not made with no room: the standard library then writes the count of its shared empty
        // array, a data race between two threads compiling at once (ThreadSanitizer).
        guard count > 0 else { return [] }
        return try [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            FreshPages.prefault(base, count: count)
            while initialized < count {
                (base + initialized).initialize(to: try element(initialized))
                initialized += 1
            }
        }
    }

    /// `count` copies of `value`, in memory prefaulted at once (``FreshPages``).
    @inlinable
    static func prefaulted(repeating value: Element, count: Int) -> [Element] {
        guard count > 0 else { return [] }  // as above
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress {
                FreshPages.prefault(base, count: count)
                base.initialize(repeating: value, count: count)
            }
            initialized = count
        }
    }
}

/// How much of an array's reserved room is mapped (``Swift/Array/mapReservedRoom(_:)``).
@usableFromInline
struct ReservedRoom: Sendable {
    /// The count up to which the room is mapped, and the capacity it was mapped in.
    @usableFromInline var mapped = 0
    @usableFromInline var capacity = 0

    @inlinable init() {}
}

extension Array {
    /// Maps the next step of the room reserved beyond `count` (``FreshPages/stepEnd(base:count:capacity:)``)
    /// once appends have reached what `room` has mapped, or the array has moved to other room;
    /// as a ``TableBuffer`` maps its room. For an array reserved on an estimate and then filled
    /// by appends: room never reached stays unmapped.
    ///
    /// The advice maps pages of the array's own allocation and writes nothing in them.
    @inlinable
    mutating func mapReservedRoom(_ room: inout ReservedRoom) {
        let capacity = self.capacity
        guard count >= room.mapped || capacity != room.capacity else { return }
        room = ReservedRoom()
        room.capacity = capacity
        room.mapped = withUnsafeMutableBufferPointer { elements in
            guard let base = elements.baseAddress else { return capacity }
            let end = FreshPages.stepEnd(base: base, count: elements.count, capacity: capacity)
            if end > elements.count { FreshPages.prefault(base + elements.count, count: end - elements.count) }
            return end
        }
    }
}
