import Statechart
import Testing

/// A transition on one attached child's done event (rule R67).
@Suite("Done event of one child")
struct ChildDoneTests {
    enum Top: Hashable, Sendable { case p, uploaded, allDone }
    enum Upload: Hashable, Sendable { case idle, sent }
    enum Network: Hashable, Sendable { case online, closed }
    enum Ev: Hashable, Sendable { case send, close }

    static let upload = Machine<Upload, Ev, [String]>("upload", initial: .idle) {
        When(.idle) { On(.send, to: .sent) }
        Final(.sent)
    }
    static let network = Machine<Network, Ev, [String]>("network", initial: .online) {
        When(.online) { On(.close, to: .closed) }
        Final(.closed)
    }

    static func top(_ body: () -> When<Top, Ev, [String]>) -> Machine<Top, Ev, [String]> {
        Machine(initial: .p) {
            body()
            When(.uploaded) {}
            When(.allDone) {}
        }
        .attaching(child: upload, to: .p)
        .attaching(child: network, to: .p)
    }

    @Test("R67: OnDone(child:) fires when that child is final, while its sibling still runs")
    func oneChildOfTwo() throws {
        let m = Self.top {
            When(.p) {
                OnDone(child: "upload", to: .uploaded) { $0.context.append("upload done") }
                OnDone(to: .allDone)
            }
        }
        var machine = try StateMachine(m, context: [], options: { var o = StateMachine<Top, Ev, [String]>.Options(); o.tracing = true; return o }())
        try machine.send(.send)
        #expect(machine.state == .uploaded)
        #expect(machine.context == ["upload done"])
        #expect(machine.trace.contains { "\($0)".contains("done.state.p.upload") }, "\(machine.trace)")
    }

    @Test("R67: the other child finishing first does not take the upload's transition; OnDone waits for both")
    func siblingFirst() throws {
        let m = Self.top {
            When(.p) {
                OnDone(child: "upload", to: .uploaded, guard: { _ in true })
                OnDone(to: .allDone)
            }
        }
        var machine = try StateMachine(m, context: [])
        try machine.send(.close)
        #expect(machine.state == .p)
        #expect(machine.activeStates(of: Network.self) == [.closed])
        try machine.send(.send)
        // Both regions are final now: the upload's done event comes first (R13), so its transition wins.
        #expect(machine.state == .uploaded)
    }

    @Test("R67: with a single attached child, OnDone(child:) is the state's own done event")
    func singleChild() throws {
        let m = Machine<Top, Ev, [String]>(initial: .p) {
            When(.p) { OnDone(child: "upload", to: .uploaded) }
            When(.uploaded) {}
        }.attaching(child: Self.upload, to: .p)
        var machine = try StateMachine(m, context: [])
        try machine.send(.send)
        #expect(machine.state == .uploaded)
    }

    @Test("R67: a name that is not an attached child is an invalid chart naming the state")
    func unknownChild() throws {
        let m = Self.top { When(.p) { OnDone(child: "downlaod", to: .uploaded) } }
        #expect(
            throws: MachineError.invalidChart(
                .invalidStructure("p", reason: "OnDone(child: \"downlaod\") names no child attached to this state", location: nil))
        ) { _ = try StateMachine(m, context: []) }
    }

    enum Step: Hashable, Sendable { case a, b, end }
    enum Mid: Hashable, Sendable { case work, finished }

    @Test("R67: a machine attached in two places takes its own done events at each, with each place's id")
    func doneOfSourceInTwoPlaces() throws {
        // `work` holds the upload and waits for it (`OnDone` on the done event of its source): the
        // typed builder prepares that transition once for `mid` and names the source per place.
        let mid = Machine<Mid, Ev, [String]>("mid", initial: .work) {
            When(.work) {
                Attach(Self.upload)
                OnDone(to: .finished) { $0.context.append("work done") }
            }
            Final(.finished)
        }
        let top = Machine<Step, Ev, [String]>(initial: .a) {
            When(.a) { OnDone(to: .b) }
            When(.b) { OnDone(to: .end) }
            Final(.end)
        }
        .attaching(child: mid, to: .a)
        .attaching(child: mid, to: .b)
        var options = StateMachine<Step, Ev, [String]>.Options()
        options.tracing = true
        var machine = try StateMachine(top, context: [], options: options)
        try machine.send(.send)
        #expect(machine.state == .b)
        #expect(machine.activeStates(of: Mid.self) == [.work])
        try machine.send(.send)
        #expect(machine.state == .end)
        #expect(machine.context == ["work done", "work done"])
        let names = machine.trace.map { "\($0)" }
        #expect(names.contains { $0.contains("done.state.a.work") }, "\(names)")
        #expect(names.contains { $0.contains("done.state.b.work") }, "\(names)")
    }
}
