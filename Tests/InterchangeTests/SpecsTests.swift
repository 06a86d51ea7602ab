import Foundation
import StatechartInterchange
import Testing

/// The project's machine-readable specs: every `X.scxml` under `<package root>/Specs` with the
/// scenario `X.json` beside it (the format of the SCION conformance tests), run with the project's
/// loader and ``ScenarioRunner``. Each chart names the rules of `Docs/Semantics.md` it checks.
///
/// `Specs/pending/` holds specs that fail on a suspected engine bug awaiting a decision; they are
/// not run here (``SpecsTests/pendingSpec(_:)`` is skipped with a message).
enum SpecFiles {
    /// The package root, found from this file: `<root>/Tests/InterchangeTests/SpecsTests.swift`.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = packageRoot.appendingPathComponent("Specs")
    static let semantics = packageRoot.appendingPathComponent("Docs/Semantics.md")
    static let pendingFolder = "pending"

    /// Every file below `Specs/`, as paths relative to it, sorted.
    static var allFiles: [String] {
        let base = directory.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return []
        }
        var paths: [String] = []
        while let url = walker.nextObject() as? URL {
            var isDirectory: ObjCBool = false
            let full = url.standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                full.hasPrefix(base)
            else { continue }
            paths.append(String(full.dropFirst(base.count)))
        }
        return paths.sorted()
    }

    /// The specs (paths relative to `Specs/` without the extension, sorted): those in
    /// `Specs/pending/` when `pending` is true, all the others when it is false.
    static func names(pending: Bool) -> [String] {
        allFiles.filter { $0.hasSuffix(".scxml") }
            .map { String($0.dropLast(".scxml".count)) }
            .filter { $0.hasPrefix(pendingFolder + "/") == pending }
    }

    /// Runs one spec and records an issue for a load failure and for each failing check.
    static func check(_ name: String) {
        let scxml = directory.appendingPathComponent(name + ".scxml")
        let json = directory.appendingPathComponent(name + ".json")
        let result = ScenarioRunner.run(scxml: scxml, scenario: json)
        if let loadError = result.loadError {
            Issue.record("Specs/\(name): \(loadError)")
        }
        for failure in result.failures {
            // "step N (after X ms, event E): expected [...], actual [...]"
            Issue.record("Specs/\(name): \(failure.description)")
        }
    }

    /// The rule ids (`R` followed by digits, as a whole word) that a text mentions.
    static func ruleIDs(in text: String) -> Set<String> {
        var ids: Set<String> = []
        let scalars = Array(text.unicodeScalars)
        func isWordCharacter(_ c: Unicode.Scalar) -> Bool {
            c == "_" || (c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c)))
        }
        var i = 0
        while i < scalars.count {
            defer { i += 1 }
            guard scalars[i] == "R", i == 0 || !isWordCharacter(scalars[i - 1]) else { continue }
            var j = i + 1
            while j < scalars.count, ("0"..."9").contains(scalars[j]) { j += 1 }
            guard j > i + 1, j == scalars.count || !isWordCharacter(scalars[j]) else { continue }
            var id = ""
            id.unicodeScalars.append(contentsOf: scalars[i..<j])
            ids.insert(id)
        }
        return ids
    }

    /// The rule ids that `Docs/Semantics.md` defines (its `- **Rn — Title.**` items).
    static func definedRuleIDs() throws -> Set<String> {
        let text = try String(contentsOf: semantics, encoding: .utf8)
        var ids: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("- **R") {
            ids.formUnion(ruleIDs(in: String(line.dropFirst("- **".count).prefix(while: { $0 != " " }))))
        }
        return ids
    }

    /// The leading comment of a chart (the text of its first `<!-- … -->`).
    static func leadingComment(of name: String) throws -> String? {
        let text = try String(contentsOf: directory.appendingPathComponent(name + ".scxml"), encoding: .utf8)
        guard let start = text.range(of: "<!--"),
            let end = text.range(of: "-->", range: start.upperBound..<text.endIndex),
            let root = text.range(of: "<scxml"), end.upperBound <= root.lowerBound
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }
}

@Suite("Specs (SCXML charts with scenarios, per rule of Docs/Semantics.md)")
struct SpecsTests {
    @Test("spec", arguments: SpecFiles.names(pending: false))
    func spec(_ name: String) {
        SpecFiles.check(name)
    }

    @Test(
        .disabled(
            """
            Specs/pending/ holds specs that fail on a suspected engine bug awaiting a decision; \
            run them with `swift run statechart test Specs/pending`
            """),
        arguments: SpecFiles.names(pending: true))
    func pendingSpec(_ name: String) {
        SpecFiles.check(name)
    }

    @Test func everyChartHasAScenarioAndEveryScenarioAChart() {
        let files = SpecFiles.allFiles
        let charts = Set(files.filter { $0.hasSuffix(".scxml") }.map { $0.dropLast(".scxml".count) })
        let scenarios = Set(files.filter { $0.hasSuffix(".json") }.map { $0.dropLast(".json".count) })
        #expect(charts.count >= 35, "expected the Specs at \(SpecFiles.directory.path)")
        #expect(charts.subtracting(scenarios).sorted().isEmpty, "charts without a scenario")
        #expect(scenarios.subtracting(charts).sorted().isEmpty, "scenarios without a chart")
    }

    @Test func everyChartNamesItsRulesInItsLeadingComment() throws {
        let defined = try SpecFiles.definedRuleIDs()
        for name in SpecFiles.names(pending: false) + SpecFiles.names(pending: true) {
            let comment = try SpecFiles.leadingComment(of: name)
            let ids = comment.map(SpecFiles.ruleIDs(in:)) ?? []
            #expect(!ids.isEmpty, "Specs/\(name).scxml: no leading <!-- Rn: … --> comment naming a rule")
            let unknown = ids.subtracting(defined).sorted()
            #expect(unknown.isEmpty, "Specs/\(name).scxml names rules that Docs/Semantics.md does not define")
        }
    }

    @Test func everyRuleMentionedInSpecsExistsInSemantics() throws {
        let defined = try SpecFiles.definedRuleIDs()
        #expect(defined.contains("R1") && defined.contains("R32"), "Docs/Semantics.md defines R1…R32")
        var stale: [String] = []
        for file in SpecFiles.allFiles {
            let text = try String(contentsOf: SpecFiles.directory.appendingPathComponent(file), encoding: .utf8)
            for id in SpecFiles.ruleIDs(in: text).subtracting(defined).sorted() {
                stale.append("Specs/\(file): \(id)")
            }
        }
        #expect(stale.isEmpty, "rule ids not defined in Docs/Semantics.md:\n\(stale.joined(separator: "\n"))")
    }

    @Test func ruleIDsAreWholeWords() {
        #expect(SpecFiles.ruleIDs(in: "<!-- R8, R13: exit order (R31) -->") == ["R8", "R13", "R31"])
        #expect(SpecFiles.ruleIDs(in: "R1") == ["R1"])
        #expect(SpecFiles.ruleIDs(in: "XR1 R1a R r1 R_2 -R7-") == ["R7"])
    }
}
