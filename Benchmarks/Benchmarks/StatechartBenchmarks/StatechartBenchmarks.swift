import Benchmark
import BenchmarkCharts
import Foundation
import Statechart
import StatechartInterchange

// Wall-clock figures: time per event, build time, SCXML parsing speed.
//
// Every per-event benchmark sends `scalingFactor` (1,000) events per measured iteration, so the
// figures printed with `*` are per event. A running machine is kept between iterations (it is
// moved out of its slot and back, which copies nothing), so what is measured is the steady
// state, not the start. Heap allocations are measured by the StatechartAllocations target on
// their own: malloc counts are inflated when the clock is read in the same run.

let benchmarks: @Sendable () -> Void = {
    let perEvent = Benchmark.Configuration(
        metrics: [.wallClock, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 100_000
    )

    // MARK: Flat

    var flat: StateMachine<OrderState, OrderEvent, Void>? = try? StateMachine(flatOrderMachine(), context: ())
    Benchmark("Flat.orderCycle", configuration: perEvent) { benchmark in
        var machine = takeOut(&flat)
        defer { flat = machine }
        let events = orderCycle
        for i in benchmark.scaledIterations {
            try machine.send(events[i & 3])
        }
    }

    var handWritten: HandWrittenOrder? = HandWrittenOrder()
    Benchmark("Flat.handWrittenSwitch", configuration: perEvent) { benchmark in
        var machine = takeOut(&handWritten)
        defer { handWritten = machine }
        let events = orderCycle
        for i in benchmark.scaledIterations {
            blackHole(machine.send(events[i & 3]))
        }
    }

    // The order machine as people write it: a guard and an action on every transition, an entry
    // action on every state (issue 16), and the hand-written switch calling the same closures.
    var withActions: StateMachine<OrderState, OrderEvent, OrderBook>? =
        try? StateMachine(flatOrderMachineWithActions(), context: OrderBook())
    Benchmark("Flat.withActions", configuration: perEvent) { benchmark in
        var machine = takeOut(&withActions)
        defer { withActions = machine }
        let events = orderCycle
        for i in benchmark.scaledIterations {
            try machine.send(events[i & 3])
        }
    }

    var handWrittenActions: HandWrittenOrderWithActions? = HandWrittenOrderWithActions()
    Benchmark("Flat.handWrittenWithActions", configuration: perEvent) { benchmark in
        var machine = takeOut(&handWrittenActions)
        defer { handWrittenActions = machine }
        let events = orderCycle
        for i in benchmark.scaledIterations {
            blackHole(machine.send(events[i & 3]))
        }
    }

    // MARK: Nested, depth 4

    var innermost: StateMachine<Level1, NestedEvent, Void>? = try? StateMachine(nestedMachine(), context: ())
    Benchmark("Nested.depth4.innermost", configuration: perEvent) { benchmark in
        var machine = takeOut(&innermost)
        defer { innermost = machine }
        for _ in benchmark.scaledIterations {
            try machine.send(.inner)
        }
    }

    var bubbling: StateMachine<Level1, NestedEvent, Void>? = try? StateMachine(nestedMachine(), context: ())
    Benchmark("Nested.depth4.bubbleToTop", configuration: perEvent) { benchmark in
        var machine = takeOut(&bubbling)
        defer { bubbling = machine }
        for _ in benchmark.scaledIterations {
            try machine.send(.outer)
        }
    }

    // MARK: Parallel, four regions

    var parallel: StateMachine<Appliance, ParallelEvent, Void>? = try? StateMachine(parallelMachine(), context: ())
    Benchmark("Parallel.regions4", configuration: perEvent) { benchmark in
        var machine = takeOut(&parallel)
        defer { parallel = machine }
        for _ in benchmark.scaledIterations {
            try machine.send(.tick)
        }
    }

    // MARK: History

    var history: StateMachine<Room, HistoryEvent, Void>? = {
        guard var m = try? StateMachine(historyMachine(), context: ()) else { return nil }
        try? m.send(historySetup)
        return m
    }()
    Benchmark("History.deepLeaveAndReenter", configuration: perEvent) { benchmark in
        var machine = takeOut(&history)
        defer { history = machine }
        let events = historyCycle
        for i in benchmark.scaledIterations {
            try machine.send(events[i & 1])
        }
    }

    // MARK: SCXML data model

    // The one-state SCXML chart of `DataModelChart`, `go` sent 1,000 times per iteration:
    // `guardTrue` less `noGuard` is what evaluating `cond="count < 2"` costs, `assign` against
    // `noGuard` what one `<assign>` costs, and `nullDataModel` is the floor without data.
    for variant in DataModelChart.allCases {
        var instance: ChartInstance<SCXMLEvent, SCXMLContext>? = try? variant.instance()
        Benchmark("DataModel.\(variant.rawValue)", configuration: perEvent) { benchmark in
            var machine = takeOut(&instance)
            defer { instance = machine }
            let event = dataModelEvent
            for _ in benchmark.scaledIterations {
                try machine.send(event)
            }
        }
    }

    // MARK: Asynchronous send

    // `await machine.send(e)` on an `AsyncStateMachine` running the flat order machine, from a task
    // outside the actor. The machine is made before the measurement starts, once per iteration
    // (an actor cannot be moved out of a slot like the synchronous machines).
    Benchmark("Async.send", configuration: perEvent) { benchmark async throws in
        let machine = try await AsyncStateMachine(flatOrderMachine(), context: ())
        let events = orderCycle
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            try await machine.send(events[i & 3])
        }
    }

    // The floor: the hand-written switch inside an actor.
    Benchmark("Async.handWrittenActor", configuration: perEvent) { benchmark async in
        let machine = HandWrittenOrderActor()
        let events = orderCycle
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            blackHole(await machine.send(events[i & 3]))
        }
    }

    // MARK: Async, contended: 8 senders at once on one machine (issue 16)

    // Each measured iteration: 8 tasks send 125,000 events each (1,000,000 in all, `.mega`) to one
    // machine at once, so the figures are per event and the throughput is events/s under
    // contention. The senders' cycles interleave, so many events are not handled: both sides drop
    // them without an error (`throwsOnUnhandledEvent = false`; the actor returns false).
    let contended = Benchmark.Configuration(
        metrics: [.wallClock, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 1,
        scalingFactor: .mega,
        maxDuration: .seconds(10),
        maxIterations: 10
    )
    let senders = 8
    Benchmark("Async.contended8", configuration: contended) { benchmark async throws in
        var options = StateMachine<OrderState, OrderEvent, Void>.Options()
        options.throwsOnUnhandledEvent = false
        let machine = try await AsyncStateMachine(flatOrderMachine(), context: (), options: options)
        let each = benchmark.scaledIterations.count / senders
        benchmark.startMeasurement()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<senders {
                group.addTask {
                    let events = orderCycle
                    for i in 0..<each { try await machine.send(events[i & 3]) }
                }
            }
            try await group.waitForAll()
        }
    }

    Benchmark("Async.handWrittenActorContended8", configuration: contended) { benchmark async in
        let machine = HandWrittenOrderActor()
        let each = benchmark.scaledIterations.count / senders
        benchmark.startMeasurement()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<senders {
                group.addTask {
                    let events = orderCycle
                    for i in 0..<each { blackHole(await machine.send(events[i & 3])) }
                }
            }
        }
    }

    // MARK: Scale: time per event at the same depth, and build time

    for states in [10, 1_000, 100_000] {
        var instance: ChartInstance<ScaleEvent, Void>? = try? scaleInstance(states: states)
        Benchmark("Scale.event.\(states)", configuration: perEvent) { benchmark in
            var machine = takeOut(&instance)
            defer { instance = machine }
            for _ in benchmark.scaledIterations {
                try machine.send(.next)
            }
        }
    }

    for states in [10, 1_000, 100_000] {
        let build = Benchmark.Configuration(
            metrics: [.wallClock],
            timeUnits: .microseconds,
            warmupIterations: states >= 100_000 ? 1 : 5,
            maxDuration: .seconds(states >= 100_000 ? 5 : 1),
            maxIterations: states >= 100_000 ? 10 : 10_000
        )
        // Generating the definition (string ids, as a code generator would) and compiling it.
        Benchmark("Scale.build.\(states)", configuration: build) { _ in
            blackHole(try Chart(scaleDefinition(states: states)))
        }
        // Compiling only: the definition is made before the clock starts.
        Benchmark("Scale.compile.\(states)", configuration: build) { benchmark in
            let definition = scaleDefinition(states: states)
            benchmark.startMeasurement()
            blackHole(try Chart(definition))
        }
    }

    // MARK: SCXML parsing

    let document = generatedSCXML(groups: 4_000)
    let parsing = Benchmark.Configuration(
        metrics: [.wallClock],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 20
    )
    // Reading the XML into a chart definition (no compilation).
    Benchmark("SCXML.parse.\(document.count)bytes", configuration: parsing) { _ in
        blackHole(try SCXMLDocument.definition(data: document))
    }
    // The whole load: read, build the definition, compile the chart.
    Benchmark("SCXML.load.\(document.count)bytes", configuration: parsing) { _ in
        blackHole(try SCXMLDocument.load(data: document))
    }
}
