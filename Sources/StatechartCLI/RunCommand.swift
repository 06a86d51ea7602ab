import Foundation
import Statechart
import StatechartInterchange

/// `statechart run FILE.scxml [EVENT…] [--trace] [--no-http] [--html OUT.html [--layout L]]`: runs a chart from the command
/// line, optionally writing a page that replays the run (``RunPage``).
enum RunCommand {
    static let help = """
        USAGE: statechart run FILE.scxml [EVENT…] [--trace] [--no-http] [--html OUT.html [--layout L]]

        Starts the chart (virtual time 0), prints its active atomic states, then sends each EVENT
        as an external event and prints the active atomic states after it. An EVENT of the form
        NAME=JSON carries data, which the chart reads as _event.data (for example
        'go={"x": 1}'). An argument of the form +DELAY (for example +500ms or +1.5s) advances the
        virtual clock instead, firing the delayed sends that fall due. Sessions started by
        <invoke> run beside the chart on the same clock. <log> lines are printed as they run (an
        invoked session's marked with its invocation id, as [id]), and execution errors beside
        the step that raised them. Every session is reachable through the Basic HTTP Event I/O
        Processor while the run lasts, at http://127.0.0.1:PORT/scxml/SESSIONID
        (_ioprocessors.basichttp.location; a port the system picks), and a <send> of that type
        posts to its target.

        Options:
          --trace           Also print what the interpreter did (exits, entries, actions, events)
          --no-http         Run without the Basic HTTP processor (its <send>s raise error.execution)
          --html OUT.html   Also write a self-contained page replaying the run: the chart drawn with
                            its active states highlighted, the steps with their trace, and buttons
                            and the arrow keys to step back and forth (open OUT.html#step=K for step K)
          --layout L        How the page draws the chart: auto (the default: Graphviz when `dot` is on
                            PATH, else the page's own boxes and arrows), graphviz (fails without
                            dot) or boxes (never Graphviz)
          -h, --help        Show this help
        """

    static func main(_ arguments: [String]) -> Int32 {
        let parsed: ParsedArguments
        switch ParsedArguments.forCommand(arguments, help: help, flags: ["trace", "no-http"], options: ["html", "layout"]) {
        case .success(let p): parsed = p
        case .failure(let stop): return stop.status
        }
        guard let file = parsed.positionals.first else {
            printError("run needs a FILE.scxml\n\n" + help)
            return 2
        }
        let chart: SCXMLChart
        do {
            chart = try SCXMLDocument.load(contentsOf: URL(fileURLWithPath: file))
        } catch {
            printError("\(file): \(error.description)")
            return 1
        }
        let htmlPath = parsed.options["html"]
        if htmlPath?.isEmpty == true {
            printError("--html needs an output file\n\n" + help)
            return 2
        }
        guard let layout = RunPageLayout(rawValue: parsed.options["layout"] ?? "auto") else {
            printError("--layout must be auto, graphviz or boxes\n\n" + help)
            return 2
        }
        var run = Run(printsTrace: parsed.flags.contains("trace"), recordsSteps: htmlPath != nil)
        // The chart and the sessions its <invoke>s start, on one virtual clock (rule R86).
        // The Basic HTTP processor listens on the loopback address for as long as the run lasts
        // (rule R93); where no socket can be opened, the run goes on without it.
        let http = parsed.flags.contains("no-http") ? nil : try? BasicHTTPEventProcessor()
        var session = SCXMLSession(chart: chart, http: http)
        // Always traced: `<log>` output is printed whether or not --trace asks for the rest.
        session.isTracing = true
        var status: Int32 = 0
        do {
            // Execution errors are part of a chart's run (SCXML raises them as error.execution
            // events, which the chart may handle): reported beside the step, not fatal.
            var failures: [String] = []
            do { try session.start() } catch .executionFailed(let messages) { failures = messages }
            run.report("start", &session, note: Self.note(nil, failures))
            for input in parsed.positionals.dropFirst() {
                failures = []
                if input.hasPrefix("+") {
                    guard let delay = RunCommand.delay(String(input.dropFirst())) else {
                        printError("'\(input)' is not a delay such as +500ms or +1.5s")
                        return 2
                    }
                    do { try session.advance(by: delay) } catch .executionFailed(let messages) { failures = messages }
                    run.report(input, &session, note: Self.note(nil, failures))
                } else if !session.isRunning {
                    run.report(input, &session, note: "ignored: the machine has finished")
                } else {
                    guard let event = Self.event(input) else {
                        printError("'\(input)' is not an event: NAME, or NAME=JSON for an event with data")
                        return 2
                    }
                    var handled = true
                    do { handled = try session.send(event) } catch .executionFailed(let messages) { failures = messages }
                    run.report(input, &session, note: Self.note(handled ? nil : "no transition", failures))
                }
            }
        } catch {
            run.recordFailure(&session, message: error.description)
            printError("\(file): \(error.description)")
            status = 1
        }
        if let htmlPath {
            let page: String
            switch layout.page(chart: chart, steps: run.steps) {
            case .success(let p): page = p
            case .failure(let error):
                printError("\(htmlPath): \(error.message)")
                return 1
            }
            do {
                try page.write(to: URL(fileURLWithPath: htmlPath), atomically: true, encoding: .utf8)
            } catch {
                printError("\(htmlPath): cannot write the page: \(error.localizedDescription)")
                return 1
            }
        }
        return status
    }

