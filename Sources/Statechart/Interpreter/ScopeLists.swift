/// The lists an ``ActionScope`` fills while a step runs — the effects its actions queue, the
/// states the microstep exits and the states it enters — kept in one box made on first use
/// (issue 16, "Memory").
///
/// A step that only splices the configuration (``ChartInstance/takePlainTransition(_:)``) and
/// actions that queue nothing never touch them, so a machine that takes only such steps holds one
/// pointer instead of three 16-byte buffers. The box is copied on write, as
/// ``StepScratch``'s is: copies of a scope never share their lists.
///
/// No caller keeps a pointer into the box while an action runs: an action receives the scope and
/// may copy it, after which the next write makes the scope a box of its own.
@usableFromInline
struct ScopeLists<Event: Hashable & Sendable> {
    @usableFromInline var effects = ScratchBuffer<ActionEffect<Event>>()
    /// States exited by the current microstep, in exit order.
    @usableFromInline var exits = ScratchBuffer<Int32>()
    /// States entered by the current microstep, in entry order.
    @usableFromInline var entries = ScratchBuffer<Int32>()

    @inlinable init() {}
}

extension ActionScope {
    /// The box of the lists (HeaderBox.swift).
    @usableFromInline typealias ListsBox = HeaderBox<ScopeLists<Event>>

    /// The lists, made on first use; copied first when another copy of the scope shares them.
    /// Valid until an action runs (see the type's note).
    @inlinable var lists: UnsafeMutablePointer<ScopeLists<Event>> {
        mutating get { uniqueHeader(of: &listsBox) { ScopeLists() } }
    }

    /// The effects queued by the actions that ran (reading makes no box).
    @inlinable var effects: ScratchBuffer<ActionEffect<Event>> {
        _read {
            if let box = listsBox {
                yield box.withUnsafeMutablePointerToHeader { $0 }.pointee.effects
            } else {
                yield ScratchBuffer()
            }
        }
        _modify { yield &lists.pointee.effects }
    }

    /// States exited by the current microstep, in exit order (reading makes no box).
    @inlinable var exits: ScratchBuffer<Int32> {
        _read {
            if let box = listsBox {
                yield box.withUnsafeMutablePointerToHeader { $0 }.pointee.exits
            } else {
                yield ScratchBuffer()
            }
        }
        _modify { yield &lists.pointee.exits }
    }

    /// States entered by the current microstep, in entry order (reading makes no box).
    @inlinable var entries: ScratchBuffer<Int32> {
        _read {
            if let box = listsBox {
                yield box.withUnsafeMutablePointerToHeader { $0 }.pointee.entries
            } else {
                yield ScratchBuffer()
            }
        }
        _modify { yield &lists.pointee.entries }
    }

    // The loops of a microstep read the lists by index through these: the `_read` accessors
    // above are coroutines the optimizer left out of line (the `history` case went 2,335 →
    // 2,809 instructions per event through them).

    /// The number of states exited by the current microstep (without making the box).
    @inlinable var exitCount: Int {
        listsBox?.withUnsafeMutablePointerToHeader { $0.pointee.exits.count } ?? 0
    }

    /// The `k`th state exited, for `k < exitCount` (which holds only when the box exists).
    @inlinable func exit(at k: Int) -> Int32 {
        listsBox.unsafelyUnwrapped.withUnsafeMutablePointerToHeader { $0.pointee.exits[k] }
    }

    /// The number of states entered by the current microstep (without making the box).
    @inlinable var entryCount: Int {
        listsBox?.withUnsafeMutablePointerToHeader { $0.pointee.entries.count } ?? 0
    }

    /// The `k`th state entered, for `k < entryCount` (which holds only when the box exists).
    @inlinable func entry(at k: Int) -> Int32 {
        listsBox.unsafelyUnwrapped.withUnsafeMutablePointerToHeader { $0.pointee.entries[k] }
    }

    /// Whether an action queued an effect (without making the box).
    @inlinable var hasEffects: Bool {
        guard let box = listsBox else { return false }
        return box.withUnsafeMutablePointerToHeader { !$0.pointee.effects.isEmpty }
    }

    /// Whether the lists' box has been made (tests: a machine that only splices never makes it).
    @usableFromInline var hasLists: Bool { listsBox != nil }
}
