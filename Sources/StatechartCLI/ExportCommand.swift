import Foundation
import StatechartInterchange

/// `statechart export FILE.scxml --format F`: writes a chart in another format.
enum ExportCommand {
    static let help = """
        USAGE: statechart export FILE.scxml [--format scxml]

        Loads an SCXML chart and writes it to standard output in the given format.

        Options:
          --format F  The output format: scxml (the default). dot and mermaid are not available yet.
          -h, --help  Show this help
        """

    static func main(_ arguments: [String]) -> Int32 {
        let parsed: ParsedArguments
        switch ParsedArguments.forCommand(arguments, help: help, options: ["format"]) {
        case .success(let p): parsed = p
        case .failure(let stop): return stop.status
        }
        guard parsed.positionals.count == 1, let file = parsed.positionals.first else {
            printError("export needs exactly one FILE.scxml\n\n" + help)
            return 2
        }
        let format = parsed.options["format"] ?? "scxml"
        switch format {
        case "scxml":
            break
        case "dot", "mermaid":
            printError("export format '\(format)' is not available yet; available: scxml")
            return 2
        default:
            printError("unknown export format '\(format)'; available: scxml")
            return 2
        }
        do {
            let chart = try SCXMLDocument.load(contentsOf: URL(fileURLWithPath: file))
            print(SCXMLExporter.export(chart), terminator: "")
            return 0
        } catch {
            printError("\(file): \(error.description)")
            return 1
        }
    }
}
