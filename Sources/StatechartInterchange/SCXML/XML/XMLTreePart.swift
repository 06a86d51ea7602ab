/// One element's part of an array the whole tree shares (its children, its attributes): a
/// reference to the array and two 32-bit bounds, 16 bytes where an array slice takes 32 (issue
/// 16, "Memory": a 1,000,000-state document has some three million elements). The tree builder
/// keeps every bound below `Int32.max`: it refuses a document of more elements or attributes.
struct XMLTreePart<Element: Sendable>: Sendable {
    // Read in place (`shared!`, reached only when the part is not empty, so never `nil` there),
    // never bound to a local: a binding (`guard let`) is a copy of the reference, retained and
    // released at every lookup (+5 % instructions to load a document). `nil` for an empty part,
    // rather than a shared empty array, which each new element retained.
    private let shared: XMLSharedArray<Element>?
    private let start: Int32
    private let end: Int32

    /// An empty part.
    init() {
        shared = nil
        start = 0
        end = 0
    }

    /// The elements `shared.elements[range]`.
    init(_ shared: XMLSharedArray<Element>, _ range: Range<Int>) {
        self.shared = shared
        start = Int32(range.lowerBound)
        end = Int32(range.upperBound)
    }

    /// The number of elements.
    var count: Int { Int(end &- start) }

    /// Calls `body` with the elements, read in place through a pointer (no bounds check per
    /// element: the bounds were checked when the part was made); returns `empty` without calling
    /// it when there are none.
    @inline(__always)
    func withElements<R>(else empty: R, _ body: (UnsafeBufferPointer<Element>) -> R) -> R {
        guard start != end else { return empty }
        return shared!.elements.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(start: all.baseAddress.unsafelyUnwrapped + Int(start), count: Int(end &- start)))
        }
    }
}

/// An array of the whole tree that its elements share in parts (``XMLTreePart``).
final class XMLSharedArray<Element: Sendable>: Sendable {
    /// Each element's part after another.
    let elements: [Element]

    /// The array the tree builder laid out.
    init(_ elements: [Element]) { self.elements = elements }
}
