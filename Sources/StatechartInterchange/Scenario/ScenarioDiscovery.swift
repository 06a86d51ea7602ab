import Foundation

/// An SCXML chart and the scenario beside it (`X.scxml` and `X.json`).
public struct ScenarioCase: Hashable, Sendable {
    /// The chart.
    public var scxml: URL
    /// The scenario.
    public var scenario: URL
    /// The chart's path as found: below the path that was searched, spelled as that path was.
    public var name: String

    /// Creates a case.
    public init(scxml: URL, scenario: URL, name: String? = nil) {
        self.scxml = scxml
        self.scenario = scenario
        self.name = name ?? scxml.relativePath
    }

    /// Runs the case; the result is named by ``name``.
    public func run() -> ScenarioResult {
        var result = ScenarioRunner.run(scxml: scxml, scenario: scenario)
        result.name = name
        return result
    }
}

/// Finds scenario cases on disk.
public enum ScenarioDiscovery {
    /// Every `X.scxml` with an `X.json` beside it, under each path (searched recursively when it is
    /// a directory; a file must be an `.scxml` with its `.json`), sorted by path, without duplicates.
    ///
    /// - Throws: ``ScenarioError/unreadable(path:reason:)`` for a path that does not exist, or a
    ///   file that is not an `.scxml` with a scenario beside it.
    public static func cases(in paths: [URL]) throws(ScenarioError) -> [ScenarioCase] {
        let fm = FileManager.default
        var found: [String: ScenarioCase] = [:]
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path.path, isDirectory: &isDirectory) else {
                throw .unreadable(path: path.path, reason: "no such file or directory")
            }
            if !isDirectory.boolValue {
                guard path.pathExtension == "scxml", let c = scenarioCase(for: path) else {
                    throw .unreadable(
                        path: path.path, reason: "expected an .scxml file with a .json scenario beside it")
                }
                found[c.scxml.standardizedFileURL.path] = c
                continue
            }
            guard let walker = fm.enumerator(at: path, includingPropertiesForKeys: nil) else {
                throw .unreadable(path: path.path, reason: "cannot list the directory")
            }
            let base = path.standardizedFileURL.path
            while let url = walker.nextObject() as? URL {
                if url.pathExtension == "scxml", var c = scenarioCase(for: url) {
                    let full = url.standardizedFileURL.path
                    if full.hasPrefix(base + "/") {
                        let given =
                            path.relativePath.hasSuffix("/") ? String(path.relativePath.dropLast()) : path.relativePath
                        c.name = given + full.dropFirst(base.count)
                    }
                    found[full] = c
                }
            }
        }
        return found.keys.sorted().compactMap { found[$0] }
    }

    private static func scenarioCase(for scxml: URL) -> ScenarioCase? {
        let json = scxml.deletingPathExtension().appendingPathExtension("json")
        guard FileManager.default.fileExists(atPath: json.path) else { return nil }
        return ScenarioCase(scxml: scxml, scenario: json)
    }
}
