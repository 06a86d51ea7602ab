/// The chart's blocks of closure actions and its predicate guards, in a form the interpreter
/// calls without reference counting (issue 16: "actions must not cost retain/release per call").
///
/// A block is an array of ``Action`` values; calling a `.run` closure read from it copies the
/// closure out (a retain of its context and a release after the call) and passing the block on
/// retains the array: four retain/release pairs per event of the order machine with actions,
/// about a fifth of its instructions. Here each `.run` closure of a block that holds nothing else
/// is boxed once, when the chart is made, in a ``ClosureAction`` that the chart keeps alive; the
/// interpreter reads a box from a ``ChartTable`` and calls its closure through a borrowed
/// reference. A block with any other action (raise, send, content…) keeps the general path.
///
/// Built only for charts that have actions: a chart without any keeps empty tables, and the
/// interpreter reads them only for a transition or state that has actions.
@usableFromInline
struct ClosureBlocks<Event: Hashable & Sendable, Context> {
    /// Every boxed closure, block after block (each box retained once, released by ``free()``).
    @usableFromInline let pool: ChartTable<Unmanaged<ClosureAction<Event, Context>>>
    /// Per transition: its actions, when they are one block of closures.
    @usableFromInline let transitions: ChartTable<ClosureBlock>
    /// Per state: its entry actions, when they are one block of closures.
    @usableFromInline let entries: ChartTable<ClosureBlock>
    /// Per state: its exit actions, when they are one block of closures.
    @usableFromInline let exits: ChartTable<ClosureBlock>
    /// Per transition: its guard, when it is a predicate (``Guard/predicate(_:)``), boxed like the
    /// actions. Built when any transition needs more than its descriptor to be selected (a
    /// guard, an asynchronous guard or dynamic targets): the interpreter reads it only for those.
    @usableFromInline let guards: ChartTable<Unmanaged<ClosureGuard<Event, Context>>?>

    /// The tables for a chart's compiled transitions and its states' entry and exit blocks.
    ///
    /// - Parameters:
    ///   - anyActions: Whether any transition or state has actions (the assembly knows it
    ///     already; a second scan cost every compile a pass over the transitions).
    ///   - anyConditional: Whether any transition has a guard, an asynchronous guard or dynamic
    ///     targets.
    @inlinable
    init(
        transitions: UnsafeBufferPointer<CompiledTransition>, guards: SparseTable<CompiledGuard<Event, Context>?>,
        actions: SparseTable<[Action<Event, Context>]>, stateCount: Int, entryActions: SparseTable<[[Action<Event, Context>]]>,
        exitActions: SparseTable<[[Action<Event, Context>]]>, anyActions: Bool, anyConditional: Bool
    ) {
        var pool: [Unmanaged<ClosureAction<Event, Context>>] = []
        var transitionBlocks: [ClosureBlock] = []
        var entryBlocks: [ClosureBlock] = []
        var exitBlocks: [ClosureBlock] = []
        if anyActions {
            transitionBlocks.reserveCapacity(transitions.count)
            for t in transitions.indices {
                transitionBlocks.append(Self.block(actions[t], state: transitions[t].source, into: &pool))
            }
            entryBlocks.reserveCapacity(stateCount)
            exitBlocks.reserveCapacity(stateCount)
            for s in 0..<stateCount {
                entryBlocks.append(entryActions[s].count == 1 ? Self.block(entryActions[s][0], state: Int32(s), into: &pool) : .none)
                exitBlocks.append(exitActions[s].count == 1 ? Self.block(exitActions[s][0], state: Int32(s), into: &pool) : .none)
            }
        }
        var guardBoxes: [Unmanaged<ClosureGuard<Event, Context>>?] = []
        if anyConditional {
            guardBoxes.reserveCapacity(transitions.count)
            for t in transitions.indices {
                if case .predicate(let p)? = guards[t] {
                    guardBoxes.append(Unmanaged.passRetained(ClosureGuard(predicate: p)))
                } else {
                    guardBoxes.append(nil)
                }
            }
        }
        self.guards = ChartTable(guardBoxes)
        self.pool = ChartTable(pool)
        self.transitions = ChartTable(transitionBlocks)
        self.entries = ChartTable(entryBlocks)
        self.exits = ChartTable(exitBlocks)
    }

