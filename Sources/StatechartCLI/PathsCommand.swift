import Foundation
import Statechart
import StatechartInterchange

/// `statechart paths FILE.scxml --out DIR`: model-based test paths written as scenarios.
enum PathsCommand {
    static let help = """
        USAGE: statechart paths FILE.scxml --out DIR [--all] [--limit N]

        Explores the chart breadth first — every event its transitions name, in every configuration
        reached, and the passing of time to each pending delayed send — and writes test scenarios
        to DIR: a copy of the chart and an X.json beside it (the format `statechart test` runs).

        By default it writes a set of paths that together take every transition the exploration
        reached; with --all, the shortest path to every configuration reached. Exploration stops
        after N configurations (default 10000) and says so.

        Options:
          --out DIR   Where to write the scenarios (created if missing)
          --all       One scenario per reachable configuration instead of covering paths
          --limit N   The most configurations to explore
          -h, --help  Show this help
        """

    static func main(_ arguments: [String]) -> Int32 {
        let parsed: ParsedArguments
        switch ParsedArguments.forCommand(arguments, help: help, flags: ["all"], options: ["out", "limit"]) {
        case .success(let p): parsed = p
        case .failure(let stop): return stop.status
        }
        guard parsed.positionals.count == 1, let file = parsed.positionals.first, let out = parsed.options["out"] else {
            printError("paths needs one FILE.scxml and --out DIR\n\n" + help)
            return 2
        }
        var limit = 10_000
        if let text = parsed.options["limit"] {
            guard let n = Int(text), n > 0 else {
                printError("--limit needs a positive number, not '\(text)'")
                return 2
            }
            limit = n
        }
        let url = URL(fileURLWithPath: file)
        let chart: SCXMLChart
        let source: Data
        do {
            source = try Data(contentsOf: url)
            chart = try SCXMLDocument.load(data: source, name: url.deletingPathExtension().lastPathComponent)
        } catch let error as SCXMLError {
            printError("\(file): \(error.description)")
            return 1
        } catch {
            printError("\(file): \(error.localizedDescription)")
            return 1
        }
        var instance = ChartInstance(chart: chart, context: SCXMLContext())
        do { try instance.start() } catch {
            printError("\(file): \(error.description)")
            return 1
        }
        let result = PathExplorer.explore(from: instance, alphabet: chart.descriptorEventNames().map { SCXMLEvent($0) }, limit: limit)
        let paths = parsed.flags.contains("all") ? result.shortestPaths : result.coveringPaths
        let base = url.deletingPathExtension().lastPathComponent
        let dir = URL(fileURLWithPath: out)
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for (n, path) in paths.enumerated() {
                let name = "\(base)-path\(n + 1)"
                try source.write(to: dir.appendingPathComponent(name + ".scxml"))
                try scenarioJSON(path).write(to: dir.appendingPathComponent(name + ".json"), atomically: true, encoding: .utf8)
            }
        } catch {
            printError("cannot write to \(out): \(error.localizedDescription)")
            return 1
        }
        print("\(result.shortestPaths.count) configurations reached; \(result.coveredTransitions.count) of \(result.allTransitions.count) transitions taken; \(paths.count) scenarios written to \(out)")
        let missed = result.allTransitions.subtracting(result.coveredTransitions).sorted()
        if !missed.isEmpty { print("never taken: " + missed.joined(separator: ", ")) }
        if result.reachedLimit {
            print("exploration stopped at the limit of \(limit) configurations: raise --limit to explore further")
        }
        return 0
    }

    /// A scenario in the format of the conformance suites.
    static func scenarioJSON(_ path: PathExplorer<SCXMLEvent, SCXMLContext>.Path) -> String {
        func list(_ ids: [String]) -> String { "[" + ids.map(quoted).joined(separator: ", ") + "]" }
        var steps: [String] = []
        for (step, configuration) in zip(path.steps, path.configurations) {
            switch step {
            case .send(let event):
                steps.append("    {\"event\": {\"name\": \(quoted(event.name))}, \"nextConfiguration\": \(list(configuration))}")
            case .wait(let d):
                let (seconds, attoseconds) = d.components
                let ms = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
                steps.append("    {\"after\": \(ms), \"nextConfiguration\": \(list(configuration))}")
            }
        }
        return "{\n  \"initialConfiguration\": \(list(path.initial)),\n  \"events\": [\n"
            + steps.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if c.value < 0x20 { out += String(format: "\\u%04x", c.value) } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }
}
