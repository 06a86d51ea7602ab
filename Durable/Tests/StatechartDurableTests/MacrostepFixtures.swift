import StatechartDurable

/// A commit for instance `id` from `revision` to `revision + 1`, as the host would write it: the
/// one fixture of every store test (the shared suite's, the group commit tests').
func macrostep(
    _ id: String, from revision: Int64, to states: [String], key: String? = nil, timers: [Int64] = [],
    effects: Int = 0
) -> MacrostepCommit {
    let sequence = revision  // the start (revision 1) is sequence 0
    let instance = InstanceRecord(
        id: id, chartName: "order", chartVersion: 1, revision: revision + 1, sequence: sequence, originNanoseconds: 0,
        finished: false, activeStates: states, snapshot: "{\"step\":\(sequence)}")
    let outcome = SendOutcome(sequence: sequence, handled: true, configuration: states, finished: false)
    return MacrostepCommit(
        instance: instance, expectedRevision: revision,
        journal: JournalEntry(
            instanceID: id, sequence: sequence, kind: revision == 0 ? .start : .event, event: "\"e\(sequence)\"",
            configuration: states, atNanoseconds: sequence, idempotencyKey: key),
        idempotency: key.map { IdempotencyRecord(key: $0, event: "\"e\(sequence)\"", outcome: outcome) },
        timers: timers.enumerated().map {
            TimerRecord(instanceID: id, position: $0.offset, dueNanoseconds: $0.element, event: "\"t\"", sendID: nil)
        },
        outbox: (0..<effects).map {
            OutboxEntry(instanceID: id, sequence: sequence, position: $0, kind: "work", name: "w\($0)", state: "s")
        })
}