    /// Boxes `actions` into the pool when every one is a `.run` closure; ``ClosureBlock/none``
    /// otherwise (and for an empty block).
    @inlinable
    static func block(
        _ actions: [Action<Event, Context>], state: Int32, into pool: inout [Unmanaged<ClosureAction<Event, Context>>]
    ) -> ClosureBlock {
        guard !actions.isEmpty else { return .none }
        for action in actions {
            guard case .run = action else { return .none }
        }
        let start = Int32(pool.count)
        for action in actions {
            if case .run(let name, let body) = action {
                pool.append(Unmanaged.passRetained(ClosureAction(name: name, body: body)))
            }
        }
        return ClosureBlock(start: start, end: Int32(pool.count), state: state)
    }

    /// Releases the boxes and frees the tables: called once, by the chart that owns them.
    ///
    /// A chart's `deinit` runs unspecialized, where iterating a generic table costs a witness call
    /// per element and more (about 3,500 instructions per state of a loaded SCXML chart): the boxes
    /// are released from the tables' words instead, one release each. An `Unmanaged` reference is
    /// one word, and `nil` is zero in an optional one.
    @usableFromInline
    func free() {
        assert(
            MemoryLayout<Unmanaged<ClosureAction<Event, Context>>>.stride == MemoryLayout<UInt>.stride
                && MemoryLayout<Unmanaged<ClosureGuard<Event, Context>>?>.stride == MemoryLayout<UInt>.stride)
        Self.releaseBoxes(UnsafeRawPointer(pool.base), count: pool.count)
        Self.releaseBoxes(UnsafeRawPointer(guards.base), count: guards.count)
        pool.free()
        guards.free()
        transitions.free()
        entries.free()
        exits.free()
    }

    /// Releases each non-zero word of `count` words at `words` as a strong reference.
    static func releaseBoxes(_ words: UnsafeRawPointer, count: Int) {
        var offset = 0
        for _ in 0..<count {
            if let box = UnsafeRawPointer(bitPattern: words.load(fromByteOffset: offset, as: UInt.self)) {
                Unmanaged<AnyObject>.fromOpaque(box).release()
            }
            offset += MemoryLayout<UInt>.stride
        }
    }
}

// The tables are written once, when the chart is made, and only read after; the boxes are
// immutable and hold `@Sendable` closures (`Unmanaged` is what keeps the checker from seeing it).
extension ClosureBlocks: @unchecked Sendable {}

/// One `.run` action, boxed (see ``ClosureBlocks``).
@usableFromInline
final class ClosureAction<Event: Hashable & Sendable, Context>: Sendable {
    /// The action's name, `nil` when it was declared without one (traced as `action`).
    @usableFromInline let name: String?
    @usableFromInline let body: @Sendable (inout ActionScope<Event, Context>) throws -> Void

    @inlinable
    init(name: String?, body: @escaping @Sendable (inout ActionScope<Event, Context>) throws -> Void) {
        self.name = name
        self.body = body
    }
}

/// A predicate guard, boxed (see ``ClosureBlocks``).
@usableFromInline
final class ClosureGuard<Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let predicate: @Sendable (Context, ChartEvent<Event>?) throws -> Bool

    @inlinable
    init(predicate: @escaping @Sendable (Context, ChartEvent<Event>?) throws -> Bool) {
        self.predicate = predicate
    }
}

/// A block of boxed closures: `ClosureBlocks.pool[start ..< end]`, run with `state` as the
/// scope's state (the transition's source, or the entered or exited state).
@usableFromInline
struct ClosureBlock: Sendable {
    @usableFromInline var start: Int32
    @usableFromInline var end: Int32
    @usableFromInline var state: Int32

    @inlinable init(start: Int32, end: Int32, state: Int32) {
        self.start = start
        self.end = end
        self.state = state
    }

    /// No boxed form: the block is empty or holds an action other than a closure.
    @inlinable static var none: ClosureBlock { ClosureBlock(start: -1, end: -1, state: -1) }
    @inlinable var exists: Bool { start >= 0 }
}
