import BenchmarkCharts
import Statechart
import StatechartInterchange

// Sends N events to one of the benchmark charts, for `valgrind --tool=callgrind`: instruction
// counts are exact and repeatable whatever else the machine is doing, unlike wall time.
// `Scripts/benchmarks.sh --instructions` runs every case with 0 and with N events and prints the
// difference per event (so building and starting the machine cancel out).
//
//   InstructionCounts <case> <events>     case: flat, handWritten, flatActions,
//                                         handWrittenActions, innermost, bubbleToTop,
//                                         parallel, parallelOneRegion, history, request,
//                                         state, isActive,
//                                         activeState, observableQueries, canSend,
//                                         scale10, scale100000, async,
//                                         and the SCXML data-model charts by their names:
//                                         guardTrue, guardFalse, noGuard, assign, nullDataModel,
//                                         observable (`ObservableStateMachine.send` on the main
//                                         actor: the runtimes' driver, with its clock, measured
//                                         without a task switch, which valgrind can follow)
//
// `asyncTask` and `actorTask` send from a task outside the actor, as `Async.send` and
// `Async.handWrittenActor` of the benchmark package do: for timing the whole process and for
// `perf` (valgrind stops on their thread switches), e.g. `time InstructionCounts asyncTask 5000000`.
// `asyncContended8` and `actorContended8` send from 8 tasks at once, N events each, as
// `Async.contended8` and `Async.handWrittenActorContended8` do (issue 16's "8 concurrent senders");
// `Scripts/targets.sh` times all four.

@inline(never) func keep<T>(_ value: T) { withExtendedLifetime(value) {} }

let arguments = CommandLine.arguments
let which = arguments.count > 1 ? arguments[1] : ""
let count = arguments.count > 2 ? Int(arguments[2]) ?? 0 : 0

switch which {
case "flat":
    var machine = try StateMachine(flatOrderMachine(), context: ())
    let events = orderCycle
    for i in 0..<count { try machine.send(events[i & 3]) }
    keep(machine)
case "handWritten":
    var machine = HandWrittenOrder()
    let events = orderCycle
    for i in 0..<count { keep(machine.send(events[i & 3])) }
    keep(machine)
case "flatActions":
    try sendToOrderMachineWithActions(count)
case "handWrittenActions":
    sendToHandWrittenOrderWithActions(count)
case "innermost":
    var machine = try StateMachine(nestedMachine(), context: ())
    for _ in 0..<count { try machine.send(.inner) }
    keep(machine)
case "bubbleToTop":
    var machine = try StateMachine(nestedMachine(), context: ())
    for _ in 0..<count { try machine.send(.outer) }
    keep(machine)
case "parallel":
    var machine = try StateMachine(parallelMachine(), context: ())
    for _ in 0..<count { try machine.send(.tick) }
    keep(machine)
case "parallelOneRegion":
    var machine = try StateMachine(parallelOneRegionMachine(), context: ())
    for _ in 0..<count { try machine.send(.tick) }
    keep(machine)
case "history":
    var machine = try StateMachine(historyMachine(), context: ())
    try machine.send(historySetup)
    let events = historyCycle
    for i in 0..<count { try machine.send(events[i & 1]) }
    keep(machine)
case "scale10", "scale100000":
    var machine = try scaleInstance(states: which == "scale10" ? 10 : 100_000)
    for _ in 0..<count { try machine.send(.next) }
    keep(machine)
case "async":
    let machine = try await AsyncStateMachine(flatOrderMachine(), context: ())
    let events = orderCycle
    for i in 0..<count { try await machine.send(events[i & 3]) }
    keep(machine)
default:
    if try !runOtherCase(which, count) { try await runTaskCase(which, count) }
}

/// The cases after the switch's, synchronous (valgrind follows them), in a function of their own:
/// a case added to the top-level code changed how the switch's loops were compiled (`request`
/// written there: `bubbleToTop` 510 → 536 instructions per event, the library unchanged).
///
/// - Returns: Whether `which` was one of them.
@MainActor @inline(never) func runOtherCase(_ which: String, _ count: Int) throws -> Bool {
    if which == "observable" {
        try sendToObservableMachine(count)
    } else if which == "request" {
        try requestStates(count)
    } else if which == "state" {
        try readStates(count)
    } else if which == "isActive" {
        try askActive(count)
    } else if which == "activeState" {
        try readActiveStates(count)
    } else if which == "observableQueries" {
        try askObservableMachine(count)
    } else if which == "canSend" {
        try askCanSend(count)
    } else if let variant = DataModelChart(rawValue: which) {
        try sendToDataModelChart(variant, count)
    } else {
        return false
    }
    return true
}

// Functions of their own: inlined into the top-level code above, the SCXML case changed how the
// other cases' loops were compiled (flat: 380 → 404 instructions per event, the library unchanged),
// and so did the cases with actions (innermost: 361 → 384).
@inline(never) func sendToOrderMachineWithActions(_ count: Int) throws {
    var machine = try StateMachine(flatOrderMachineWithActions(), context: OrderBook())
    let events = orderCycle
    for i in 0..<count { try machine.send(events[i & 3]) }
    keep(machine)
}

@inline(never) func sendToHandWrittenOrderWithActions(_ count: Int) {
    var machine = HandWrittenOrderWithActions()
    let events = orderCycle
    for i in 0..<count { keep(machine.send(events[i & 3])) }
    keep(machine)
}

/// State requests (`transition(to:)`, rule R26) on the flat order machine, its four states global,
/// each request to the next state: the route check and the request's microstep.
@inline(never) func requestStates(_ count: Int) throws {
    var machine = try StateMachine(
        Machine<OrderState, OrderEvent, Void>(initial: .pending) {
            Global(.pending)
            Global(.confirmed)
            Global(.shipped)
            Global(.delivered)
        }, context: ())
    let states = OrderState.allCases
    for i in 0..<count { try machine.transition(to: states[(i + 1) & 3]) }
    keep(machine)
}

