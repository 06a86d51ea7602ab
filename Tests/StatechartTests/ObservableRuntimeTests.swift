import Observation
import Testing
import Statechart

/// The `Observable` model drives time, work and middleware like `AsyncStateMachine` (rule R61).
@Suite("Observable runtime")
@MainActor
struct ObservableRuntimeTests {
    /// Whether reading `read` is told of a change during `body`.
    func changes(_ read: @escaping () -> Void, during body: () async throws -> Void) async rethrows -> Bool {
        final class Flag: @unchecked Sendable { var changed = false }
        let flag = Flag()
        withObservationTracking(read) { flag.changed = true }
        try await body()
        return flag.changed
    }

    /// Lets the main actor run the tasks that deliver work until `done` holds (at most about a second).
    func settle(until done: () -> Bool) async throws {
        for _ in 0..<1000 where !done() { try await Task.sleep(for: .milliseconds(1)) }
    }

    @Test("R61: an After timeout fires when the manual clock advances, and the view model reports it")
    func afterTimeout() async throws {
        let clock = ManualClock()
        let machine = Machine<Job, JobEvent, JobLog>(initial: .loading) {
            When(.loading) { After(.seconds(30), to: .failed) }
            When(.failed) {}
        }
        let model = try ObservableStateMachine(machine, context: JobLog(), clock: clock)
        await clock.advance(by: .seconds(29))
        #expect(model.state == .loading)
        let changed = await changes({ _ = model.state }) { await clock.advance(by: .seconds(1)) }
        #expect(changed)
        #expect(model.state == .failed)
        #expect(model.now == .seconds(30))
    }

    @Test("R56, R61: a synchronous send tells the readers of every property")
    func sendTellsEveryReader() async throws {
        let machine = Machine<Job, JobEvent, JobLog>(initial: .idle) {
            When(.idle) { On(.start, to: .loading) }
            When(.loading) { On(.start, to: .idle) }
        }
        let model = try ObservableStateMachine(machine, context: JobLog(), clock: ManualClock())
        let readers: [(String, () -> Void)] = [
            ("state", { _ = model.state }), ("activeStateIDs", { _ = model.activeStateIDs }),
            ("context", { _ = model.context }), ("now", { _ = model.now }),
            ("isActive", { _ = model.isActive(Job.loading) }), ("canSend", { _ = model.canSend(.start) }),
            ("machine", { _ = model.machine }), ("activeStates", { _ = model.activeStates(of: Job.self) }),
            ("activeState", { _ = model.activeState(of: Job.self) }),
            ("validEvents", { _ = model.validEvents(among: [.start]) }), ("isFinished", { _ = model.isFinished }),
            ("activePaths", { _ = model.activePaths }),
        ]
        for (name, read) in readers {
            let changed = try await changes(read) { try model.send(.start) }
            #expect(changed, "\(name)")
        }
        #expect(model.state == .idle)  // twelve sends
        #expect(model.activeStates(of: Job.self) == [.idle] && model.activeState(of: Job.self) == .idle)
        // A reader registered again after a send is told of the next one.
        let again = try await changes({ _ = model.state }) { try model.send(.start) }
        #expect(again)
    }

    @Test("R61: invoked Work starts in the initial state and its result is delivered on the main actor")
    func invokedWork() async throws {
        let machine = Machine<Job, JobEvent, JobLog>(initial: .loading) {
            When(.loading) {
                Work("load") { _ in .loadedData }
                On(.loadedData, to: .loaded)
            }
            When(.loaded) {}
        }
        let model = try ObservableStateMachine(machine, context: JobLog(), clock: ManualClock())
        try await settle { model.state == .loaded }
        #expect(model.state == .loaded)
    }

    @Test("R61: perform work runs — after a synchronous send in a task, and awaited by the async send")
    func performWork() async throws {
        let machine = Machine<Job, JobEvent, JobLog>(initial: .idle) {
            When(.idle) {
                On(.start, to: .loading) { scope in
                    scope.lines.append("start")
                    scope.perform("fetch") { .loadedData }
                }
            }
            When(.loading) { On(.loadedData, to: .loaded) { $0.lines.append("loaded") } }
            When(.loaded) { On(.leave, to: .idle) }
        }
        let model = try ObservableStateMachine(machine, context: JobLog(), clock: ManualClock())
        try model.send(.start)  // the synchronous API: returns after the macrostep
        #expect(model.state == .loading)
        try await settle { model.state == .loaded }
        #expect(model.state == .loaded)
        try model.send(.leave)
        try await model.sendAndWait(.start)  // awaited: returns after the work
        #expect(model.state == .loaded)
        #expect(model.context.lines == ["start", "loaded", "start", "loaded"])
    }

    struct Logger: TransitionMiddleware {
        let log: Recorder<String>
        func intercept(event: JobEvent, configuration: [String], next: @Sendable () async throws -> Void) async throws {
            log.append("before \(event) in \(configuration)")
            if event != .cancel { try await next() }
            log.append("after \(event)")
        }
    }

    @Test("R61, R62: middleware wraps sends of the view model; a refused send reaches the failed-send handler")
    func middleware() async throws {
        let machine = Machine<Job, JobEvent, JobLog>(initial: .idle) {
            When(.idle) {
                On(.start, to: .loading)
                On(.cancel, to: .cancelled)
            }
            When(.loading) {}
            When(.cancelled) {}
        }
        let model = try ObservableStateMachine(machine, context: JobLog(), clock: ManualClock())
        let log = Recorder<String>()
        let refused = Recorder<JobEvent>()
        model.addMiddleware(Logger(log: log))
        model.onFailedSend { event, _ in refused.append(event) }
        await #expect(throws: MachineError.transitionRejected(event: "cancel")) { try await model.sendAndWait(.cancel) }
        #expect(model.state == .idle)
        try model.send(.start)  // synchronous: waits its turn behind the middleware in a task
        try await settle { model.state == .loading && log.values.count == 4 }  // "after start" follows the change
        #expect(model.state == .loading)
        #expect(log.values == ["before cancel in [\"idle\"]", "after cancel", "before start in [\"idle\"]", "after start"])
        #expect(refused.values == [.cancel])
    }

