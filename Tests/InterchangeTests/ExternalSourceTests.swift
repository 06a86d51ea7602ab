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

    @Test("R84: <script src> and <data src> are read relative to the chart's file (a path or a file: URL)")
    func readRelativeToTheChart() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "function twice(x) { return 2 * x; }".write(to: dir.appendingPathComponent("lib.js"), atomically: true, encoding: .utf8)
        try "{\"answer\": 21}".write(to: dir.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        let file = dir.appendingPathComponent("chart.scxml")
        try chart(
            """
            <datamodel><data id="d" src="file:data.json"/></datamodel>
            <script src="lib.js"/>
            <state id="s0"><transition cond="twice(d.answer) === 42" target="pass"/><transition target="fail"/></state>
            <final id="pass"/>
            <final id="fail"/>
            """
        ).write(to: file, atomically: true, encoding: .utf8)
        var instance = ChartInstance(chart: try SCXMLDocument.load(contentsOf: file), context: SCXMLContext())
        try instance.start()
        #expect(instance.activeAtomicIDs == ["pass"])
    }

    @Test("R84, R82: a <data src> file of XML is XML data, read by its DOM; a file of other text is a space-normalized string")
    func xmlAndTextFiles() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "<?xml version=\"1.0\"?>\n<books><book title=\"one\"/><book title=\"two\"/></books>\n"
            .write(to: dir.appendingPathComponent("books.xml"), atomically: true, encoding: .utf8)
        try "\n  several   words\n on lines \n".write(to: dir.appendingPathComponent("words.txt"), atomically: true, encoding: .utf8)
        let file = dir.appendingPathComponent("chart.scxml")
        try chart(
            """
            <datamodel><data id="books" src="books.xml"/><data id="words" src="file:words.txt"/></datamodel>
            <state id="s0">
              <transition cond="books.getElementsByTagName('book')[1].getAttribute('title') === 'two' &amp;&amp; words === 'several words on lines'" target="pass"/>
              <transition target="fail"/>
            </state>
            <final id="pass"/>
            <final id="fail"/>
            """
        ).write(to: file, atomically: true, encoding: .utf8)
        var instance = ChartInstance(chart: try SCXMLDocument.load(contentsOf: file), context: SCXMLContext())
        try instance.start()
        #expect(instance.activeAtomicIDs == ["pass"])
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
