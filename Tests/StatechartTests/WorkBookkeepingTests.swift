import Synchronization
import Testing
import Statechart

/// Events from work and timers go through the same entry as sends (rules R60, R62).
@Suite("Work bookkeeping")
struct WorkBookkeepingTests {
    static func jobMachine() -> Machine<Job, JobEvent, JobLog> {
        Machine(initial: .idle) {
            When(.idle) {
                On(.start, to: .loading) { scope in
                    scope.perform("fetch") { .loadedData }
                }
            }
            When(.loading) { On(.loadedData, to: .loaded) }
            When(.loaded) { On(.leave, to: .idle) }
        }
    }

    @Test("R60: perform work's result is a logged step: history shows it and undo steps back over it")
    func performWorkIsLogged() async throws {
        var options = StateMachine<Job, JobEvent, JobLog>.Options()
        options.historyDepth = 0
        let m = try await AsyncStateMachine(Self.jobMachine(), context: JobLog(), clock: ManualClock(), options: options)
        try await m.send(.start)
        #expect(await m.state == .loaded)
        #expect(await m.history.map(\.event) == [.start, .loadedData])
        #expect(await m.undo() == .loading)  // back over the work-delivered macrostep only
        #expect(await m.undo() == .idle)
    }

    @Test("R60: invoked work's result is a logged step and observers see it")
    func invokedWorkIsObserved() async throws {
        let machine = Machine<Job, JobEvent, JobLog>(initial: .loading) {
            When(.loading) {
                Work("load") { _ in .loadedData }
                On(.loadedData, to: .loaded)
            }
            When(.loaded) {}
        }
        var options = StateMachine<Job, JobEvent, JobLog>.Options()
        options.historyDepth = 0
        let m = try await AsyncStateMachine(machine, context: JobLog(), clock: ManualClock(), options: options)
        let seen = Recorder<MachineTransition<Job, JobEvent>>()
        await m.observe { seen.append($0) }
        await m.waitFor(Job.loaded)
        #expect(await m.history.map(\.event) == [.loadedData])
        #expect(seen.values.map(\.event) == [.loadedData])
        #expect(seen.values.map(\.toState) == [.loaded])
    }

    @Test("R60: a fired timer is processed through the same entry: observers see it, undo takes it back")
    func timerIsObservedAndLogged() throws {
        let machine = Machine<Job, JobEvent, JobLog>(initial: .loading) {
            When(.loading) { After(.seconds(5), to: .failed) }
            When(.failed) {}
        }
        var options = StateMachine<Job, JobEvent, JobLog>.Options()
        options.historyDepth = 0
        var m = try StateMachine(machine, context: JobLog(), options: options)
        let seen = Recorder<MachineTransition<Job, JobEvent>>()
        m.observe { seen.append($0) }
        try m.advance(by: .seconds(2))
        #expect(seen.values.isEmpty)  // nothing fired: nothing to see
        try m.advance(by: .seconds(3))
        #expect(m.state == .failed)
        #expect(seen.values.map(\.toState) == [.failed])
        #expect(m.history.map(\.toState) == [.failed])
        #expect(m.undo() == .loading)
    }

    @Test("R60: the synchronous machine takes work results through process(.workDelivered); unhandled ones are dropped, not thrown")
    func syncWorkDelivered() throws {
        var m = try StateMachine(Self.jobMachine(), context: JobLog())
        let seen = Recorder<MachineTransition<Job, JobEvent>>()
        m.observe { seen.append($0) }
        try m.send(.start)
        for work in m.takePendingWork() { #expect(work.name == "fetch") }
        #expect(try m.process(.workDelivered(.loadedData)))
        #expect(!(try m.process(.workDelivered(.start))))  // nothing handles it in loaded: dropped
        #expect(seen.values.map(\.event) == [.start, .loadedData])
        #expect(throws: MachineError.self) { try m.process(.sent(.start)) }
    }
}

/// Collects values from callbacks, whichever isolation they run in.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])
    /// A copy in storage of its own, made under the lock. Returning the array itself shared its
    /// buffer: the caller read it after the lock, and a later `append` on another thread wrote to
    /// it in place once the caller had let it go — ordered by the buffer's reference count, which
    /// ThreadSanitizer does not see, so it reported a race (`ObservableRuntimeTests.middleware`).
    var values: [Value] { storage.withLock { $0.map { $0 } } }
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
}
