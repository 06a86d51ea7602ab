/// A fixed table of values in memory its ``Chart`` allocates once, when it is created, and frees
/// when it goes: the interpreter's per-event path reads it through a plain pointer.
///
/// An array held by a class costs, at every read on the hot path, a reload of its buffer, a
/// bounds check and — when it is passed on — a retain and a release (about 40 instructions per
/// flat event went to that, issue 16). A chart never changes after it is compiled, so its hot
/// tables need none of it: a ``ChartInstance`` holds its chart, which keeps every table alive for
/// as long as the instance can read it. Indices come from the compiler, which checks them; a
/// debug build still checks each read.
@usableFromInline
struct ChartTable<Element>: RandomAccessCollection {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    /// The number of elements.
    @usableFromInline let count: Int

    /// A table holding a copy of `elements`. Only a ``Chart`` creates one, and frees it in its
    /// `deinit` (``free()``).
    @usableFromInline
    init(_ elements: [Element]) {
        count = elements.count
        // At least one element of room, so that an empty table has an address of its own.
        base = UnsafeMutablePointer<Element>.allocate(capacity: Swift.max(elements.count, 1))
        elements.withUnsafeBufferPointer { source in
            if let address = source.baseAddress { base.initialize(from: address, count: source.count) }
        }
    }

    /// A table of the `count` elements initialized at `base`, which it owns from now on: memory a
    /// ``TableBuffer`` filled.
    @usableFromInline
    init(adopting base: UnsafeMutablePointer<Element>, count: Int) {
        self.base = base
        self.count = count
    }

    /// Deinitializes and frees the elements: called once, by the chart that owns the table.
    @usableFromInline
    func free() {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { count }

    @inlinable
    subscript(position: Int) -> Element {
        @inline(__always) get {
            assert(position >= 0 && position < count, "chart table index out of range")
            return base[position]
        }
    }

    /// The elements as a buffer, without copying them.
    @inlinable
    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }
}

// A table is only read after its chart has initialized it, and never written: it can be shared
// across tasks exactly when its elements can.
extension ChartTable: @unchecked Sendable where Element: Sendable {}
