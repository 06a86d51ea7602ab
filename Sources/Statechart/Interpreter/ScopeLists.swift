/// The lists an ``ActionScope`` fills while a step runs — the effects its actions queue, the
/// states the microstep exits and the states it enters — kept in one box made on first use
/// (issue 16, "Memory").
///
/// A step that only splices the configuration (``ChartInstance/takePlainTransition(_:)``) and
/// actions that queue nothing never touch them, so a machine that takes only such steps holds one
/// pointer instead of three 16-byte buffers. The box is copied on write, as ``StepScratch``'s is:
/// copies of a scope never share their lists.
///
/// The exited and entered states are the box's own elements — exits at `0 ..< room`, entries at
/// `room ..< 2 * room` — written with plain stores once the box is known to be unique and large
/// enough (``ActionScope/stepLists(room:)``): kept as two arrays, each write also checked the
/// array's uniqueness, and recording a static step's two one-state lists cost the order machine
/// with actions 124 instructions per event.
///
/// No caller keeps a ``StepLists`` view while an action runs: an action receives the scope and may
/// copy it, after which the next write makes the scope a box of its own.
@usableFromInline
struct ScopeLists<Event: Hashable & Sendable> {
    @usableFromInline var effects = ScratchBuffer<ActionEffect<Event>>()
    /// Room for each list, in states.
    @usableFromInline var room: Int
    /// States exited by the current microstep, in exit order: elements `0 ..< exitCount`.
    @usableFromInline var exitCount = 0
    /// States entered by the current microstep, in entry order: elements `room ..< room + entryCount`.
    @usableFromInline var entryCount = 0

    @inlinable init(room: Int) { self.room = room }
}

/// The exited and entered states of a ``ScopeLists`` box, written in place. Valid until an
/// action runs or the lists are asked for more room.
@usableFromInline
struct StepLists<Event: Hashable & Sendable> {
    @usableFromInline let header: UnsafeMutablePointer<ScopeLists<Event>>
    @usableFromInline let states: UnsafeMutablePointer<Int32>

    @inlinable init(header: UnsafeMutablePointer<ScopeLists<Event>>, states: UnsafeMutablePointer<Int32>) {
        self.header = header
        self.states = states
    }

    /// The exited states.
    @inlinable var exits: UnsafeMutableBufferPointer<Int32> {
        UnsafeMutableBufferPointer(start: states, count: header.pointee.exitCount)
    }

    /// The entered states.
    @inlinable var entries: UnsafeMutableBufferPointer<Int32> {
        UnsafeMutableBufferPointer(start: states + header.pointee.room, count: header.pointee.entryCount)
    }

    @inlinable func clearExits() { header.pointee.exitCount = 0 }
    @inlinable func clearEntries() { header.pointee.entryCount = 0 }

    /// Appends an exited state; the caller asked for room for it.
    @inlinable func appendExit(_ s: Int32) {
        states[header.pointee.exitCount] = s
        header.pointee.exitCount += 1
    }

    /// Appends an entered state; the caller asked for room for it.
    @inlinable func appendEntry(_ s: Int32) {
        states[header.pointee.room + header.pointee.entryCount] = s
        header.pointee.entryCount += 1
    }

    /// Where the entered states are kept (room for as many as the caller asked), for a caller
    /// that writes them itself and then sets ``setEntryCount(_:)``.
    @inlinable var entryStorage: UnsafeMutablePointer<Int32> { states + header.pointee.room }

    /// Sets how many entered states ``entryStorage`` holds.
    @inlinable func setEntryCount(_ count: Int) { header.pointee.entryCount = count }

    /// Sorts the entered states and drops repeated ones.
    @inlinable func sortEntriesRemovingDuplicates() {
        header.pointee.entryCount = entries.sortAndRemoveDuplicates()
    }
}

extension ActionScope {
    /// The box of the lists: the header and the states, as its elements.
    @usableFromInline typealias ListsBox = ManagedBuffer<ScopeLists<Event>, Int32>

    /// The lists with room for at least `room` states in each, made on first use, copied first when
    /// another copy of the scope shares them, grown (keeping what they hold) when too small.
    @inlinable @inline(__always)
    mutating func stepLists(room: Int) -> StepLists<Event> {
        if !isKnownUniquelyReferenced(&listsBox)
            || listsBox.unsafelyUnwrapped.withUnsafeMutablePointerToHeader({ $0.pointee.room }) < room
        {
            remakeLists(room: room)
        }
        return listsBox.unsafelyUnwrapped.withUnsafeMutablePointers { StepLists(header: $0, states: $1) }
    }

    /// Makes the box, or a copy of a shared or too small one with what it holds.
    @usableFromInline @inline(never)
    mutating func remakeLists(room wanted: Int) {
        let old = listsBox
        let oldRoom = old?.withUnsafeMutablePointerToHeader { $0.pointee.room } ?? 0
        let room = Swift.max(wanted, oldRoom, 4)
        let box = ListsBox.create(minimumCapacity: 2 * room) { _ in
            old?.withUnsafeMutablePointerToHeader { $0.pointee } ?? ScopeLists(room: room)
        }
        box.withUnsafeMutablePointers { header, states in
            header.pointee.room = room
            old?.withUnsafeMutablePointers { oldHeader, oldStates in
                states.update(from: oldStates, count: oldHeader.pointee.exitCount)
                (states + room).update(from: oldStates + oldRoom, count: oldHeader.pointee.entryCount)
            }
        }
        listsBox = box
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
        _modify { yield &stepLists(room: 0).header.pointee.effects }
    }

    /// Replaces the exited states (for the steps that are not on a hot path: stopping,
    /// suspending).
    @usableFromInline mutating func setExits(_ states: some Collection<Int32>) {
        let lists = stepLists(room: states.count)
        lists.clearExits()
        for s in states { lists.appendExit(s) }
    }

    /// Replaces the entered states (see ``setExits(_:)``).
    @usableFromInline mutating func setEntries(_ states: some Collection<Int32>) {
        let lists = stepLists(room: states.count)
        lists.clearEntries()
        for s in states { lists.appendEntry(s) }
    }

    // The loops of a microstep read the lists by index through these, asking for the box each
    // time (an action may have replaced it).

    /// The number of states exited by the current microstep (without making the box).
    @inlinable var exitCount: Int {
        listsBox?.withUnsafeMutablePointerToHeader { $0.pointee.exitCount } ?? 0
    }

    /// The `k`th state exited, for `k < exitCount` (which holds only when the box exists).
    @inlinable func exit(at k: Int) -> Int32 {
        listsBox.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0[k] }
    }

    /// The number of states entered by the current microstep (without making the box).
    @inlinable var entryCount: Int {
        listsBox?.withUnsafeMutablePointerToHeader { $0.pointee.entryCount } ?? 0
    }

    /// The `k`th state entered, for `k < entryCount` (which holds only when the box exists).
    @inlinable func entry(at k: Int) -> Int32 {
        listsBox.unsafelyUnwrapped.withUnsafeMutablePointers { header, states in states[header.pointee.room + k] }
    }

    /// Whether an action queued an effect (without making the box).
    @inlinable var hasEffects: Bool {
        guard let box = listsBox else { return false }
        return box.withUnsafeMutablePointerToHeader { !$0.pointee.effects.isEmpty }
    }

    /// Whether the lists' box has been made (tests: a machine that only splices never makes it).
    @usableFromInline var hasLists: Bool { listsBox != nil }
}
