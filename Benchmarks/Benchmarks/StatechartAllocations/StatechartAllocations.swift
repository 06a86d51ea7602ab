import Benchmark
import BenchmarkCharts
import Statechart
import StatechartInterchange

// Heap allocations per event, measured on their own: `mallocCountTotal` is the only metric, so
// no clock or sampler runs in the same measurement (malloc counts are inflated when wall clock is
// measured in the same run). The figures are per event (scalingFactor 1,000, printed with `*`).
//
// These benchmarks are the regression gate: `Scripts/benchmarks.sh` runs `thresholds check` on
// this target against the committed `Thresholds/StatechartAllocations.*.p90.json`. Allocation
// counts do not depend on the machine's speed or load, so the gate is stable on a shared machine.
// The names are those of the wall-clock benchmarks in StatechartBenchmarks.

let benchmarks: @Sendable () -> Void = {
    let allocations = Benchmark.Configuration(
        metrics: [.mallocCountTotal],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 200,
        // Exact: any extra allocation per 1,000 events is a regression (and any fewer an
        // improvement: `Scripts/benchmarks.sh --update` records it).
        thresholds: [.mallocCountTotal: .strict]
    )

    var flat: StateMachine<OrderState, OrderEvent, Void>? = try? StateMachine(flatOrderMachine(), context: ())
    Benchmark("Flat.orderCycle", configuration: allocations) { benchmark in
        var machine = takeOut(&flat)
        defer { flat = machine }
        let events = orderCycle
        for i in benchmark.scaledIterations {
            try machine.send(events[i & 3])
        }
    }

    var handWritten: HandWrittenOrder? = HandWrittenOrder()
    Benchmark("Flat.handWrittenSwitch", configuration: allocations) { benchmark in
        var machine = takeOut(&handWritten)
        defer { handWritten = machine }
        let events = orderCycle
        for i in benchmark.scaledIterations {
            blackHole(machine.send(events[i & 3]))
        }
    }

    var innermost: StateMachine<Level1, NestedEvent, Void>? = try? StateMachine(nestedMachine(), context: ())
    Benchmark("Nested.depth4.innermost", configuration: allocations) { benchmark in
        var machine = takeOut(&innermost)
        defer { innermost = machine }
        for _ in benchmark.scaledIterations {
            try machine.send(.inner)
        }
    }

    var bubbling: StateMachine<Level1, NestedEvent, Void>? = try? StateMachine(nestedMachine(), context: ())
    Benchmark("Nested.depth4.bubbleToTop", configuration: allocations) { benchmark in
        var machine = takeOut(&bubbling)
        defer { bubbling = machine }
        for _ in benchmark.scaledIterations {
            try machine.send(.outer)
        }
    }

    var parallel: StateMachine<Appliance, ParallelEvent, Void>? = try? StateMachine(parallelMachine(), context: ())
    Benchmark("Parallel.regions4", configuration: allocations) { benchmark in
        var machine = takeOut(&parallel)
        defer { parallel = machine }
        for _ in benchmark.scaledIterations {
            try machine.send(.tick)
        }
    }

    var history: StateMachine<Room, HistoryEvent, Void>? = {
        guard var m = try? StateMachine(historyMachine(), context: ()) else { return nil }
        try? m.send(historySetup)
        return m
    }()
    Benchmark("History.deepLeaveAndReenter", configuration: allocations) { benchmark in
        var machine = takeOut(&history)
        defer { history = machine }
        let events = historyCycle
        for i in benchmark.scaledIterations {
            try machine.send(events[i & 1])
        }
    }

    for states in [10, 1_000, 100_000] {
        var instance: ChartInstance<ScaleEvent, Void>? = try? scaleInstance(states: states)
        Benchmark("Scale.event.\(states)", configuration: allocations) { benchmark in
            var machine = takeOut(&instance)
            defer { instance = machine }
            for _ in benchmark.scaledIterations {
                try machine.send(.next)
            }
        }
    }

    // MARK: SCXML data model

    // The one-state SCXML chart of `DataModelChart`: a `cond`, an `<assign>`, none, the null
    // data model. 0 per event here means that neither evaluating `count < 2` nor the assignment
    // allocates in steady state.
    for variant in DataModelChart.allCases {
        var instance: ChartInstance<SCXMLEvent, SCXMLContext>? = try? variant.instance()
        Benchmark("DataModel.\(variant.rawValue)", configuration: allocations) { benchmark in
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
    Benchmark("Async.send", configuration: allocations) { benchmark async throws in
        let machine = try await AsyncStateMachine(flatOrderMachine(), context: ())
        let events = orderCycle
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            try await machine.send(events[i & 3])
        }
    }

    // The floor: the hand-written switch inside an actor.
    Benchmark("Async.handWrittenActor", configuration: allocations) { benchmark async in
        let machine = HandWrittenOrderActor()
        let events = orderCycle
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            blackHole(await machine.send(events[i & 3]))
        }
    }
}
