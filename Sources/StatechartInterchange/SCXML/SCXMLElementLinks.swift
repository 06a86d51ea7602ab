import Statechart

/// What the builder's second loop reads of each element of the document besides its item
/// (``SCXMLBuilder/Item``): its parent and where it is written — and so its children, whose
/// actions a transition, an `<onentry>` or an `<onexit>` collects.
///
/// Kept apart from the tree, so that a builder holding the only tree can release its elements
/// once every one is checked, before the definition is built: 12 bytes an element here against
/// 56 in the tree (``XMLElementNode``), which with the definition's records and the items made
/// the highest of the loader's peaks (issue 16, "Memory").
struct SCXMLElementLinks {
    /// An element's parent (-1 for the root) and its position in the document.
    struct Link {
        let parent: Int32
        let location: SourceLocation
    }

    /// By element index, in document order (pre-order: a parent precedes its children).
    private(set) var links: [Link] = []

    /// No elements.
    init() {}

    /// The links of every element of `elements`.
    init(_ elements: [XMLElementNode]) {
        links.reserveCapacity(elements.count)
        // Through one pointer: binding each element to a local copied it, its strings and
        // arrays retained and released.
        elements.withUnsafeBufferPointer { elements in
            for i in elements.indices {
                links.append(Link(parent: Int32(elements[i].parent), location: elements[i].location))
            }
        }
    }

    /// The number of elements.
    var count: Int { links.count }

    /// The parent of the element at `index`: -1 for the root.
    func parent(of index: Int) -> Int { Int(links[index].parent) }

    /// Where the element at `index` is written.
    func location(of index: Int) -> SourceLocation { links[index].location }

    /// Whether the element at `index` has children: its first child, if any, comes right after it.
    func hasChildren(_ index: Int) -> Bool {
        index + 1 < links.count && Int(links[index + 1].parent) == index
    }

    /// Calls `body` with the index of each child of the element at `index`, in document order.
    ///
    /// In pre-order an element's descendants are the run of elements after it whose parents
    /// are at or after it: the first element whose parent comes before it is past its subtree.
    /// So the children are found without a list of their own, in one pass over the subtree —
    /// for a transition or an `<onentry>`, its actions and what they hold.
    func forEachChild(of index: Int, _ body: (Int) -> Void) {
        var j = index + 1
        while j < links.count {
            let parent = Int(links[j].parent)
            if parent < index { break }
            if parent == index { body(j) }
            j += 1
        }
    }
}
