import Testing

@testable import Statechart

/// Rule R54 for a chart nothing of which can read machine time (``Chart/readsTime``): its plain
/// sends do not read the clock, and what shows the time brings it up to the clock first, so a
/// reader sees what reading it at every send would have shown.
@Suite("Reading the clock only when the time can be seen")
struct ClockReadTests {
    enum S: Hashable, Sendable { case a, b, late }
    enum E: Hashable, Sendable { case go, back, ping }

    /// Nothing here reads the time: plain transitions, one of them targetless.
    static let ignoresTime = Machine<S, E, Int>(initial: .a) {
        When(.a) { On(.go, to: .b) }
        When(.b) {
            On(.back, to: .a)
            On(.ping)
        }
        When(.late) {}
    }

    /// The same with a closure action: the closure could read `now` or send after a delay.
    static let runsCode = Machine<S, E, Int>(initial: .a) {
        When(.a) { On(.go, to: .b) { $0.context += 1 } }
        When(.b) { On(.back, to: .a) }
        When(.late) {}
    }

    /// The same with a delayed transition: its timer is due at a time counted from `now`.
    static let timed = Machine<S, E, Int>(initial: .a) {
        When(.a) { On(.go, to: .b) }
        When(.b) {
            On(.back, to: .a)
            On(.ping)
            After(.seconds(2), to: .late)
        }
        When(.late) {
            On(.back, to: .a)
            On(.ping)
        }
    }

    @Test("R54: which charts can read machine time — closures, delays, timers, guards that see the environment — and which cannot")
    func chartsThatReadTime() throws {
        func chart(_ build: (inout ChartDefinition<String, Int>, ChartDefinition<String, Int>.Node, ChartDefinition<String, Int>.Node) -> Void) throws -> Chart<String, Int> {
            var d = ChartDefinition<String, Int>(name: "t", eventName: { $0 })
            let a = d.addState("a", in: d.root)
            let b = d.addState("b", in: d.root)
            build(&d, a, b)
            return try Chart(d)
        }
        func plain(_ actions: [Action<String, Int>], guard g: Guard<String, Int>? = nil) -> (inout ChartDefinition<String, Int>, ChartDefinition<String, Int>.Node, ChartDefinition<String, Int>.Node) -> Void {
            { d, a, _ in d.addTransition(TransitionDefinition(on: .event("go"), guard: g, to: ["b"], actions: actions), from: a) }
        }
        #expect(try !chart(plain([])).readsTime)
        #expect(try !chart(plain([.raise("x"), .send("y"), .cancel(id: "k"), .log(label: "l"), .cancelTimer("t")])).readsTime)
        #expect(try !chart(plain([], guard: .not(.all([.inState("b"), .predicate { c, _ in c > 0 }])))).readsTime)
        #expect(try chart(plain([.send("y", delay: .seconds(1))])).readsTime)
        #expect(try chart(plain([.startTimer("t", after: .seconds(1))])).readsTime)
        #expect(try chart(plain([.run(nil) { _ in }])).readsTime)
        #expect(try chart(plain([.content("<assign/>") { _, _ in }])).readsTime)
        #expect(try chart(plain([], guard: .any([.inState("b"), .withInput { $0.now > .zero }]))).readsTime)
        #expect(try chart(plain([], guard: .expression("x") { _, e in e.now > .zero })).readsTime)
        #expect(try chart { d, _, b in d.addOnEntry([.log(label: "in")], to: b) }.readsTime == false)
        #expect(try chart { d, _, b in d.addOnExit([.run("out") { _ in }], to: b) }.readsTime)
        #expect(try TypedChart(Self.ignoresTime).chart.readsTime == false)
        #expect(try TypedChart(Self.runsCode).chart.readsTime)
        #expect(try TypedChart(Self.timed).chart.readsTime)
    }

    @Test("R54: an AsyncStateMachine whose chart cannot read the time sends without reading the clock; now and a snapshot show the clock's time")
    func asyncIgnoringTime() async throws {
        let clock = SilentClock()
        let m = try await AsyncStateMachine(Self.ignoresTime, context: 0, clock: clock)
        let before = clock.reads
        for _ in 0..<50 {
            try await m.send(.go)
            try await m.send(.ping)
            try await m.send(.back)
        }
        #expect(clock.reads == before, "150 sends read the clock \(clock.reads - before) times")
        #expect(await m.state == .a)
        clock.move(by: .seconds(5))
        #expect(await m.now == .seconds(5))
        clock.move(by: .seconds(1))
        try await m.send(.go)
        #expect(await m.snapshot().now == .seconds(6))
        clock.move(by: .seconds(1))
        try await m.send(.back)
        #expect(await m.now == .seconds(7))
        // Read once, the time stays until the next send: a second read does not read the clock.
        let reads = clock.reads
        clock.move(by: .seconds(1))
        #expect(await m.now == .seconds(7))
        #expect(clock.reads == reads)
    }

    @Test("R54: a chart with a closure action or a delayed transition reads the clock before every send, and its timer is due two seconds after the state is entered")
    func asyncReadingTime() async throws {
        let clock = SilentClock()
        let code = try await AsyncStateMachine(Self.runsCode, context: 0, clock: clock)
        var before = clock.reads
        for _ in 0..<10 {
            try await code.send(.go)
            try await code.send(.back)
        }
        #expect(clock.reads - before >= 20)
        #expect(await code.context == 10)

        let timed = try await AsyncStateMachine(Self.timed, context: 0, clock: clock)
        before = clock.reads
        clock.move(by: .seconds(10))
        try await timed.send(.go)  // entered at 10 s (plus the 10 s already moved): due 2 s later
        #expect(clock.reads > before)
        clock.move(by: .milliseconds(1999))
        try await timed.send(.ping)
        #expect(await timed.state == .b)
        clock.move(by: .milliseconds(1))
        try await timed.send(.ping)
        #expect(await timed.state == .late)
    }

    @Test("R54: an ObservableStateMachine whose chart cannot read the time sends without reading the clock; now and the machine show the clock's time")
    @MainActor
    func observableIgnoringTime() async throws {
        let clock = SilentClock()
        let m = try ObservableStateMachine(Self.ignoresTime, context: 0, clock: clock)
        let before = clock.reads
        for _ in 0..<20 {
            try m.send(.go)
            try m.send(.back)
        }
        #expect(clock.reads == before)
        clock.move(by: .seconds(3))
        #expect(m.now == .seconds(3))
        clock.move(by: .seconds(1))
        try m.send(.go)
        #expect(m.machine.now == .seconds(4))
        #expect(m.state == .b)
    }

    @Test("R54: after sends that skipped the clock, an operation that is not a plain send catches up as before: reset() starts from the clock's time")
    func otherOperationsCatchUp() async throws {
        let clock = SilentClock()
        let m = try await AsyncStateMachine(Self.ignoresTime, context: 0, clock: clock)
        try await m.send(.go)
        clock.move(by: .seconds(4))
        let reads = clock.reads
        try await m.reset()
        #expect(clock.reads > reads)
        #expect(await m.now == .seconds(4))
        #expect(await m.state == .a)
    }
}
