import Foundation
import Testing

/// Every file a document cites exists in the repository (rule R79): the relative links of
/// README.md and Docs/*.md, and every path-like token in their text (`Interpreter/LeanStep.swift`,
/// `Specs/examples/order.scxml`, `Scripts/fuzz.sh`, `Docs/Diagrams/*.scxml`), code blocks included.
/// A reference that leaves the repository (`../shared/…`, `/work/…`) fails even when it exists on
/// the machine that wrote it: a reader of the repository cannot follow it.
@Suite("Docs references")
struct DocsReferencesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().standardizedFileURL

    /// README.md and Docs/*.md.
    static func documents() throws -> [URL] {
        let docs = try FileManager.default.contentsOfDirectory(
            at: root.appendingPathComponent("Docs"), includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "md" }
        return [root.appendingPathComponent("README.md")] + docs.sorted { $0.path < $1.path }
    }

    /// Markdown link targets: `[text](target)`.
    static let link = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
    /// A token with a `/` that names a file (by its extension) or a directory (a trailing `/`), or
    /// that starts with `../` or `./`; not part of a URL or of an absolute path.
    static let pathToken = try! NSRegularExpression(
        pattern: #"(?<![\w/.:~@-])((?:\.\.?/)?[\w.*-]+(?:/[\w.*-]+)+/?)"#)
    static let fileExtensions: Set<String> = [
        "swift", "md", "scxml", "json", "sh", "html", "png", "svg", "supp", "txt", "dot", "mmd", "yml", "dict",
    ]

    /// The references of one document that do not resolve, as `line: reference`.
    static func unresolved(in document: URL) throws -> [String] {
        unresolved(in: try String(contentsOf: document, encoding: .utf8), at: document)
    }

    /// The references of `text`, read as the document at `document`, that do not resolve.
    static func unresolved(in text: String, at document: URL) -> [String] {
        let ns = text as NSString
        var problems: [String] = []
        func line(_ location: Int) -> Int { ns.substring(to: location).split(separator: "\n", omittingEmptySubsequences: false).count }
        for m in link.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let target = ns.substring(with: m.range(at: 1))
            if target.hasPrefix("#") || target.range(of: #"^[a-zA-Z][a-zA-Z+.-]*:"#, options: .regularExpression) != nil {
                continue
            }
            let path = String(target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
            if !exists(path, bases: [document.deletingLastPathComponent()]) {
                problems.append("line \(line(m.range.location)): link \(target)")
            }
        }
        for m in pathToken.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let token = ns.substring(with: m.range(at: 1))
            let names = token.hasSuffix("/") || token.hasPrefix("./") || token.hasPrefix("../")
                || fileExtensions.contains((token as NSString).pathExtension)
            guard names else { continue }
            if !exists(token, bases: bases(for: document)) {
                problems.append("line \(line(m.range.location)): path \(token)")
            }
        }
        for (i, l) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where l.contains("/work/") {
            problems.append("line \(i + 1): an absolute path of the machine that wrote it: \(l.trimmingCharacters(in: .whitespaces))")
        }
        return problems
    }

    /// Where a path in running text may be relative to: the document's folder, the repository, and
    /// each target's folder (`Interpreter/Microstep.swift` is in `Sources/Statechart`).
    static func bases(for document: URL) -> [URL] {
        var bases = [document.deletingLastPathComponent(), root]
        for folder in ["Sources", "Tests"] {
            let dir = root.appendingPathComponent(folder)
            let targets = (try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? []
            bases += targets.sorted { $0.path < $1.path }
        }
        return bases
    }

    /// Whether `path` names something inside the repository from one of `bases`. Build output
    /// (a `.build…` folder, ignored by git) counts as present; `*` matches within one folder.
    static func exists(_ path: String, bases: [URL]) -> Bool {
        bases.contains { base in
            let url = base.appendingPathComponent(path).standardizedFileURL
            guard url.path.hasPrefix(root.path + "/") || url.path == root.path else { return false }
            let inside = url.path.dropFirst(root.path.count).split(separator: "/")
            if inside.contains(where: { $0.hasPrefix(".build") }) { return true }
            if path.contains("*") {
                let dir = url.deletingLastPathComponent()
                let pattern = url.lastPathComponent
                let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
                return names.contains { fnmatch(pattern, $0, 0) == 0 }
            }
            return FileManager.default.fileExists(atPath: url.path)
        }
    }

    @Test("R79: every file README.md and Docs/*.md cite resolves inside the repository")
    func everyReferenceResolves() throws {
        let documents = try Self.documents()
        #expect(documents.count > 5)
        for document in documents {
            let problems = try Self.unresolved(in: document)
            #expect(problems.isEmpty, "\(document.lastPathComponent): \(problems.joined(separator: "; "))")
        }
    }

    @Test("R79: the check catches a link to a missing file, a path that leaves the repository and a machine's absolute path")
    func theCheckCatchesBadReferences() throws {
        // Checked as if it were a page of Docs/ (without writing one, which the other test would read).
        let probe = Self.root.appendingPathComponent("Docs/probe.md")
        let text = """
            See [the rules](Semantics.md), [a ghost](Ghost.md#x) and the [web](https://example.org/a.md).
            Cited: `Interpreter/LeanStep.swift`, Specs/examples/order.scxml, `Docs/Diagrams/*.scxml`,
            (shared/notes/peers.md), `../shared/conformance/scion/`, /work/shared/notes/style.md.
            """
        let problems = Self.unresolved(in: text, at: probe)
        #expect(
            problems == [
                "line 1: link Ghost.md#x",
                "line 3: path shared/notes/peers.md",
                "line 3: path ../shared/conformance/scion/",
                "line 3: an absolute path of the machine that wrote it: (shared/notes/peers.md), `../shared/conformance/scion/`, /work/shared/notes/style.md.",
            ])
    }
}
