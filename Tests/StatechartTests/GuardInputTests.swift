import Statechart
import Testing

/// Guards that read machine time, barriers that see the request's source (rule R69).
@Suite("Guard input and barrier source")
struct GuardInputTests {
    enum Sync: Hashable, Sendable { case notSynced, inProgress, synced }
    enum SyncEvent: Hashable, Sendable { case sync, done, tick }
    struct Cache: Sendable { var expiry: Duration = .zero }

    /// The DDStateMachine sync example's cache, without a delayed event: the guard compares the
    /// expiry with machine time.
    static func sync() -> Machine<Sync, SyncEvent, Cache> {
        Machine(initial: .notSynced) {
            When(.notSynced) { On(.sync, to: .inProgress) }
            When(.inProgress) { On(.done, to: .synced) { $0.expiry = $0.now + .seconds(30) } }
            When(.synced) { On(.sync, to: .inProgress, guardInput: { $0.now >= $0.context.expiry }) }
        }
    }

    @Test("R69: a guard reads now: the cache holds for 30 s of machine time")
    func guardReadsNow() throws {
        var m = try StateMachine(Self.sync(), context: Cache())
        try m.send(.sync)
        try m.advance(by: .seconds(5))
        try m.send(.done)
        try m.advance(by: .seconds(29))
        #expect(!m.canSend(.sync))  // t = 34 s
        #expect(throws: MachineError.eventNotHandled(event: "sync", configuration: ["synced"])) { try m.send(.sync) }
        try m.advance(by: .seconds(1))  // t = 35 s
        #expect(m.canSend(.sync))
        try m.send(.sync)
        #expect(m.state == .inProgress)
    }

    @Test("R69: eventless and flat transitions take input guards; the input carries the event")
    func alwaysAndFlat() throws {
        let m = Machine<Sync, SyncEvent, Cache>(initial: .notSynced) {
            Transition(from: .notSynced, on: .tick, to: .inProgress, guardInput: { $0.userEvent == .tick && $0.now > .seconds(1) })
            When(.inProgress) { Always(to: .synced, guardInput: { $0.event == nil }) }
        }
        var machine = try StateMachine(m, context: Cache())
        machine.options.throwsOnUnhandledEvent = false
        try machine.send(.tick)
        #expect(machine.state == .notSynced)
        try machine.advance(by: .seconds(2))
        try machine.send(.tick)
        #expect(machine.state == .synced)
    }

    enum Screen: Hashable, Sendable { case home, settings, privacy }

    @Test("R69: a barrier sees the state the request comes from, on a request and on resume()")
    func barrierSeesSource() throws {
        let m = Machine<Screen, Never, [String]>(initial: .home) {
            When(.home) { Routes(.settings, .privacy) }
            When(.settings) {
                Routes(.privacy, .home)
                TransitionBarrier { source, _ in source == .home ? .allow : .deny }
            }
            When(.privacy) {
                Routes(.home, .settings)
                TransitionBarrier { source, _ in source == .settings ? .deny : .allow }
            }
        }
        var machine = try StateMachine(m, context: [])
        try machine.transition(to: .settings)  // from home: allowed
        #expect(throws: MachineError.transitionDenied(to: "privacy")) { try machine.transition(to: .privacy) }
        try machine.transition(to: .home)
        try machine.transition(to: .privacy)  // from home: allowed
        #expect(throws: MachineError.transitionDenied(to: "settings")) { try machine.transition(to: .settings) }
        // resume(): the source is the background state being left.
        try machine.transition(to: .home)
        try machine.transition(to: .settings)
        try machine.suspend(to: .privacy)
        #expect(throws: MachineError.transitionDenied(to: "settings")) { try machine.resume() }
        try machine.transition(to: .home)
        try machine.resume()
        #expect(machine.state == .settings)
    }
}
