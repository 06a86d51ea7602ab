/// A table the compiler fills whose memory becomes its ``Chart``'s ``ChartTable`` as it is, not
/// copied: the compiler's states, read and written in place while compiling.
///
/// Compiling a million states built them in an array and copied it into the chart's table,
/// 52 MB written twice, the second time into fresh pages the kernel had to map and clear
/// (issue 16, "Build"). The room is allocated once, for the number of elements the compiler
/// knows it will append; ``takeTable()`` hands the memory to the chart and leaves the buffer
/// empty, and a buffer whose compiling failed frees what it holds when it goes.
@usableFromInline
final class TableBuffer<Element> {
    // Unchecked: the compiler reads them for every state it touches, and a class's variables are
    // otherwise checked for exclusive access at each read; only the compiler that made the
    // buffer uses it, from one thread.
    @exclusivity(unchecked) @usableFromInline private(set) var base: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) @usableFromInline private(set) var capacity: Int
    /// The number of elements appended.
    @exclusivity(unchecked) @usableFromInline var count = 0

    /// An empty buffer with room for `capacity` elements.
    ///
    /// With `prefault`, its memory is mapped at once (``FreshPages``): for a buffer that the
    /// compiler fills to its capacity, not for one whose room is an estimate.
    @usableFromInline
    init(capacity: Int, prefault: Bool = false) {
        self.capacity = Swift.max(capacity, 1)
        base = UnsafeMutablePointer<Element>.allocate(capacity: self.capacity)
        if prefault { FreshPages.prefault(UnsafeMutableRawPointer(base), bytes: self.capacity * MemoryLayout<Element>.stride) }
    }

    /// A buffer of `count` copies of `value`, to be written in any order.
    @usableFromInline
    init(repeating value: Element, count: Int) {
        self.capacity = Swift.max(count, 1)
        base = UnsafeMutablePointer<Element>.allocate(capacity: self.capacity)
        FreshPages.prefault(UnsafeMutableRawPointer(base), bytes: self.capacity * MemoryLayout<Element>.stride)
        base.initialize(repeating: value, count: count)
        self.count = count
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Appends `element`. The compiler makes the buffer with room for every element it appends;
    /// were it full, the elements would move to twice the room. Inlinable, so that a buffer of
    /// the caller's types (the assembly's candidates, which hold events) appends specialized.
    @inlinable
    func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements to twice the room.
    @usableFromInline
    func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// The element at `position`, read and written in place.
    @inlinable
    subscript(position: Int) -> Element {
        @inline(__always) get {
            assert(position >= 0 && position < count, "table buffer index out of range")
            return base[position]
        }
        @inline(__always) _modify {
            assert(position >= 0 && position < count, "table buffer index out of range")
            yield &base[position]
        }
    }

    /// The elements appended, as a buffer.
    @inlinable
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    /// The elements as the chart's table, whose owner frees the memory (``ChartTable/free()``);
    /// the buffer is left empty, with room of its own.
    @usableFromInline
    func takeTable() -> ChartTable<Element> {
        let table = ChartTable(adopting: base, count: count)
        capacity = 1
        base = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        count = 0
        return table
    }
}