/// Reads of `StateMachine.state`, the query a view reads after every change: the nested machine
/// (its top-level state is the outermost of four levels), one read per event.
@inline(never) func readStates(_ count: Int) throws {
    let machine = try StateMachine(nestedMachine(), context: ())
    for _ in 0..<count { keep(machine.state) }
    keep(machine)
}

/// `isActive(_:)` of a value of the innermost level of the depth-4 machine, active, and of one
/// that is not (two questions a round, so the figure is per question × 2).
@inline(never) func askActive(_ count: Int) throws {
    let machine = try StateMachine(nestedMachine(), context: ())
    for _ in 0..<count {
        keep(machine.isActive(Level4.a4))
        keep(machine.isActive(Level3.b3))
    }
    keep(machine)
}

/// `activeState(of:)` of the depth-4 machine's innermost level and of its second (two
/// questions a round, so the figure is per question × 2).
@inline(never) func readActiveStates(_ count: Int) throws {
    let machine = try StateMachine(nestedMachine(), context: ())
    for _ in 0..<count {
        keep(machine.activeState(of: Level4.self))
        keep(machine.activeState(of: Level2.self))
    }
    keep(machine)
}

/// `canSend(_:)` of the order machine with guards and actions, in its first state: an event it
/// handles, behind a guard, and one it does not (two questions a round) — what a view asks for
/// each of its buttons.
@inline(never) func askCanSend(_ count: Int) throws {
    let machine = try StateMachine(flatOrderMachineWithActions(), context: OrderBook())
    for _ in 0..<count {
        keep(machine.canSend(.confirm))
        keep(machine.canSend(.deliver))
    }
    keep(machine)
}

/// `isActive(_:)`, `state`, `context` and `canSend(_:)` of the `observable` case's model (the flat
/// order machine), outside any observation (four questions a round). The same machine as `observable`: a model of another
/// machine's types made the compiler merge their specializations, and `observable` took 33
/// instructions more per event, the library unchanged.
@MainActor @inline(never) func askObservableMachine(_ count: Int) throws {
    let machine = try ObservableStateMachine(flatOrderMachine(), context: ())
    for _ in 0..<count {
        keep(machine.isActive(OrderState.pending))
        keep(machine.state)
        keep(machine.context)
        keep(machine.canSend(.confirm))
    }
    keep(machine)
}

/// The driver's send (catching up with a `ContinuousClock`, then the machine's step) without the
/// actor hop of `AsyncStateMachine`: the same `MachineDriver.sendNow` the async send calls.
@MainActor @inline(never) func sendToObservableMachine(_ count: Int) throws {
    let machine = try ObservableStateMachine(flatOrderMachine(), context: ())
    let events = orderCycle
    for i in 0..<count { try machine.send(events[i & 3]) }
    keep(machine)
}

@inline(never) func sendToDataModelChart(_ variant: DataModelChart, _ count: Int) throws {
    var machine = try variant.instance()
    let event = dataModelEvent
    for _ in 0..<count { try machine.send(event) }
    keep(machine)
}

// The task cases, in a function of their own: written as cases of the switch above, they changed
// how the other cases' loops were compiled (`bubbleToTop` 521 → 543 instructions per event). Not
// for valgrind: a nonisolated async call from the top level starts threads, which it cannot follow.
@inline(never) func runTaskCase(_ which: String, _ count: Int) async throws {
    switch which {
    case "asyncTask": try await sendFromTask(count)
    case "actorTask": await sendToHandWrittenActorFromTask(count)
    case "asyncContended8": try await sendFromEightTasks(count)
    case "actorContended8": await sendToHandWrittenActorFromEightTasks(count)
    default: fatalError("unknown case '\(which)'")
    }
}

@inline(never) func sendFromTask(_ count: Int) async throws {
    let machine = try await AsyncStateMachine(flatOrderMachine(), context: ())
    try await Task.detached {
        let events = orderCycle
        for i in 0..<count { try await machine.send(events[i & 3]) }
    }.value
    keep(machine)
}

@inline(never) func sendToHandWrittenActorFromTask(_ count: Int) async {
    let machine = HandWrittenOrderActor()
    await Task.detached {
        let events = orderCycle
        for i in 0..<count { keep(await machine.send(events[i & 3])) }
    }.value
    keep(machine)
}

/// The senders of the contended cases. (A type's static, not a global of this file: a global of
/// `main.swift` is set where its statement runs, after the top-level `switch` that calls these.)
enum Contended {
    static let senders = 8
}

/// `count` events from each of 8 tasks at once to one machine. The senders' cycles interleave, so
/// many events find no transition: the machine drops them instead of throwing, as the hand-written
/// actor's `switch` does.
@inline(never) func sendFromEightTasks(_ count: Int) async throws {
    var options = StateMachine<OrderState, OrderEvent, Void>.Options()
    options.throwsOnUnhandledEvent = false
    let machine = try await AsyncStateMachine(flatOrderMachine(), context: (), options: options)
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<Contended.senders {
            group.addTask {
                let events = orderCycle
                for i in 0..<count { try await machine.send(events[i & 3]) }
            }
        }
        try await group.waitForAll()
    }
    keep(machine)
}

@inline(never) func sendToHandWrittenActorFromEightTasks(_ count: Int) async {
    let machine = HandWrittenOrderActor()
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<Contended.senders {
            group.addTask {
                let events = orderCycle
                for i in 0..<count { keep(await machine.send(events[i & 3])) }
            }
        }
    }
    keep(machine)
}
