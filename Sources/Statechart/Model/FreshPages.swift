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
/// never written — most of a pool whose size was estimated — stays unmapped. Elsewhere, and on an older kernel that refuses the advice, nothing happens: the
/// first writes map the pages as before.
@usableFromInline
enum FreshPages {
    /// The smallest range worth a system call: below it the pages are few and often come from
    /// memory the process already has.
    @usableFromInline static let threshold = 1 << 20

    #if os(Linux) && canImport(Glibc)
    static var populateWrite: Int32 { MADV_POPULATE_WRITE }
    #elseif os(Linux) && canImport(Musl)
    // Linux's value (`asm-generic/mman-common.h`), which Musl's headers may not name.
    static var populateWrite: Int32 { 23 }
    #endif

    #if os(Linux) && (canImport(Glibc) || canImport(Musl))
    /// The system's page size (4 KB on x86-64; 16 or 64 KB on some ARM kernels).
    static let pageSize = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
    #endif

    /// Maps the whole pages of `bytes` bytes from `start` for writing, where the system can.
    @usableFromInline
    static func prefault(_ start: UnsafeMutableRawPointer, bytes: Int) {
        #if os(Linux) && (canImport(Glibc) || canImport(Musl))
        guard bytes >= threshold else { return }
        // Whole pages inside the range only: a page it shares with other memory is left alone.
        let page = pageSize
        let first = (Int(bitPattern: start) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: start) + bytes) & ~(page - 1)
        guard end > first, let address = UnsafeMutableRawPointer(bitPattern: first) else { return }
        // An error (an older kernel refusing the advice) changes nothing.
        _ = madvise(address, end - first, populateWrite)
        #endif
    }
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
            FreshPages.prefault(UnsafeMutableRawPointer(base), bytes: count * MemoryLayout<Element>.stride)
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
                FreshPages.prefault(UnsafeMutableRawPointer(base), bytes: count * MemoryLayout<Element>.stride)
                base.initialize(repeating: value, count: count)
            }
            initialized = count
        }
    }
}
