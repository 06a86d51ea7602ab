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
/// Only a step of one transition is remembered: one without dynamic targets when the walk met a
/// history state (every other entry set without dynamic targets is precomputed by the compiler,
/// or is too large to keep), and a state request's (rule R26), whose target is given when it is
/// made: its set is remembered by the requested state too, history met or not — a chart's
/// request transition is shared by every state of its container, so the compiler cannot
/// precompute it, and a machine driven by requests asks for the same few states again and again.
/// A traced step always computes, so the lean-path tests, which compare a traced machine with an
/// untraced one after every step of random walks through charts with shallow and deep history,
/// compare the remembered sets with computed ones.
///
/// The values are copied element by element, never shared with the machine's history slots: a
/// slot's array is refilled in place when history is recorded again (``ChartInstance/recordHistory(of:)``),
/// which a shared buffer would turn into a copy per record.
@usableFromInline
struct EntrySetMemo: Sendable {
    /// How many transitions are remembered; a new one replaces the oldest.
    @inlinable static var capacity: Int { 8 }

    @usableFromInline
    struct Record: Sendable {
        @usableFromInline var transition: Int32
        /// The requested state, for a request transition; -1 for any other.
        @usableFromInline var target: Int32
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

        @inlinable init(transition: Int32, target: Int32) {
            self.transition = transition
            self.target = target
        }

        /// Whether the history slots it read hold what they held when it was computed.
        @inlinable
        func holds(for history: [[Int32]?]) -> Bool {
            // Read in place: a slot's array bound to a local was retained and released.
            history.withUnsafeBufferPointer { history in
                var start = 0
                var i = 0
                while i < slots.count {
                    let length = Int(lengths[i])
                    guard let stored = history[Int(slots[i])] else {
                        if length >= 0 { return false }
                        i += 1
                        continue
                    }
                    i += 1
                    guard length == stored.count else { return false }
                    var k = 0
                    while k < length {
                        if stored[k] != values[start + k] { return false }
                        k += 1
                    }
                    start += length
                }
                return true
            }
        }
    }

    @usableFromInline var records: [Record] = []
    /// The record a new transition replaces once ``capacity`` are kept.
    @usableFromInline var nextReplaced = 0

    @inlinable init() {}

    /// The index of the record of `transition` (entering `target`, for a request; -1 for any
    /// other transition) when the history values it read still hold; `nil` when the set must be
    /// computed.
    @inlinable
    func record(of transition: Int32, target: Int32, history: [[Int32]?]) -> Int? {
        // Through a pointer: a record read as `records[r]` is copied whole, a retain and a
        // release for each of its six arrays.
        records.withUnsafeBufferPointer { records in
            var r = 0
            while r < records.count {
                let record = records.baseAddress.unsafelyUnwrapped + r
                if record.pointee.transition == transition && record.pointee.target == target {
                    return record.pointee.holds(for: history) ? r : nil
                }
                r += 1
            }
            return nil
        }
    }

    /// The number of states the set of record `r` enters.
    @inlinable func entryCount(_ r: Int) -> Int {
        records.withUnsafeBufferPointer { $0[r].entries.count }
    }

    /// Whether entering the set of record `r` runs nothing.
    @inlinable func runsNothing(_ r: Int) -> Bool {
        records.withUnsafeBufferPointer { $0[r].runsNothing }
    }

    /// Writes the set of record `r`, sorted in entry order, to `destination` (room for
    /// ``entryCount(_:)`` states): straight to the scope's list, with nothing else written while
    /// the record is read.
    @inlinable func copyEntries(_ r: Int, to destination: UnsafeMutablePointer<Int32>) {
        records.withUnsafeBufferPointer { records in
            (records.baseAddress.unsafelyUnwrapped + r).pointee.entries.withUnsafeBufferPointer { entries in
                var k = 0
                while k < entries.count {
                    destination[k] = entries[k]
                    k += 1
                }
            }
        }
    }

    /// Marks, in `builder`, the compound states record `r` enters by default and the history
    /// defaults it takes: what entering the set runs besides entry actions.
    @inlinable func markDefaults(_ r: Int, in builder: inout EntrySetBuilder) {
        for s in records[r].defaults { builder.markDefault(s) }
        for h in records[r].historyDefaults { builder.defaultHistory.append(h) }
    }

    /// Remembers what `builder` computed for `transition` alone (entering `target`, for a
    /// request; -1 for any other transition), after ``EntrySetBuilder/finish()``, with the values
    /// of the history slots it read. A record kept for the transition is refilled in place (its
    /// arrays keep their storage).
    @inlinable
    mutating func remember(
        _ transition: Int32, target: Int32, from builder: EntrySetBuilder, runsNothing: Bool, history: [[Int32]?]
    ) {
        var index = records.firstIndex { $0.transition == transition && $0.target == target } ?? -1
        if index < 0 {
            if records.count < Self.capacity {
                records.append(Record(transition: transition, target: target))
                index = records.count - 1
            } else {
                index = nextReplaced
                nextReplaced = (nextReplaced + 1) % Self.capacity
                records[index].transition = transition
                records[index].target = target
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
