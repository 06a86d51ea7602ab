import Foundation
import Statechart
import StatechartInterchange

/// `statechart run FILE.scxml [EVENT…] [--trace] [--html OUT.html]`: runs a chart from the command
/// line, optionally writing a page that replays the run (``RunPage``).
enum RunCommand {
    static let help = """
        USAGE: statechart run FILE.scxml [EVENT…] [--trace] [--html OUT.html]

        Starts the chart (virtual time 0), prints its active atomic states, then sends each EVENT
        as an external event and prints the active atomic states after it. An argument of the form
        +DELAY (for example +500ms or +1.5s) advances the virtual clock instead, firing the delayed
        sends that fall due.

        Options:
          --trace           Also print what the interpreter did (exits, entries, actions, events)
          --html OUT.html   Also write a self-contained page replaying the run: the chart drawn with
                            its active states highlighted, the steps with their trace, and buttons
                            and the arrow keys to step back and forth (open OUT.html#step=K for step K)
          -h, --help        Show this help
        """

    static func main(_ arguments: [String]) -> Int32 {
        let parsed: ParsedArguments
        switch ParsedArguments.forCommand(arguments, help: help, flags: ["trace"], options: ["html"]) {
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
        var run = Run(printsTrace: parsed.flags.contains("trace"), recordsSteps: htmlPath != nil)
        var instance = ChartInstance(chart: chart, context: SCXMLContext())
        instance.isTracing = run.printsTrace || run.recordsSteps
        var status: Int32 = 0
        do {
            try instance.start()
            run.report("start", &instance, note: nil)
            for input in parsed.positionals.dropFirst() {
                if input.hasPrefix("+") {
                    guard let delay = RunCommand.delay(String(input.dropFirst())) else {
                        printError("'\(input)' is not a delay such as +500ms or +1.5s")
                        return 2
                    }
                    try instance.advance(by: delay)
                    run.report(input, &instance, note: nil)
                } else if !instance.isRunning {
                    run.report(input, &instance, note: "ignored: the machine has finished")
                } else {
                    let handled = try instance.send(input)
                    run.report(input, &instance, note: handled ? nil : "no transition")
                }
            }
        } catch {
            run.recordFailure(&instance, message: error.description)
            printError("\(file): \(error.description)")
            status = 1
        }
        if let htmlPath {
            let page = RunPage.html(chart: chart, steps: run.steps)
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

        mutating func report(
            _ label: String, _ instance: inout ChartInstance<String, SCXMLContext>, note: String?
        ) {
            if recordsSteps { steps.append(RunPage.Step(label: label, instance: instance, note: note)) }
            printTrace(&instance)
            var text = "\(label) → " + instance.activeAtomicIDs.joined(separator: " ")
            if !instance.isRunning, instance.finalState != nil { text += " (final)" }
            if let note { text += " (\(note))" }
            print(text)
        }

        /// After an error: prints the trace so far and records it as a last step.
        mutating func recordFailure(_ instance: inout ChartInstance<String, SCXMLContext>, message: String) {
            if recordsSteps, !instance.trace.isEmpty || steps.isEmpty {
                steps.append(RunPage.Step(label: "error", instance: instance, note: message))
            }
            printTrace(&instance)
        }

        private func printTrace(_ instance: inout ChartInstance<String, SCXMLContext>) {
            if printsTrace {
                for line in TraceLines.lines(instance.trace) { print("  " + line) }
            }
            instance.trace.removeAll()
        }
    }

    /// `500ms`, `1.5s`: parsed like an SCXML `delay`.
    static func delay(_ text: String) -> Duration? {
        SCXMLDocument.duration(fromDelay: text)
    }
}
