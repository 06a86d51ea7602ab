/// The children of a state in document order, read from the states' subtree ranges: the first
/// child is the state right after its parent, and each next sibling starts where the previous
/// one's subtree ends (``CompiledState/end``).
///
/// Why not a list per state: a chart kept an array of child indices for every state — a
/// million-state chart held a million array references and a hundred thousand small arrays,
/// 16 MB the compiler wrote and the kernel mapped for what the subtree ranges already say
/// (issue 16, "Build"). Walking the siblings costs one read of each child's record, which the
/// callers read anyway.
///
/// The view reads the states through a pointer: it is used while the chart (or the compiler's
/// table) that owns them is alive, and is never stored.
@usableFromInline
struct ChildStates: Sequence {
    @usableFromInline let states: UnsafeBufferPointer<CompiledState>
    @usableFromInline let parent: Int32

    @inlinable
    init(of parent: Int32, in states: UnsafeBufferPointer<CompiledState>) {
        self.states = states
        self.parent = parent
    }

    @inlinable
    func makeIterator() -> Iterator {
        Iterator(states: states, position: parent + 1, end: states[Int(parent)].end)
    }

    /// Walks the siblings from the first child to the parent's subtree end.
    @usableFromInline
    struct Iterator: IteratorProtocol {
        @usableFromInline let states: UnsafeBufferPointer<CompiledState>
        /// The next child, or `end` when there is none.
        @usableFromInline var position: Int32
        @usableFromInline let end: Int32

        @inlinable
        init(states: UnsafeBufferPointer<CompiledState>, position: Int32, end: Int32) {
            self.states = states
            self.position = position
            self.end = end
        }

        @inlinable
        mutating func next() -> Int32? {
            guard position < end else { return nil }
            let child = position
            position = states[Int(child)].end
            return child
        }
    }
}

extension ChartTable where Element == CompiledState {
    /// The children of state `s` in document order (history pseudo-states included).
    @inlinable
    func children(of s: Int32) -> ChildStates {
        ChildStates(of: s, in: UnsafeBufferPointer(start: base, count: count))
    }
}
