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
    /// How many elements of room are mapped for writing (``FreshPages``): appending beyond maps
    /// the next step, or grows the room when it is all used.
    @exclusivity(unchecked) @usableFromInline private(set) var mapped = 0

    /// An empty buffer with room for `capacity` elements, mapped a step ahead of its appends.
    @usableFromInline
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        base = Self.allocate(self.capacity)
    }

    /// A buffer of `count` copies of `value`, to be written in any order.
    @usableFromInline
    init(repeating value: Element, count: Int) {
        self.capacity = Swift.max(count, 1)
        base = Self.allocate(self.capacity)
        FreshPages.prefault(base, count: self.capacity)
        base.initialize(repeating: value, count: count)
        self.count = count
        mapped = self.capacity
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Appends `element`. The compiler makes the buffer with room for every element it appends,
    /// or for about as many; were it full, the elements would move to twice the room. Inlinable,
    /// so that a buffer of the caller's types (the assembly's candidates, which hold events)
    /// appends specialized.
    @inlinable
    func append(_ element: Element) {
        if count == mapped { makeRoom() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// The room mapped so far is used: maps the next step of it
    /// (``FreshPages/stepEnd(base:count:capacity:)``), after moving the elements to twice the
    /// room when it is all used.
    @usableFromInline
    func makeRoom() {
        if count == capacity {
            let larger = Self.allocate(capacity * 2)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = larger
            capacity *= 2
        }
        let end = FreshPages.stepEnd(base: base, count: count, capacity: capacity)
        FreshPages.prefault(base + count, count: end - count)
        mapped = end
    }

    /// Room for `capacity` elements, on a huge page's boundary when it is large
    /// (``FreshPages/alignment(bytes:natural:)``). Freed by `deallocate()`, as any allocation is.
    @usableFromInline
    static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Element> {
        let bytes = capacity * MemoryLayout<Element>.stride
        let alignment = FreshPages.alignment(bytes: bytes, natural: MemoryLayout<Element>.alignment)
        guard alignment > MemoryLayout<Element>.alignment else { return .allocate(capacity: capacity) }
        return UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: alignment).bindMemory(to: Element.self, capacity: capacity)
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
        mapped = 0
        return table
    }
}
