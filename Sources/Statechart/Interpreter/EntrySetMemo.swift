/// The entry sets that history made impossible to precompute, remembered from the last time each
/// was computed, with the history values they were computed from.
///
/// SCXML `computeEntrySet` for one transition reads nothing of the machine but the chart, the
/// transition's targets and the history values of the history states it meets (rule R11): not
/// the configuration, not the data model. So a transition into a state whose child machine
/// records history — the usual way history is used: leave a screen, come back to where it was —
/// enters the same states, by the same defaults, every time its history holds the same values,
/// and the builder's walk (about 900 instructions for a deep history three levels down, issue 16
/// "History re-entered from memory") is done once per change of history rather than per step.
///
/// Only a step of one transition without dynamic targets is remembered, and only when the walk
/// met a history state (every other entry set without dynamic targets is precomputed by the
/// compiler, or is too large to keep). A traced step always computes, so the lean-path tests,
/// which compare a traced machine with an untraced one after every step of random walks through
/// charts with shallow and deep history, compare the remembered sets with computed ones.
///
/// The values are copied element by element, never shared with the machine's history slots: a
/// slot's array is refilled in place when history is recorded again (``ChartInstance/recordHistory(of:)``),
/// which a shared buffer would turn into a copy per record.
@usableFromInline
struct EntrySetMemo: Sendable {
    /// How many transitions are remembered; a new one replaces the oldest.
    @inlinable static var capacity: Int { 8 }

    /// What ``replay(_:history:into:)`` found.
    @usableFromInline
    enum Replay: Equatable, Sendable {
        /// No record, or its history changed: the set must be computed.
        case none
        /// The entries, default entries and history defaults are in the builder.
        case entries
        /// Entering the set runs nothing: only the entries are in the builder (the default
        /// marks matter only for the actions of initial and default transitions).
        case runsNothing
    }

    @usableFromInline
    struct Record: Sendable {
        @usableFromInline var transition: Int32
        /// Whether entering the set runs nothing (``ChartInstance/entrySetRunsNothing(_:)``).
        @usableFromInline var runsNothing = false
        /// The entry set, sorted in entry order.
        @usableFromInline var entries: [Int32] = []
        /// The compound states among them entered by default.
        @usableFromInline var defaults: [Int32] = []
        @usableFromInline var historyDefaults: [EntrySetBuilder.HistoryDefault] = []
        /// The history slots read, and what each held: `lengths[i]` values of `values`, in order,
        /// or -1 for a slot with no value yet.
        @usableFromInline var slots: [Int32] = []
        @usableFromInline var lengths: [Int32] = []
        @usableFromInline var values: [Int32] = []

        @inlinable init(transition: Int32) { self.transition = transition }

        /// Whether the history slots it read hold what they held when it was computed.
        @inlinable
        func holds(for history: [[Int32]?]) -> Bool {
            var start = 0
            var i = 0
            while i < slots.count {
                let length = Int(lengths[i])
                let slot = Int(slots[i])
                i += 1
                // Compared in place: bound to a local, the slot's array was retained and released.
                let same = history.withUnsafeBufferPointer { slots -> Bool in
                    guard let stored = (slots.baseAddress.unsafelyUnwrapped + slot).pointee else { return length < 0 }
                    guard length == stored.count else { return false }
                    var k = 0
                    while k < length {
                        if stored[k] != values[start + k] { return false }
                        k += 1
                    }
                    return true
                }
                if !same { return false }
                start += Swift.max(length, 0)
            }
            return true
        }
    }

    @usableFromInline var records: [Record] = []
    /// The record a new transition replaces once ``capacity`` are kept.
    @usableFromInline var nextReplaced = 0

    @inlinable init() {}

    /// Puts the remembered entry set of `transition` into `builder` (cleared) when its history
    /// still holds the same values.
    ///
    /// - Returns: What it put there; the builder's entries are sorted, as after
    ///   ``EntrySetBuilder/finish()``.
    @inlinable
    func replay(_ transition: Int32, history: [[Int32]?], into builder: inout EntrySetBuilder) -> Replay {
        // Through a pointer: a record read as `records[r]` is copied whole, a retain and a
        // release for each of its six arrays.
        records.withUnsafeBufferPointer { records in
            guard let first = records.baseAddress else { return .none }
            var record = first
            let end = first + records.count
            while record < end {
                if record.pointee.transition == transition {
                    guard record.pointee.holds(for: history) else { return .none }
                    record.pointee.entries.withUnsafeBufferPointer { builder.entries.append(contentsOf: $0) }
                    if record.pointee.runsNothing { return .runsNothing }
                    record.pointee.defaults.withUnsafeBufferPointer { for s in $0 { builder.markDefault(s) } }
                    if !record.pointee.historyDefaults.isEmpty {
                        for h in record.pointee.historyDefaults { builder.defaultHistory.append(h) }
                    }
                    return .entries
                }
                record += 1
            }
            return .none
        }
    }

    /// Remembers what `builder` computed for `transition` alone, after ``EntrySetBuilder/finish()``,
    /// with the values of the history slots it read. A record kept for the transition is
    /// refilled in place (its arrays keep their storage).
    @inlinable
    mutating func remember(_ transition: Int32, from builder: EntrySetBuilder, runsNothing: Bool, history: [[Int32]?]) {
        var index = records.firstIndex { $0.transition == transition } ?? -1
        if index < 0 {
            if records.count < Self.capacity {
                records.append(Record(transition: transition))
                index = records.count - 1
            } else {
                index = nextReplaced
                nextReplaced = (nextReplaced + 1) % Self.capacity
                records[index].transition = transition
            }
        }
        records[index].fill(from: builder, history: history)
        records[index].runsNothing = runsNothing
    }
}

extension EntrySetMemo.Record {
    @inlinable
    mutating func fill(from builder: EntrySetBuilder, history: [[Int32]?]) {
        entries.removeAll(keepingCapacity: true)
        defaults.removeAll(keepingCapacity: true)
        historyDefaults.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        for s in builder.entries {
            entries.append(s)
            if builder.isDefaultEntered(s) { defaults.append(s) }
        }
        for h in builder.defaultHistory { historyDefaults.append(h) }
        for slot in builder.historyReads {
            slots.append(slot)
            if let stored = history[Int(slot)] {
                lengths.append(Int32(stored.count))
                for v in stored { values.append(v) }
            } else {
                lengths.append(-1)
            }
        }
    }
}