    @Test("R62: a failed-send handler runs once the failed send let go of the machine: it reads the model and sends to it")
    func failedSendHandlerDrivesTheModel() throws {
        let machine = idleThenLoading()
        let model = try ObservableStateMachine(machine, context: JobLog(), clock: ManualClock())
        var seen: [String] = []
        model.onFailedSend { [unowned model] event, _ in
            seen.append("\(event) in \(model.state), can start: \(model.canSend(.start))")
            if event == .cancel { try? model.send(.start) }
        }
        #expect(throws: MachineError.self) { try model.send(.cancel) }
        // The handler ran after the failed send released the machine: its own send ran at once.
        #expect(model.state == .loading)
        #expect(seen == ["cancel in idle, can start: true"])
    }

    @Test("R62: a handler registered on the machine before it was wrapped also runs once the send let go of it")
    func handlerRegisteredBeforeWrapping() throws {
        // Weak: the machine keeps its handler, which keeps this box; a strong model here would be a cycle.
        final class ModelRef { weak var model: ObservableStateMachine<Job, JobEvent, JobLog>? }
        let machine = idleThenLoading()
        var running = try StateMachine(machine, context: JobLog())
        let ref = ModelRef()
        var seen: [String] = []
        running.onFailedSend { event, _ in
            guard let model = ref.model else { return }
            seen.append("\(event) in \(model.state)")
            if event == .cancel { try? model.send(.start) }
        }
        let model = ObservableStateMachine(running, clock: ManualClock())
        ref.model = model
        #expect(throws: MachineError.self) { try model.send(.cancel) }
        #expect(model.state == .loading)
        #expect(seen == ["cancel in idle"])
        // Removing it through the model removes the machine's handler.
        let token = model.onFailedSend { event, _ in seen.append("second: \(event)") }
        model.removeFailedSendHandler(token)
        #expect(throws: MachineError.self) { try model.send(.cancel) }
        // The handler's own failed send in `loading` reaches it too, after its send let go.
        #expect(seen == ["cancel in idle", "cancel in loading", "start in loading"])
    }

    @Test("R62: a copy of the model's machine is a machine of its own: its failed sends reach its handlers at once, never the model's")
    func copiedMachineReportsItsOwnFailures() throws {
        let machine = idleThenLoading()
        let model = try ObservableStateMachine(machine, context: JobLog(), clock: ManualClock())
        var seen: [String] = []
        model.onFailedSend { event, _ in seen.append("model: \(event)") }
        var copy = model.machine
        copy.onFailedSend { event, _ in seen.append("copy: \(event)") }
        #expect(throws: MachineError.self) { try copy.send(.cancel) }
        // The copy's handlers (the model's, copied with it, and its own) ran inside its send.
        #expect(seen == ["model: cancel", "copy: cancel"])
        // The model's next operation hands over nothing of the copy's.
        try model.send(.start)
        #expect(seen == ["model: cancel", "copy: cancel"])
        #expect(model.state == .loading)
        #expect(copy.state == .idle)
    }

    @Test("R61: the synchronous API still answers at once, and wrapping a running machine keeps its state")
    func synchronousAPI() throws {
        var running = try StateMachine(orderMachine(), context: OrderLog())
        try running.send(.confirm)
        let model = ObservableStateMachine(running)
        #expect(model.state == .confirmed)
        try model.reset()
        #expect(model.state == .pending)
    }

    struct StepRecorder: StatechartTracer {
        let steps: Recorder<String>
        func record(_ step: TraceStep, machine: String) { steps.append("\(step)") }
    }

    @Test("R61: with a tracer the synchronous send still answers at once, and the tracer sees its steps")
    func tracedSynchronousSend() throws {
        let steps = Recorder<String>()
        let model = try ObservableStateMachine(
            orderMachine(), context: OrderLog(), clock: ManualClock(), tracer: StepRecorder(steps: steps))
        try model.send(.confirm)
        #expect(model.state == .confirmed)
        #expect(!steps.values.isEmpty)
    }
}

@Suite("Streams publish changes")
struct StreamChangeTests {
    @Test("R56: configurations() and transitions() stay silent for an event nothing handles")
    func silentOnUnhandled() async throws {
        let machine = idleThenLoading()
        var options = StateMachine<Job, JobEvent, JobLog>.Options()
        options.throwsOnUnhandledEvent = false
        let m = try await AsyncStateMachine(machine, context: JobLog(), clock: ManualClock(), options: options)
        let configurations = await m.configurations()
        let transitions = await m.transitions()
        try await m.send(.cancel)  // nothing handles it: nothing to publish
        try await m.send(.start)
        var c = configurations.makeAsyncIterator()
        var t = transitions.makeAsyncIterator()
        #expect(await c.next() == ["idle"])  // the current ones, on subscribing
        #expect(await c.next() == ["loading"])
        let record = await t.next()
        #expect(record?.event == .start)
        #expect(record?.from == ["idle"])
    }
}

/// `idle` starts to `loading`; nothing else is handled (the failed-send and stream tests' machine).
func idleThenLoading() -> Machine<Job, JobEvent, JobLog> {
    Machine(initial: .idle) {
        When(.idle) { On(.start, to: .loading) }
        When(.loading) {}
    }
}
