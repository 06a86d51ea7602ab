import Foundation
import Statechart
import StatechartInterchange

/// How `statechart run --html` lays the page's diagram out (`--layout`).
enum RunPageLayout: String {
    /// Graphviz when `dot` is on `PATH`, else the page's own boxes and arrows.
    case auto
    /// Graphviz, or an error when `dot` is missing or fails.
    case graphviz
    /// The page's own layout (``SVGDiagram``), never Graphviz.
    case boxes

    /// The page, laid out as asked. With `auto`, a Graphviz failure is reported on standard
    /// error and the page falls back to the boxes; with `graphviz` it is an error.
    func page(chart: SCXMLChart, steps: [RunPage.Step]) -> Result<String, GraphvizOutputError> {
        let boxes = RunPage.html(chart: chart, steps: steps)
        if self == .boxes { return .success(boxes) }
        guard let dot = Self.dotExecutable() else {
            if self == .graphviz { return .failure(GraphvizOutputError("--layout graphviz needs Graphviz's dot on PATH")) }
            return .success(boxes)
        }
        let result: Result<String, GraphvizOutputError>
        do {
            let svg = try Self.runDot(dot, input: SVGDiagram.graphvizInput(chart))
            result = .success(try RunPage.html(chart: chart, steps: steps, graphvizSVG: svg))
        } catch {
            result = .failure(error)
        }
        if case .failure(let error) = result, self == .auto {
            printError("Graphviz could not lay the diagram out (\(error.message)); the page uses its own layout")
            return .success(boxes)
        }
        return result
    }

    /// `dot` on `PATH`, if any.
    static func dotExecutable() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent("dot")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// `dot -Tsvg` on `input`, through files in a temporary directory (no pipe to fill up).
    static func runDot(_ dot: URL, input: String) throws(GraphvizOutputError) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statechart-dot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("chart.dot")
        let output = dir.appendingPathComponent("chart.svg")
        let errors = dir.appendingPathComponent("dot.log")
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try input.write(to: source, atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            let log = try FileHandle(forWritingTo: errors)
            defer { try? log.close() }
            let process = Process()
            process.executableURL = dot
            process.arguments = ["-Tsvg", "-o", output.path, source.path]
            process.standardError = log
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                throw GraphvizOutputError("dot exited with status \(process.terminationStatus): \(text.prefix(500))")
            }
            return try String(contentsOf: output, encoding: .utf8)
        } catch let error as GraphvizOutputError {
            throw error
        } catch {
            throw GraphvizOutputError("cannot run \(dot.path): \(error.localizedDescription)")
        }
    }
}
