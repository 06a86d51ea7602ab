import Statechart
import Synchronization
import Testing

/// Every number a guard saw, the speculative evaluations included (a copy's context is discarded).
private final class SerialRecorder: Sendable {
    let serials = Mutex<[UInt64]>([])
}

/// What the guard and the content of a chart saw of the events: their serial numbers.
private struct Seen: Sendable {
    var guards: [UInt64] = []
    var content: [UInt64] = []
}

/// a ─go [records]→ a with content that records too, and a ─raise→ an internal `inner` that
/// both record again.
private func recordingMachine(_ recorder: SerialRecorder = SerialRecorder()) throws -> ChartInstance<String, Seen> {
    var definition = ChartDefinition<String, Seen>(name: "serials", initial: ["a"], eventName: { $0 })
    let a = definition.addState("a", in: definition.root)
    let recordGuard = Guard<String, Seen>.expression("record") { context, environment in
        context.guards.append(environment.eventSerial)
        recorder.serials.withLock { $0.append(environment.eventSerial) }
        return true
    }
    let recordContent = Action<String, Seen>.content("record") { scope, environment in
        scope.context.content.append(environment.eventSerial)
    }
    definition.addTransition(
        TransitionDefinition(on: .names(["go"]), guard: recordGuard, to: ["a"], actions: [recordContent, .raise("inner")]), from: a)
    definition.addTransition(TransitionDefinition(on: .names(["inner"]), guard: recordGuard, actions: [recordContent]), from: a)
    var instance = ChartInstance(chart: try Chart(definition), context: Seen())
    try instance.start()
    return instance
}

@Suite("The environment numbers the event it shows (R81)")
struct EventSerialTests {
    @Test("R81: the guard and content of one event see one nonzero number; every event taken gets a new one")
    func oneNumberPerEvent() throws {
        var instance = try recordingMachine()
        try instance.send("go")
        try instance.send("go")
        let guards = instance.context.guards
        let content = instance.context.content
        // go, inner, go, inner: four events, each seen by its guard and its content.
        #expect(guards.count == 4)
        #expect(guards == content)
        #expect(!guards.contains(0))
        #expect(Set(guards).count == 4)
    }

    @Test("R81: canHandle's hypothetical event is numbered 0 (unknown), and speculation changes nothing")
    func speculationIsUnnumbered() throws {
        let recorder = SerialRecorder()
        var instance = try recordingMachine(recorder)
        try instance.send("go")
        #expect(instance.canHandle("go"))
        // The guard saw 0; it ran on a copy of the context, so the machine's is unchanged.
        #expect(recorder.serials.withLock { $0.last } == UInt64(0))
        #expect(instance.context.guards.count == 2)
    }

    @Test("R81: two machines never share a number, and a copy continues from where it was copied")
    func numbersAreUniqueAcrossMachines() throws {
        var first = try recordingMachine()
        var second = try recordingMachine()
        try first.send("go")
        try second.send("go")
        #expect(Set(first.context.guards).isDisjoint(with: second.context.guards))
        var copy = first
        try first.send("go")
        try copy.send("go")
        // The copy saw the same events up to the copy, so it may reuse the numbers after it
        // (its own events are numbered in its own line); what it saw before is the original's.
        #expect(Array(copy.context.guards.prefix(2)) == Array(first.context.guards.prefix(2)))
    }
}
