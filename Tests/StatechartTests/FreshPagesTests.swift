import Testing

@testable import Statechart

/// Memory prefaulted before the compiler writes it (``FreshPages``, issue 16, "Build"): the advice
/// maps pages and must change nothing a program can see.
@Suite("Fresh pages")
struct FreshPagesTests {
    @Test("prefaulting written memory, at an address inside a page and over a length that ends inside one, leaves every byte as it was")
    func prefaultingKeepsContents() {
        let count = 3 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        defer { buffer.deallocate() }
        for i in 0..<count { buffer[i] = UInt8(truncatingIfNeeded: i &* 31 &+ 7) }
        // From byte 100 (inside the first page) for a length that stops 100 bytes before the end:
        // only the whole pages between are advised.
        FreshPages.prefault(buffer.baseAddress! + 100, bytes: count - 200)
        FreshPages.prefault(buffer.baseAddress!, bytes: 17)  // below the threshold: nothing
        var same = true
        for i in 0..<count where buffer[i] != UInt8(truncatingIfNeeded: i &* 31 &+ 7) { same = false }
        #expect(same)
    }

    @Test("prefaulted arrays and tables hold what they were made of, large or empty")
    func prefaultedArrays() {
        let large = [Int32].prefaulted(repeating: -1, count: 1 << 19)
        #expect(large.count == 1 << 19 && large.allSatisfy { $0 == -1 })
        let made = [String].prefaulted(count: 70_000) { "s\($0)" }
        #expect(made.count == 70_000 && made[0] == "s0" && made[69_999] == "s69999")
        #expect([Int].prefaulted(repeating: 3, count: 0).isEmpty)
        #expect([String].prefaulted(count: 0) { "\($0)" }.isEmpty)
        // A buffer maps its room a step ahead of its appends, and grows past an estimate that
        // was too small: every element where it was put, before and after.
        let table = TableBuffer<Int64>(capacity: 300_000)
        for i in 0..<300_000 { table.append(Int64(i)) }
        #expect(table.count == 300_000 && table[299_999] == 299_999 && table.capacity == 300_000)
        let small = TableBuffer<Int32>(capacity: 10)
        for i in 0..<700_000 { small.append(Int32(i)) }
        #expect(small.count == 700_000 && small.elements.enumerated().allSatisfy { $0.element == Int32($0.offset) })
        let taken = small.takeTable()
        defer { taken.free() }
        #expect(taken.count == 700_000 && taken[699_999] == 699_999 && small.count == 0)
        for i in 0..<5 { small.append(Int32(i)) }
        #expect(Array(small.elements) == [0, 1, 2, 3, 4])
        let ranges = TableBuffer<PoolRange>(repeating: .none, count: 200_000)
        #expect(ranges.count == 200_000 && ranges.elements.allSatisfy { $0 == .none })
    }

    @Test("a large table starts on a huge page's boundary and maps its steps up to one, whatever its elements' size")
    func largeTablesOnHugePages() {
        // 40 MB of 8-byte elements, and 52-byte records (a stride that does not divide 2 MiB).
        let wide = TableBuffer<Int64>(capacity: 5_000_000)
        let odd = TableBuffer<(Int64, Int64, Int64, Int64, Int64, Int64, Int32)>(capacity: 500_000)
        #if os(Linux)
        #expect(Int(bitPattern: wide.base) % FreshPages.hugePage == 0)
        #expect(Int(bitPattern: odd.base) % FreshPages.hugePage == 0)
        #endif
        for i in 0..<2_345_678 { wide.append(Int64(i)) }
        for i in 0..<345_678 { odd.append((Int64(i), 0, 0, 0, 0, 0, Int32(truncatingIfNeeded: i))) }
        // Each step ends at a block's boundary, or within one element before it.
        for (base, mapped, stride, capacity) in [
            (UnsafeRawPointer(wide.base), wide.mapped, 8, wide.capacity),
            (UnsafeRawPointer(odd.base), odd.mapped, MemoryLayout<(Int64, Int64, Int64, Int64, Int64, Int64, Int32)>.stride, odd.capacity),
        ] {
            let end = Int(bitPattern: base) + mapped * stride
            let boundary = FreshPages.roundUp(end, to: FreshPages.hugePage)
            #expect(mapped == capacity || boundary - end < stride)
        }
        #expect(wide.elements.enumerated().allSatisfy { $0.element == Int64($0.offset) })
        #expect(odd.elements.enumerated().allSatisfy { $0.element.0 == Int64($0.offset) && $0.element.6 == Int32($0.offset) })
        // Grown past its room: the larger room is placed the same way.
        let grown = TableBuffer<Int64>(capacity: 300_000)
        for i in 0..<700_000 { grown.append(Int64(i)) }
        #if os(Linux)
        #expect(Int(bitPattern: grown.base) % FreshPages.hugePage == 0)
        #endif
        #expect(grown.count == 700_000 && grown.elements.enumerated().allSatisfy { $0.element == Int64($0.offset) })
    }

    @Test("an array's reserved room is mapped a step ahead of its appends, and again from its count once it has moved")
    func reservedRoomMappedAhead() {
        var values: [Int64] = []
        values.reserveCapacity(2_000_000)
        var room = ReservedRoom()
        var steps = 0
        for chunk in 0..<1_000 {
            let before = room.mapped
            values.mapReservedRoom(&room)
            if room.mapped != before {
                steps += 1
                // Each step ends a huge page's block or the room (FreshPages.stepEnd).
                let end = values.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress! + room.mapped) }
                #expect(room.mapped == values.capacity || end % FreshPages.hugePage == 0)
            }
            #expect(room.mapped >= values.count && room.mapped <= values.capacity && room.capacity == values.capacity)
            for i in 0..<1_000 { values.append(Int64(chunk * 1_000 + i)) }
        }
        // An eighth of the room a step (250,000 elements, past the mebibyte's 131,072), then up
        // to a block's boundary (at most 262,143 elements more).
        #expect((2...4).contains(steps))
        #expect(values.count == 1_000_000 && values.enumerated().allSatisfy { $0.element == Int64($0.offset) })
        // Past its room the array moves; the next call maps the new room from its count.
        values.append(contentsOf: repeatElement(7, count: 1_500_000))
        values.mapReservedRoom(&room)
        #expect(room.capacity == values.capacity)
        #expect(room.mapped > values.count || room.mapped == values.capacity)
        #expect(values[999_999] == 999_999 && values.last == 7)
        var empty: [Int32] = []
        var none = ReservedRoom()
        empty.mapReservedRoom(&none)
        #expect(none.mapped == 0 && empty.isEmpty)
    }
}