    /// What a run prints and, for `--html`, records.
    private struct Run {
        var printsTrace: Bool
        var recordsSteps: Bool
        var steps: [RunPage.Step] = []

        mutating func report(_ label: String, _ session: inout SCXMLSession, note: String?) {
            let instance = session.root
            if recordsSteps { steps.append(RunPage.Step(label: label, instance: instance, note: note)) }
            printTrace(&session)
            var text = "\(label) → " + instance.activeAtomicIDs.joined(separator: " ")
            if !instance.isRunning, instance.finalState != nil { text += " (final)" }
            if let note { text += " (\(note))" }
            print(text)
        }

        /// After an error: prints the trace so far and records it as a last step.
        mutating func recordFailure(_ session: inout SCXMLSession, message: String) {
            if recordsSteps, !session.root.trace.isEmpty || steps.isEmpty {
                steps.append(RunPage.Step(label: "error", instance: session.root, note: message))
            }
            printTrace(&session)
        }

        /// Prints the root session's trace (or only its `<log>` lines), then each invoked session's,
        /// its lines marked with the invocation's id.
        private func printTrace(_ session: inout SCXMLSession) {
            let root = session.takeTrace()
            let invoked = session.takeInvocationTraces()
            for (prefix, steps) in [("", root)] + invoked.map({ ("[\($0.invokeID)] ", $0.steps) }) {
                if printsTrace {
                    for line in TraceLines.lines(steps) { print("  " + prefix + line) }
                } else {
                    for case .log(let line) in steps { print("  \(prefix)log: \(line)") }
                }
            }
        }
    }

    /// The note beside a step: what happened, and the execution errors the step raised.
    static func note(_ text: String?, _ failures: [String]) -> String? {
        let parts = (text.map { [$0] } ?? []) + failures.map { "error.execution: " + $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// `go` or `go={"x": 1}`: an external event, with the JSON after the first `=` as its data
    /// (`_event.data`); `nil` when that is not JSON.
    static func event(_ argument: String) -> SCXMLEvent? {
        guard let equals = argument.firstIndex(of: "=") else { return SCXMLEvent(argument) }
        let json = Data(argument[argument.index(after: equals)...].utf8)
        guard let data = try? JSONDecoder().decode(DataValue.self, from: json) else { return nil }
        return SCXMLEvent(String(argument[..<equals]), data: data)
    }

    /// `500ms`, `1.5s`: parsed like an SCXML `delay`.
    static func delay(_ text: String) -> Duration? {
        SCXMLDocument.duration(fromDelay: text)
    }
}
