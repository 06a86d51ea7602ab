import Foundation
import Statechart
import StatechartInterchange

/// `statechart run FILE.scxml [EVENT…] [--trace]`: runs a chart interactively from the command line.
enum RunCommand {
    static let help = """
        USAGE: statechart run FILE.scxml [EVENT…] [--trace]

        Starts the chart (virtual time 0), prints its active atomic states, then sends each EVENT
        as an external event and prints the active atomic states after it. An argument of the form
        +DELAY (for example +500ms or +1.5s) advances the virtual clock instead, firing the delayed
        sends that fall due.

        Options:
          --trace     Also print what the interpreter did (exits, entries, actions, events)
          -h, --help  Show this help
        """

    static func main(_ arguments: [String]) -> Int32 {
        let parsed: ParsedArguments
        switch ParsedArguments.forCommand(arguments, help: help, flags: ["trace"]) {
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
        var instance = ChartInstance(chart: chart, context: SCXMLContext())
        instance.isTracing = parsed.flags.contains("trace")
        do {
            try instance.start()
            report("start", &instance, note: nil)
            for input in parsed.positionals.dropFirst() {
                if input.hasPrefix("+") {
                    guard let delay = RunCommand.delay(String(input.dropFirst())) else {
                        printError("'\(input)' is not a delay such as +500ms or +1.5s")
                        return 2
                    }
                    try instance.advance(by: delay)
                    report(input, &instance, note: nil)
                } else if !instance.isRunning {
                    report(input, &instance, note: "ignored: the machine has finished")
                } else {
                    let handled = try instance.send(input)
                    report(input, &instance, note: handled ? nil : "no transition")
                }
            }
            return 0
        } catch {
            printTrace(&instance)
            printError("\(file): \(error.description)")
            return 1
        }
    }

    private static func report(
        _ label: String, _ instance: inout ChartInstance<String, SCXMLContext>, note: String?
    ) {
        printTrace(&instance)
        var text = "\(label) → " + instance.activeAtomicIDs.joined(separator: " ")
        if !instance.isRunning, instance.finalState != nil { text += " (final)" }
        if let note { text += " (\(note))" }
        print(text)
    }

    private static func printTrace(_ instance: inout ChartInstance<String, SCXMLContext>) {
        guard instance.isTracing else { return }
        for step in instance.trace { print("  \(step)") }
        instance.trace.removeAll()
    }

    /// `500ms`, `1.5s`: parsed like an SCXML `delay`.
    static func delay(_ text: String) -> Duration? {
        SCXMLDocument.duration(fromDelay: text)
    }
}
