import Foundation
import StatechartInterchange

/// `statechart export FILE.scxml --format F`: writes a chart in another format.
enum ExportCommand {
    static let help = """
        USAGE: statechart export FILE.scxml [--format scxml|dot|mermaid]

        Loads an SCXML chart and writes it to standard output in the given format.

        Options:
          --format F  The output format:
                        scxml    SCXML, the null data model (the default); attributes and
                                 elements of other namespaces (editor annotations) are kept
                        dot      a Graphviz digraph: statechart export c.scxml --format dot | dot -Tsvg > c.svg
                        mermaid  a Mermaid stateDiagram-v2, for a ```mermaid block on GitHub
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
        let export: (SCXMLLoadedDocument) -> String
        switch format {
        // SCXML keeps what the loader ignored: attributes and elements of other namespaces.
        case "scxml": export = { SCXMLExporter.export($0.chart, foreignContent: $0.foreignContent) }
        case "dot": export = { DOTExporter.export($0.chart) }
        case "mermaid": export = { MermaidExporter.export($0.chart) }
        default:
            printError("unknown export format '\(format)'; available: scxml, dot, mermaid")
            return 2
        }
        do {
            let document = try SCXMLDocument.loadDocument(contentsOf: URL(fileURLWithPath: file))
            print(export(document), terminator: "")
            return 0
        } catch {
            printError("\(file): \(error.description)")
            return 1
        }
    }
}
