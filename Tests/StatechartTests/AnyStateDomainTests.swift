import Testing
import Statechart

/// A child machine's any-state routes act inside the child's own level (rule R33): never exiting
/// the parent state it is attached to, never touching a sibling region. Every scenario runs on
/// both interpreter paths (the lean path, and the general path that tracing takes).
@Suite("Any-state routes stay in their level")
struct AnyStateDomainTests {
    enum Top: Hashable, Sendable { case p, q }
    enum Upload: Hashable, Sendable { case idle, sending }
    enum Network: Hashable, Sendable { case online, offline }
    enum Inner: Hashable, Sendable { case x, y }
    enum Ev: Hashable, Sendable { case send, reset, drop, go, leave, back }

    /// Records entries and exits as "+id" and "-id".
    typealias Log = [String]

    static func upload(history: AttachmentHistory = .none, inner: Machine<Inner, Ev, Log>? = nil) -> Machine<Upload, Ev, Log> {
        var m = Machine<Upload, Ev, Log>("upload", initial: .idle) {
            When(.idle) {
                OnEntry { $0.context.append("+idle") }
                OnExit { $0.context.append("-idle") }
                On(.send, to: .sending)
            }
            When(.sending) {
                OnEntry { $0.context.append("+sending") }
                OnExit { $0.context.append("-sending") }
            }
            AnyState { On(.reset, to: .idle) }  // the upload level's own wildcard
        }
        if let inner { m.attach(child: inner, to: .sending, history: history) }
        return m
    }

    static let network = Machine<Network, Ev, Log>("network", initial: .online) {
        When(.online) { On(.drop, to: .offline) }
        When(.offline) {}
    }

    static func top(children: [(Machine<Upload, Ev, Log>?, Machine<Network, Ev, Log>?)], history: AttachmentHistory = .none)
        -> Machine<Top, Ev, Log>
    {
        var top = Machine<Top, Ev, Log>(initial: .p) {
            When(.p) {
                OnEntry { $0.context.append("+p") }
                OnExit { $0.context.append("-p") }
                On(.leave, to: .q)
            }
            When(.q) { On(.back, to: .p) }
        }
        for (u, n) in children {
            if let u { top.attach(child: u, to: .p, history: history) }
            if let n { top.attach(child: n, to: .p) }
        }
        return top
    }

    static func machines(_ m: Machine<Top, Ev, Log>) throws -> [StateMachine<Top, Ev, Log>] {
        var traced = StateMachine<Top, Ev, Log>.Options()
        traced.tracing = true
        return [try StateMachine(m, context: []), try StateMachine(m, context: [], options: traced)]
    }

    @Test("R33: with a sibling region, the upload level's any-state route moves only the upload region (both paths)")
    func siblingRegionUntouched() throws {
        for var m in try Self.machines(Self.top(children: [(Self.upload(), Self.network)])) {
            try m.send(.send)
            try m.send(.drop)
            #expect(m.activeStateIDs == ["p.upload.sending", "p.network.offline"])
            m.context.removeAll()
            try m.send(.reset)
            #expect(m.activeStateIDs == ["p.upload.idle", "p.network.offline"])
            #expect(m.context == ["-sending", "+idle"], "p's actions must not run: \(m.context)")
        }
    }

    @Test("R33: with a single child, the route does not exit and re-enter the parent state (both paths)")
    func singleChildParentStays() throws {
        for var m in try Self.machines(Self.top(children: [(Self.upload(), nil)])) {
            try m.send(.send)
            m.context.removeAll()
            try m.send(.reset)
            #expect(m.activeStateIDs == ["p.idle"])
            #expect(m.context == ["-sending", "+idle"])
        }
    }

    @Test("R33: a route to the active state re-enters that state only")
    func routeToActiveStateReentersOnlyIt() throws {
        for var m in try Self.machines(Self.top(children: [(Self.upload(), Self.network)])) {
            try m.send(.drop)
            m.context.removeAll()
            try m.send(.reset)  // upload is in idle already
            #expect(m.activeStateIDs == ["p.upload.idle", "p.network.offline"])
            #expect(m.context == ["-idle", "+idle"])
        }
    }

    @Test("R33: at depth 2 and 3, a level's route moves only that level; deeper levels' routes stay deeper")
    func deeperLevels() throws {
        // Depth 3: top → upload (sending) → inner, whose own wildcard `back` goes to x.
        let inner = Machine<Inner, Ev, Log>("inner", initial: .x) {
            When(.x) {
                OnEntry { $0.context.append("+x") }
                OnExit { $0.context.append("-x") }
                On(.go, to: .y)
            }
            When(.y) {
                OnEntry { $0.context.append("+y") }
                OnExit { $0.context.append("-y") }
            }
            AnyState { On(.back, to: .x) }
        }
        for var m in try Self.machines(Self.top(children: [(Self.upload(inner: inner), Self.network)])) {
            try m.send(.send)
            try m.send(.go)
            try m.send(.drop)
            #expect(m.activeStateIDs == ["p.upload.sending.y", "p.network.offline"])
            m.context.removeAll()
            try m.send(.back)  // the inner level's route: only inner moves
            #expect(m.activeStateIDs == ["p.upload.sending.x", "p.network.offline"])
            #expect(m.context == ["-y", "+x"])
            try m.send(.go)
            m.context.removeAll()
            try m.send(.reset)  // the upload level's route: sending (with inner) exits, idle enters; p and network stay
            #expect(m.activeStateIDs == ["p.upload.idle", "p.network.offline"])
            #expect(m.context == ["-y", "-sending", "+idle"])
        }
    }

    @Test("R33, R23: with history on the attachment, the route leaves the parent active and its history is recorded only when the parent exits")
    func historyOnAttachment() throws {
        for var m in try Self.machines(Self.top(children: [(Self.upload(), nil)], history: .deep)) {
            try m.send(.send)
            m.context.removeAll()
            try m.send(.reset)
            #expect(m.activeStateIDs == ["p.idle"])
            #expect(m.context == ["-sending", "+idle"])
            try m.send(.send)
            try m.send(.leave)
            try m.send(.back)  // deep history: back in sending
            #expect(m.activeStateIDs == ["p.sending"])
        }
    }

    @Test("R33: the top level's any-state route still exits and enters top-level states")
    func topLevelRoute() throws {
        let m0 = Machine<Top, Ev, Log>(initial: .p) {
            When(.p) {
                OnEntry { $0.context.append("+p") }
                OnExit { $0.context.append("-p") }
            }
            When(.q) {}
            AnyState { On(.reset, to: .p) }
        }
        for var m in try Self.machines(m0) {
            m.context.removeAll()
            try m.send(.reset)
            #expect(m.context == ["-p", "+p"])
        }
    }
}
