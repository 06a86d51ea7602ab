import Statechart
import Testing

/// What the typed builder declares (rule R65): a state exists as soon as it is mentioned, two
/// declarations of one state merge, and `validate()` names a state that is only ever a target.
@Suite("Builder declarations")
struct BuilderDeclarationTests {
    enum S: Hashable, Sendable { case a, b, ghost }
    enum E: Hashable, Sendable { case go, back, ping }

    @Test("R65: a state mentioned only as a target is part of the machine and can be entered")
    func mentionDeclares() throws {
        var machine = try StateMachine(
            Machine<S, E, Void>(initial: .a) { When(.a) { On(.go, to: .ghost) } }, context: ())
        try machine.send(.go)
        #expect(machine.state == .ghost)
    }

    @Test("R65: two When blocks for one state merge, in declaration order")
    func duplicateWhenMerges() throws {
        let m = Machine<S, E, [String]>(initial: .a) {
            When(.a) { OnEntry { $0.context.append("first") } }
            When(.b) { On(.back, to: .a) }
            When(.a) {
                OnEntry { $0.context.append("second") }
                On(.go, to: .b)
            }
        }
        var machine = try StateMachine(m, context: [])
        #expect(machine.context == ["first", "second"])
        try machine.send(.go)
        #expect(machine.state == .b)
        // Document order follows the first mention: `a` before `b`.
        #expect(try TypedChart(m).chart.ids.dropFirst().prefix(2) == ["a", "b"])
    }

    @Test("R65: a flat Transition from several states mentions its sources before its target, and each source takes it")
    func severalSourcesBeforeTheirTarget() throws {
        enum T: Hashable, Sendable { case p, q, r, s }
        let m = Machine<T, E, Void>(initial: .p) {
            Transition(from: [.p, .q], on: .go, to: .s)
            When(.s) { On(.back, to: .r) }
            Transition(from: .r, on: .go, to: .q)
        }
        #expect(Array(try TypedChart(m).chart.ids.dropFirst()) == ["p", "q", "s", "r"])
        var machine = try StateMachine(m, context: ())
        var visited: [T] = [machine.state]
        for event in [E.go, .back, .go, .go] {
            try machine.send(event)
            visited.append(machine.state)
        }
        #expect(visited == [.p, .s, .r, .q, .s])
    }

    @Test("R65: validate() warns about a state that is only ever a target, naming it")
    func validateNamesUndeclaredTarget() throws {
        let m = Machine<S, E, Void>(initial: .a) {
            When(.a) { On(.go, to: .ghost); On(.back, to: .b) }
            When(.b) { On(.back, to: .a) }
        }
        let diagnostics = try TypedChart(m).validate()
        let undeclared = diagnostics.filter { $0.code == .undeclaredState }
        #expect(undeclared.map(\.states) == [["ghost"]])
        #expect(undeclared.first?.severity == .warning)
        #expect(undeclared.first?.message.contains("'ghost'") == true)
    }

    @Test("R65: states declared with When, Final, Global, a flat Transition source or an attachment are not reported")
    func declaredStatesAreNotReported() throws {
        enum C: Hashable, Sendable { case x, y }
        let child = Machine<C, E, Void>(initial: .x) { When(.x) { On(.ping, to: .y) }; Final(.y) }
        var m = Machine<S, E, Void>(initial: .a) {
            Transition(from: .a, on: .go, to: .b)
            Global(.b) { On(.back, to: .a) }
            Final(.ghost)
            AnyState { On(.ping, to: .ghost) }
        }
        m.attach(child: child, to: .a)
        let diagnostics = try TypedChart(m).validate()
        #expect(!diagnostics.contains { $0.code == .undeclaredState }, "\(diagnostics)")
    }
}
