import Foundation
import Statechart
import Testing

@testable import StatechartInterchange

/// `<script src>` and `<data src>` (rule R84).
@Suite("SCXML src attributes (R84)")
struct ExternalSourceTests {
    private func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statechart-src-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    private func chart(_ body: String) -> String {
        document(body, rootAttributes: " datamodel=\"ecmascript\"")
    }

    /// Writes `files` (name, text) and a chart of `body` in `dir`, loads the chart from its file,
    /// starts it and returns its active atomic states.
    private func started(_ body: String, in dir: URL, files: [(String, String)]) throws -> [String] {
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let file = dir.appendingPathComponent("chart.scxml")
        try chart(body).write(to: file, atomically: true, encoding: .utf8)
        var instance = ChartInstance(chart: try SCXMLDocument.load(contentsOf: file), context: SCXMLContext())
        try instance.start()
        return instance.activeAtomicIDs
    }

    @Test("R84: <script src> and <data src> are read relative to the chart's file (a path or a file: URL)")
    func readRelativeToTheChart() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let active = try started(
            """
            <datamodel><data id="d" src="file:data.json"/></datamodel>
            <script src="lib.js"/>
            <state id="s0"><transition cond="twice(d.answer) === 42" target="pass"/><transition target="fail"/></state>
            <final id="pass"/>
            <final id="fail"/>
            """, in: dir, files: [("lib.js", "function twice(x) { return 2 * x; }"), ("data.json", "{\"answer\": 21}")])
        #expect(active == ["pass"])
    }

    @Test("R84, R82: a <data src> file of XML is XML data, read by its DOM; a file of other text is a space-normalized string")
    func xmlAndTextFiles() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let active = try started(
            """
            <datamodel><data id="books" src="books.xml"/><data id="words" src="file:words.txt"/></datamodel>
            <state id="s0">
              <transition cond="books.getElementsByTagName('book')[1].getAttribute('title') === 'two' &amp;&amp; words === 'several words on lines'" target="pass"/>
              <transition target="fail"/>
            </state>
            <final id="pass"/>
            <final id="fail"/>
            """, in: dir,
            files: [
                ("books.xml", "<?xml version=\"1.0\"?>\n<books><book title=\"one\"/><book title=\"two\"/></books>\n"),
                ("words.txt", "\n  several   words\n on lines \n"),
            ])
        #expect(active == ["pass"])
    }

    @Test("R84: a <script src> that cannot be read refuses the document, naming it; a <data src> raises error.execution when bound")
    func unreadableSources() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let options = SCXMLLoadOptions(baseURL: dir)
        let script = chart("<script src=\"missing.js\"/>\n<state id=\"s0\"/>")
        do {
            _ = try SCXMLDocument.load(string: script, options: options)
            Issue.record("a missing script loaded")
        } catch {
            guard case .invalidAttributeValue("missing.js", "src", "script", 2, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
        let remote = chart("<script src=\"https://example.com/x.js\"/>\n<state id=\"s0\"/>")
        #expect(throws: SCXMLError.self) { try SCXMLDocument.load(string: remote, options: options) }
        let noBase = chart("<script src=\"lib.js\"/>\n<state id=\"s0\"/>")
        #expect(throws: SCXMLError.self) { try SCXMLDocument.load(string: noBase) }

        let data = chart(
            """
            <datamodel><data id="d" src="missing.json"/></datamodel>
            <state id="s0"><transition event="error.execution" cond="typeof d === 'undefined'" target="pass"/></state>
            <final id="pass"/>
            """)
        var instance = ChartInstance(chart: try SCXMLDocument.load(string: data, options: options), context: SCXMLContext())
        try instance.start()
        #expect(instance.activeAtomicIDs == ["pass"])
    }
}
