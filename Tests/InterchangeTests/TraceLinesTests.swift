import Foundation
import Statechart
import Testing

@testable import StatechartCLI
import StatechartInterchange

/// How the `statechart` command prints a trace (rule R77).
@Suite("statechart command: trace lines")
struct TraceLinesTests {
    @Test("R77: the built-in example prints an unnamed action by the transition it runs on, never 'action action'")
    func builtInExample() throws {
        let r = try CommandLineTests().run([])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("action action"))
        #expect(
            r.stdout.contains(
                "action (unnamed) on transition confirmed.authorizing[1] → confirmed.declined"))
    }

    @Test("R77: an unnamed action is said by its owner: a transition, a targetless one, a state's entry or exit")
    func owners() {
        let trace: [TraceStep] = [
            .event("go", external: true),
            .exited("a"), .action("action"),
            .transition(source: "p", ordinal: 2, targets: ["b"]), .action("action"), .action("charge"),
            .entered("b"), .action("action"),
            .event("tick", external: true),
            .transition(source: "b", ordinal: 0, targets: []), .action("action"),
            .halted("b"), .action("action"),
        ]
        #expect(
            TraceLines.lines(trace) == [
                "event go",
                "exit a", "action (unnamed) on exit from a",
                "transition p[2] → b", "action (unnamed) on transition p[2] → b", "action charge",
                "enter b", "action (unnamed) on entry to b",
                "event tick",
                "transition b[0]", "action (unnamed) on transition b[0] (targetless)",
                "halt in b", "action (unnamed) outside any transition or state",
            ])
    }

    @Test("R77: the run page shows an unnamed action by what it belongs to, as the command does")
    func runPageNamesUnnamedActions() throws {
        var definition = ChartDefinition<String, Int>(name: "page", initial: ["a"], eventName: { $0 })
        let a = definition.addState("a", in: definition.root)
        definition.addState("b", in: definition.root)
        definition.addTransition(
            TransitionDefinition(on: .names(["go"]), to: ["b"], actions: [.run(nil) { $0.context += 1 }]), from: a)
        var instance = ChartInstance(chart: try Chart(definition), context: 0)
        instance.isTracing = true
        try instance.start()
        var steps = [RunPage.Step(label: "start", instance: instance)]
        instance.trace.removeAll()
        try instance.send("go")
        steps.append(RunPage.Step(label: "go", instance: instance))
        let page = RunPage.html(chart: instance.chart, steps: steps)
        #expect(page.contains("action (unnamed) on transition a[0] &#x2192; b"))  // the arrow is escaped in HTML
        #expect(!page.contains("action action"))
    }
}
