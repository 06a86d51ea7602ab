/// A table the compiler fills whose memory becomes its ``Chart``'s ``ChartTable`` as it is, not
/// copied: the compiler's states, read and written in place while compiling.
///
/// Compiling a million states built them in an array and copied it into the chart's table,
/// 52 MB written twice, the second time into fresh pages the kernel had to map and clear
/// (issue 16, "Build"). The room is allocated once, for the number of elements the compiler
/// knows it will append; ``takeTable()`` hands the memory to the chart, and a buffer whose
/// compiling failed frees it when it goes.
@usableFromInline
final class TableBuffer<Element> {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    @usableFromInline let capacity: Int
    /// The number of elements appended.
    @usableFromInline private(set) var count = 0
    /// Whether ``takeTable()`` handed the memory over.
    private var handedOver = false

    /// An empty buffer with room for `capacity` elements.
    @usableFromInline
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        base = UnsafeMutablePointer<Element>.allocate(capacity: self.capacity)
    }

    deinit {
        guard !handedOver else { return }
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Appends `element`; the buffer has room for it (the compiler made it for that many).
    @usableFromInline
    func append(_ element: Element) {
        precondition(count < capacity, "a table buffer is made with room for every element it holds")
        (base + count).initialize(to: element)
        count += 1
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

    /// The elements as the chart's table; the buffer must not be used afterwards, and it is the
    /// table's owner that frees the memory (``ChartTable/free()``).
    @usableFromInline
    func takeTable() -> ChartTable<Element> {
        precondition(!handedOver, "a table buffer is handed over once")
        handedOver = true
        return ChartTable(adopting: base, count: count)
    }
}
