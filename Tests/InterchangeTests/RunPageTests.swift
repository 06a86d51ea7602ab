import Foundation
import Statechart
import Testing

@testable import StatechartInterchange

/// The run page of `statechart run … --html` (issue 7 §4): the SVG diagram's structure and
/// escaping, the page's embedded run, and — when headless Chromium is installed — the page's
/// script, checked from the DOM Chromium dumps for each `#step=K`.
@Suite("run page")
struct RunPageTests {
    /// An id with a quote, markup characters and a non-ASCII letter.
    static let oddID = "r\"2<é>&"

    /// Nested states inside parallel regions, a history state, a final state and an odd id;
    /// transitions going right and left, a self-loop, a compound state's arrow to its own state and
    /// a guard (``RunPageArrowTests`` checks their arrows; the run sends none of their events).
    static let source = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" name="lab &amp; &lt;co&gt;" initial="idle">
          <state id="idle">
            <transition event="go" target="work"/>
          </state>
          <parallel id="work">
            <state id="left" initial="l1">
              <state id="l1">
                <transition event="next" target="l2"/>
                <transition event="again" target="l1"/>
              </state>
              <state id="l2" initial="l2a">
                <onentry><raise event="bump"/></onentry>
                <state id="l2a"/>
              </state>
              <transition event="reset" target="l1"/>
            </state>
            <state id="right" initial="r1">
              <history id="right.h" type="deep"/>
              <state id="r1">
                <transition event="bump" target="r&quot;2&lt;é&gt;&amp;"/>
              </state>
              <state id="r&quot;2&lt;é&gt;&amp;">
                <transition event="back" cond="In('l2')" target="r1"/>
              </state>
            </state>
            <transition event="finish" target="end"/>
          </parallel>
          <final id="end"/>
        </scxml>
        """

    /// The events of the run, and the active states (ancestors included) after start and after each.
    static let events = ["go", "next", "finish"]
    static let expected: [[String]] = [
        ["idle"],
        ["work", "left", "l1", "right", "r1"],
        ["work", "left", "l2", "l2a", "right", oddID],
        ["end"],
    ]

    static func chart() throws -> SCXMLChart {
        // The odd id is not an XML ID, which the loader refuses by default (rule R76).
        try SCXMLDocument.load(string: source, options: SCXMLLoadOptions(requiresXMLIDs: false))
    }

    /// Runs the chart through ``events``, recording one step each.
    static func steps(_ chart: SCXMLChart) throws -> [RunPage.Step] {
        var instance = ChartInstance(chart: chart, context: SCXMLContext())
        instance.isTracing = true
        try instance.start()
        var steps = [RunPage.Step(label: "start", instance: instance)]
        instance.trace.removeAll()
        for event in events {
            _ = try instance.send(SCXMLEvent(event))
            steps.append(RunPage.Step(label: event, instance: instance))
            instance.trace.removeAll()
        }
        return steps
    }

    // MARK: - Structure

    @Test("every state but the root has one group with its escaped id and data-state")
    func everyStateHasItsGroup() throws {
        let chart = try Self.chart()
        let svg = SVGDiagram.svg(chart)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        let groups = Self.groups(in: svg)
        #expect(groups.map(\.state) == Array(chart.ids.dropFirst()))
        for g in groups {
            #expect(g.id == "state-" + g.state)
            #expect(!g.classes.contains("active"))
        }
        #expect(svg.components(separatedBy: "<g ").count - 1 == svg.components(separatedBy: "</g>").count - 1)
        // Kinds: dashed regions, a double-bordered final, a history circle marked H*.
        #expect(groups.first { $0.state == "left" }?.classes == ["state", "region", "compound"])
        #expect(groups.first { $0.state == "work" }?.classes == ["state", "parallel"])
        #expect(svg.components(separatedBy: "stroke-dasharray").count - 1 == 2)
        #expect(svg.contains("<rect class=\"inner\""))
        #expect(svg.contains(">H*</text>"))
    }

    @Test("compound states contain their children, and parallel regions sit side by side")
    func nesting() throws {
        let chart = try Self.chart()
        let layout = SVGLayout(DiagramChart(chart))
        for i in 1..<chart.stateCount {
            let p = Int(chart.parent(of: ChartStateID(Int32(i)))!.index)
            guard p > 0 else { continue }
            #expect(layout.x[i] > layout.x[p] && layout.x[i] + layout.width[i] < layout.x[p] + layout.width[p])
            #expect(layout.y[i] > layout.y[p] && layout.y[i] + layout.height[i] < layout.y[p] + layout.height[p])
        }
        let left = Int(chart.state(withID: "left")!.index)
        let right = Int(chart.state(withID: "right")!.index)
        #expect(layout.y[left] == layout.y[right])
        #expect(layout.x[left] + layout.width[left] < layout.x[right])
    }

    @Test("ids, labels, trace lines and the chart's name are escaped; the page is plain ASCII")
    func escaping() throws {
        let chart = try Self.chart()
        var steps = try Self.steps(chart)
        steps.append(RunPage.Step(label: "</script><b>x", trace: [.dropped("</script><b>x")], activeStates: ["end"], note: "a & \"b\""))
        let html = RunPage.html(chart: chart, steps: steps)
        #expect(html.utf8.allSatisfy { $0 < 0x80 })
        #expect(html.contains("id=\"state-r&quot;2&lt;&#xE9;&gt;&amp;\" data-state=\"r&quot;2&lt;&#xE9;&gt;&amp;\""))
        #expect(!html.contains(Self.oddID))
        #expect(html.contains("<title>lab &amp; &lt;co&gt;</title>"))
        // The JSON cannot close its script element; the step list escapes the label.
        #expect(html.components(separatedBy: "</script>").count - 1 == 2)
        #expect(html.contains("\"label\":\"\\u003C/script\\u003E\\u003Cb\\u003Ex\""))
        #expect(html.contains("\"r\\\"2\\u003C\\u00E9\\u003E\\u0026\""))
        #expect(html.contains("<button type=\"button\" class=\"step-label\">&lt;/script&gt;&lt;b&gt;x</button>"))
        #expect(html.contains("(a &amp; &quot;b&quot;)"))
        // The embedded JSON decodes back to the steps.
        let json = try #require(Self.embeddedJSON(html))
        let decoded = try JSONDecoder().decode(RunData.self, from: Data(json.utf8))
        #expect(decoded.chart == "lab & <co>")
        #expect(decoded.steps.map(\.label) == steps.map(\.label))
        #expect(decoded.steps.map(\.active) == steps.map(\.activeStates))
        #expect(decoded.steps.map(\.trace) == steps.map { $0.trace.map(\.description) })
        #expect(decoded.steps.last?.note == "a & \"b\"")
    }

    @Test("the same run always gives the same bytes")
    func deterministic() throws {
        let a = RunPage.html(chart: try Self.chart(), steps: try Self.steps(try Self.chart()))
        let b = RunPage.html(chart: try Self.chart(), steps: try Self.steps(try Self.chart()))
        #expect(a == b)
        #expect(SVGDiagram.svg(try Self.chart(), active: ["idle"]) == SVGDiagram.svg(try Self.chart(), active: ["idle"]))
    }

    @Test("steps record the active states with their ancestors and the trace of each step")
    func steps() throws {
        let chart = try Self.chart()
        let steps = try Self.steps(chart)
        #expect(steps.map(\.activeStates) == Self.expected)
        #expect(steps[0].trace == [.entered("idle")])
        let next = steps[2].trace.map(\.description)
        #expect(next.contains("exit l1"))
        #expect(next.contains("enter l2a"))
        #expect(next.contains("raise bump"))
        #expect(next.contains("enter " + Self.oddID))
        // The page starts at step 0: its diagram marks step 0's states.
        let html = RunPage.html(chart: chart, steps: steps)
        let active = Self.groups(in: html).filter { $0.classes.contains("active") }.map(\.state)
        #expect(active == ["idle"])
    }

    @Test("statechart run … --html writes the page")
    func commandLine() throws {
        let binary = try #require(CommandLineTests.binary, "the statechart binary was not built next to the tests")
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scxml = dir.appendingPathComponent("lab.scxml")
        // The command loads strictly (rule R76): there the odd id is an XML ID.
        try Self.source.replacingOccurrences(of: "r&quot;2&lt;é&gt;&amp;", with: "r2")
            .write(to: scxml, atomically: true, encoding: .utf8)
        let page = dir.appendingPathComponent("page.html")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["run", scxml.path] + Self.events + ["--html", page.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(stdout.contains("finish → end (final)"))
        #expect(!stdout.contains("  enter"), "the trace is printed only with --trace")
        let html = try String(contentsOf: page, encoding: .utf8)
        let json = try #require(Self.embeddedJSON(html))
        let decoded = try JSONDecoder().decode(RunData.self, from: Data(json.utf8))
        #expect(decoded.steps.map(\.label) == ["start"] + Self.events)
        #expect(decoded.steps.map(\.active) == Self.expected.map { $0.map { $0 == Self.oddID ? "r2" : $0 } })
    }

    // MARK: - Browser

    @Test(
        "in headless Chromium, #step=K marks exactly step K's states active",
        .enabled(if: Browser.executable != nil, "no chromium or chromium-browser on PATH: browser test skipped"))
    func browser() throws {
        let browser = try #require(Browser.executable)
        let chart = try Self.chart()
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("page.html")
        try RunPage.html(chart: chart, steps: try Self.steps(chart)).write(to: page, atomically: true, encoding: .utf8)
        for (k, expected) in Self.expected.enumerated() {
            let dom = try Browser.dumpDOM(browser, url: page.absoluteString + "#step=\(k)", profile: dir.appendingPathComponent("profile"))
            #expect(dom.contains("<body data-step=\"\(k)\""), "the script did not show step \(k)")
            let groups = Self.groups(in: dom)
            #expect(groups.count == chart.stateCount - 1)
            let active = groups.filter { $0.classes.contains("active") }.map(\.state)
            #expect(active == expected, "step \(k)")
            let current = dom.components(separatedBy: "class=\"step current\"").count - 1
            #expect(current == 1)
            #expect(dom.contains("<li id=\"step-\(k)\" data-step=\"\(k)\" class=\"step current\">"))
        }
    }

    // MARK: - Helpers

    struct RunData: Decodable {
        struct Step: Decodable {
            var label: String
            var note: String?
            var trace: [String]
            var active: [String]
        }
        var chart: String
        var steps: [Step]
    }

    struct Group {
        var id: String
        var state: String
        var classes: [String]
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statechart-runpage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func embeddedJSON(_ html: String) -> String? {
        guard let start = html.range(of: "<script type=\"application/json\" id=\"run-data\">"),
            let end = html.range(of: "</script>", range: start.upperBound..<html.endIndex)
        else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }

    /// The `<g data-state=…>` elements of markup (ours or a browser's serialization), in order,
    /// with their attributes decoded.
    static func groups(in markup: String) -> [Group] {
        var result: [Group] = []
        var rest = markup[...]
        while let open = rest.range(of: "<g ") {
            var attributes: [String: String] = [:]
            var i = open.upperBound
            // name="value" pairs up to the '>' that is outside quotes.
            while i < rest.endIndex, rest[i] != ">" {
                if rest[i] == " " || rest[i] == "/" {
                    i = rest.index(after: i)
                    continue
                }
                let nameStart = i
                while i < rest.endIndex, rest[i] != "=", rest[i] != " ", rest[i] != ">" { i = rest.index(after: i) }
                let name = String(rest[nameStart..<i])
                var value = ""
                if i < rest.endIndex, rest[i] == "=" {
                    i = rest.index(after: i)
                    let quote = rest[i]
                    i = rest.index(after: i)
                    let valueStart = i
                    while i < rest.endIndex, rest[i] != quote { i = rest.index(after: i) }
                    value = decode(String(rest[valueStart..<i]))
                    if i < rest.endIndex { i = rest.index(after: i) }
                }
                attributes[name] = value
            }
            if let state = attributes["data-state"] {
                result.append(
                    Group(
                        id: attributes["id"] ?? "", state: state,
                        classes: (attributes["class"] ?? "").split(separator: " ").map(String.init)))
            }
            rest = rest[i...]
        }
        return result
    }

    /// Decodes the entity and character references of an attribute value.
    static func decode(_ s: String) -> String {
        var out = ""
        var rest = s[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let name = rest[rest.index(after: amp)..<semi]
            switch name {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            case "nbsp": out += "\u{A0}"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X"), let v = UInt32(name.dropFirst(2), radix: 16),
                    let u = Unicode.Scalar(v)
                {
                    out.unicodeScalars.append(u)
                } else if name.hasPrefix("#"), let v = UInt32(name.dropFirst()), let u = Unicode.Scalar(v) {
                    out.unicodeScalars.append(u)
                } else {
                    out += "&" + name + ";"
                }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}

/// Headless Chromium, when installed.
enum Browser {
    static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser"] {
            for dir in path.split(separator: ":") {
                let candidate = dir + "/" + name
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// Loads a page and returns the DOM after its scripts ran (`--dump-dom`), giving up after a minute.
    static func dumpDOM(_ browser: String, url: String, profile: URL, extraArguments: [String] = []) throws -> String {
        let process = Process()
        var arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=" + profile.path,
        ] + extraArguments + ["--dump-dom", url]
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/timeout") {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            arguments = ["60", browser] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: browser)
        }
        process.arguments = arguments
        let out = Pipe()
        // Chromium's diagnostics go to a file beside the profile, read only on failure.
        let log = profile.deletingLastPathComponent().appendingPathComponent("chromium.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }
        process.standardOutput = out
        process.standardError = logHandle
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let dom = String(decoding: data, as: UTF8.self)
        if process.terminationStatus != 0 || dom.isEmpty {
            let diagnostics = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            Issue.record("chromium exited with \(process.terminationStatus): \(diagnostics.suffix(2000))")
        }
        return dom
    }
}
