import Foundation
import Statechart
import StatechartInterchange

/// `statechart validate FILE.scxml [--strict]`: static checks of a chart.
enum ValidateCommand {
    static let help = """
        USAGE: statechart validate FILE.scxml [--strict]

        Loads the chart and prints one line per finding: unreachable states, transitions that can
        never be taken (shadowed by an earlier unguarded transition), events raised or sent that no
        transition handles, unguarded eventless cycles, history states whose parent is never exited,
        parallel states with one region, duplicate transitions, terminal non-final states. A chart
        that does not load is reported as an error with its line.

        Exit status: 1 when there is an error (or, with --strict, a warning); 0 otherwise.

        Options:
          --strict    Warnings also make the command fail
          -h, --help  Show this help
        """

    static func main(_ arguments: [String]) -> Int32 {
        let parsed: ParsedArguments
        switch ParsedArguments.forCommand(arguments, help: help, flags: ["strict"]) {
        case .success(let p): parsed = p
        case .failure(let stop): return stop.status
        }
        guard parsed.positionals.count == 1, let file = parsed.positionals.first else {
            printError("validate needs exactly one FILE.scxml\n\n" + help)
            return 2
        }
        let diagnostics: [ChartDiagnostic]
        do {
            let document = try SCXMLDocument.loadDocument(contentsOf: URL(fileURLWithPath: file))
            diagnostics = document.expressionDiagnostics + document.chart.validate()
        } catch {
            print("\(file): error[invalid-chart]: \(error.description)")
            return 1
        }
        for d in diagnostics { print("\(file): \(d)") }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        print("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        return errors > 0 || (parsed.flags.contains("strict") && warnings > 0) ? 1 : 0
    }
}
