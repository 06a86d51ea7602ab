import Foundation
import Statechart
import Testing

@testable import StatechartInterchange

/// The run page's transitions (issue 13 §8): an arrow per transition target with its label, in
/// the page's own layout and in the layout Graphviz makes; `statechart run --layout`; and, in
/// headless Chromium, that every arrow is inked on the rendered diagram with its head and its
/// label, and that no two labels overlap.
@Suite("run page arrows")
struct RunPageArrowTests {
    /// The selectable transitions of ``RunPageTests/source``: source, target, label.
    /// The arrows of the fixture run from the command line, where the odd id is `r2`.
    static var expectedCommandLineArrows: Set<Arrow> {
        func rename(_ id: String) -> String { id == RunPageTests.oddID ? "r2" : id }
        return Set(expectedArrows.map { Arrow(source: rename($0.source), target: rename($0.target), label: $0.label) })
    }

    static let expectedArrows: Set<Arrow> = [
        Arrow(source: "idle", target: "work", label: "go"),
        Arrow(source: "l1", target: "l2", label: "next"),
        Arrow(source: "l1", target: "l1", label: "again"),
        Arrow(source: "left", target: "l1", label: "reset"),
        Arrow(source: "r1", target: RunPageTests.oddID, label: "bump"),
        Arrow(source: RunPageTests.oddID, target: "r1", label: "back [In(l2)]"),
        Arrow(source: "work", target: "end", label: "finish"),
    ]

    static func page(graphviz: Bool) throws -> String {
        let chart = try RunPageTests.chart()
        let steps = try RunPageTests.steps(chart)
        guard graphviz else { return RunPage.html(chart: chart, steps: steps) }
        let dot = try #require(Graphviz.executable)
        let svg = try Graphviz.run(dot, SVGDiagram.graphvizInput(chart))
        return try RunPage.html(chart: chart, steps: steps, graphvizSVG: svg)
    }

    // MARK: - The page's own layout

    @Test("the page's own layout draws every transition as an arrow with its label")
    func ownLayoutArrows() throws {
        let html = try Self.page(graphviz: false)
        let arrows = Self.arrows(in: html)
        #expect(Set(arrows.filter { $0.classes == ["transition"] }.map(\.arrow)) == Self.expectedArrows)
        #expect(arrows.allSatisfy { $0.hasPath })
        // One initial marker per compound state (the root's too) and no parallel state's.
        let initial = arrows.filter { $0.classes == ["initial"] }.map { "\($0.arrow.source)>\($0.arrow.target)" }
        let root = try RunPageTests.chart().ids[0]
        #expect(Set(initial) == ["\(root)>idle", "left>l1", "l2>l2a", "right>r1"])
        #expect(html.utf8.allSatisfy { $0 < 0x80 })
    }

    @Test("arrows start and end on their states' borders, and no two labels overlap")
    func ownLayoutGeometry() throws {
        let chart = try RunPageTests.chart()
        let layout = SVGLayout(DiagramChart(chart))
        for (r, route) in layout.routes.enumerated() {
            let arrow = layout.arrows[route.arrow]
            let points = layout.points(r)
            for (state, point) in [(arrow.source, points.first!), (arrow.target, points.last!)] {
                let (x, y, w, h) = (layout.x[state], layout.y[state], layout.width[state], layout.height[state])
                let onTopOrBottom = (point.y == y || point.y == y + h) && point.x > x && point.x < x + w
                let onLeftBorder = point.x == x && point.y > y && point.y < y + h
                #expect(onTopOrBottom || onLeftBorder, "arrow \(arrow.key) misses \(chart.ids[state])")
            }
            // Every segment is horizontal or vertical.
            for k in 1..<points.count {
                #expect(points[k].x == points[k - 1].x || points[k].y == points[k - 1].y)
            }
        }
        let labels = layout.routes.filter { $0.labelWidth > 0 }.map { route in
            let box = layout.labelBox(route)
            return (x: box.x, y: box.y, w: box.width, h: box.height)
        }
        for i in labels.indices {
            for j in labels.indices where j > i {
                let (a, b) = (labels[i], labels[j])
                let overlaps = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
                #expect(!overlaps, "labels \(i) and \(j) overlap")
            }
            #expect(labels[i].x >= 0 && labels[i].x + labels[i].w <= layout.width[0])
        }
    }

    /// Every chart of Specs/ and Docs/Diagrams/ that loads, and the typed diagram charts (an
    /// attached child, chart-wide transitions, awkward names).
    static func manyCharts() throws -> [(name: String, chart: DiagramChart, svg: String, dot: String)] {
        var result: [(String, DiagramChart, String, String)] = []
        func add<Event, Context>(_ name: String, _ chart: Chart<Event, Context>) {
            result.append((name, DiagramChart(chart), SVGDiagram.svg(chart), SVGDiagram.graphvizInput(chart)))
        }
        let root = SpecFiles.packageRoot
        var files = SpecFiles.allFiles.filter { $0.hasSuffix(".scxml") }.map { root.appendingPathComponent("Specs/" + $0) }
        files += ["order", "sync", "parallel-history"].map { root.appendingPathComponent("Docs/Diagrams/\($0).scxml") }
        for file in files {
            guard let chart = try? SCXMLDocument.load(contentsOf: file) else { continue }
            add(file.lastPathComponent, chart)
        }
        add("typed order", try Diagrams.orderChart())
        add("typed sync", try Diagrams.syncChart())
        add("flat with any-state", try TypedChart(FlatMachine.machine()).chart)
        add("awkward names", try AwkwardNames.chart())
        return result
    }

    @Test("on every chart of Specs/ and Docs/Diagrams/ and the typed diagram charts, the own layout routes every arrow cleanly")
    func ownLayoutOnManyCharts() throws {
        let charts = try Self.manyCharts()
        #expect(charts.count > 40)
        for (name, d, svg, _) in charts {
            let layout = SVGLayout(d)
            #expect(layout.routes.count == d.arrows.filter { $0.kind != .initial }.count, "\(name)")
            let drawn = Self.arrows(in: svg)
            #expect(drawn.count == d.arrows.count, "\(name): \(drawn.count) arrow groups for \(d.arrows.count) arrows")
            #expect(drawn.allSatisfy { $0.hasPath }, "\(name)")
            #expect(svg.components(separatedBy: "<g ").count == svg.components(separatedBy: "</g>").count, "\(name)")
            for (r, route) in layout.routes.enumerated() {
                let arrow = layout.arrows[route.arrow]
                let points = layout.points(r)
                for (state, point) in [(arrow.source, points.first!), (arrow.target, points.last!)] {
                    let (x, y, w, h) = (layout.x[state], layout.y[state], layout.width[state], layout.height[state])
                    let onTopOrBottom = (point.y == y || point.y == y + h) && point.x > x && point.x < x + w
                    let onLeftBorder = point.x == x && point.y > y && point.y < y + h
                    #expect(onTopOrBottom || onLeftBorder || state == 0, "\(name): arrow \(arrow.key) misses \(d.ids[state])")
                }
                for k in 1..<points.count {
                    #expect(points[k].x == points[k - 1].x || points[k].y == points[k - 1].y, "\(name): \(arrow.key)")
                }
            }
            let labels = layout.routes.filter { $0.labelWidth > 0 }.map { layout.labelBox($0) }
            for i in labels.indices {
                for j in labels.indices where j > i {
                    let (a, b) = (labels[i], labels[j])
                    let overlaps = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
                    #expect(!overlaps, "\(name): labels \(i) and \(j) overlap")
                }
                #expect(labels[i].x >= 0 && labels[i].x + labels[i].width <= layout.width[0], "\(name)")
                #expect(labels[i].y >= 0 && labels[i].y + labels[i].height <= layout.height[0], "\(name)")
            }
        }
    }

    @Test(
        "on the same charts, dot's drawing becomes a diagram with every state's group and every arrow's",
        .enabled(if: Graphviz.executable != nil, "no dot on PATH: Graphviz layout test skipped"))
    func graphvizOnManyCharts() throws {
        let dot = try #require(Graphviz.executable)
        let charts = try Self.manyCharts()
        var failures: [String] = []
        for (name, d, _, input) in charts {
            let svg = try Graphviz.run(dot, input)
            do {
                let page = try GraphvizRewriter(d: d, active: []).rewrite(svg)
                let groups = RunPageTests.groups(in: page)
                #expect(Set(groups.map(\.state)) == Set(d.ids.dropFirst()), "\(name)")
                let edges = input.components(separatedBy: " -> ").count - 1
                #expect(Self.arrows(in: page).count == edges, "\(name)")
                #expect(page.utf8.allSatisfy { $0 < 0x80 }, "\(name)")
            } catch {
                failures.append("\(name): \(error.message)")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    // MARK: - Graphviz

    @Test(
        "laid out by Graphviz, the page keeps every state's hooks and draws every transition with its label",
        .enabled(if: Graphviz.executable != nil, "no dot on PATH: Graphviz layout test skipped"))
    func graphvizLayout() throws {
        let html = try Self.page(graphviz: true)
        let chart = try RunPageTests.chart()
        #expect(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"statechart graphviz\""))
        let groups = RunPageTests.groups(in: html)
        #expect(Set(groups.map(\.state)) == Set(chart.ids.dropFirst()))
        #expect(groups.count == chart.stateCount - 1)
        for g in groups { #expect(g.id == "state-" + g.state) }
        #expect(groups.filter { $0.classes.contains("active") }.map(\.state) == ["idle"])
        #expect(groups.first { $0.state == "left" }?.classes == ["state", "region", "compound"])
        let arrows = Self.arrows(in: html)
        #expect(Set(arrows.filter { $0.classes == ["transition"] }.map(\.arrow)) == Self.expectedArrows)
        #expect(arrows.allSatisfy { $0.hasPath })
        #expect(html.utf8.allSatisfy { $0 < 0x80 })
        #expect(!html.contains("<!--"))
    }

    @Test("output that is not dot's drawing of the chart is refused with a GraphvizOutputError")
    func graphvizRefusesOtherOutput() throws {
        let chart = try RunPageTests.chart()
        #expect(throws: GraphvizOutputError.self) { try SVGDiagram.graphviz(chart, svg: "no svg here") }
        do {
            _ = try SVGDiagram.graphviz(chart, svg: "<svg width=\"1pt\"><g id=\"s1\" class=\"node\"><title>x</title></g></svg>")
            Issue.record("an SVG without the chart's states was accepted")
        } catch {
            #expect(error.message.contains("left"), "the error names a missing state: \(error.message)")
        }
    }

    @Test("the DOT text for the page is the DOT export with element ids")
    func graphvizInputIsTheExport() throws {
        let chart = try RunPageTests.chart()
        let input = SVGDiagram.graphvizInput(chart)
        let plain = DOTExporter.export(chart)
        #expect(input.contains("id=\"s1\"") && input.contains("id=\"t1_0_2\""))
        // Without the ids, it is the export, line for line.
        let stripped = input.replacingOccurrences(of: #", id="[a-z0-9_]+""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #" \[id="[a-z0-9_]+"\]"#, with: "", options: .regularExpression)
            .split(separator: "\n").filter { !$0.hasPrefix("        id=") && !$0.contains("    id=\"s") }
        #expect(stripped == plain.split(separator: "\n"))
    }

    // MARK: - Command line

    @Test("statechart run --layout boxes|graphviz|auto; graphviz without dot is an error, a bad layout a usage error")
    func commandLineLayouts() throws {
        let dir = try RunPageTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scxml = dir.appendingPathComponent("lab.scxml")
        // The command line loads with XML IDs required (R76): the fixture's odd id becomes `r2`.
        try RunPageTests.source.replacingOccurrences(of: "r&quot;2&lt;é&gt;&amp;", with: "r2")
            .write(to: scxml, atomically: true, encoding: .utf8)
        let page = dir.appendingPathComponent("page.html")
        func run(_ layout: String?, path: String? = nil) throws -> (status: Int32, stderr: String, html: String) {
            try? FileManager.default.removeItem(at: page)
            var arguments = ["run", scxml.path, "go", "--html", page.path]
            if let layout { arguments += ["--layout", layout] }
            let r = try Self.runBinary(arguments, path: path)
            return (r.status, r.stderr, (try? String(contentsOf: page, encoding: .utf8)) ?? "")
        }
        let boxes = try run("boxes")
        #expect(boxes.status == 0)
        #expect(boxes.html.contains("class=\"statechart\""))
        #expect(Set(Self.arrows(in: boxes.html).filter { $0.classes == ["transition"] }.map(\.arrow)) == Self.expectedCommandLineArrows)
        // Without dot on PATH: auto falls back to the boxes, graphviz fails.
        let noDot = try run(nil, path: "/nonexistent")
        #expect(noDot.status == 0)
        #expect(noDot.html.contains("class=\"statechart\""))
        let required = try run("graphviz", path: "/nonexistent")
        #expect(required.status == 1)
        #expect(required.stderr.contains("--layout graphviz needs Graphviz's dot on PATH"))
        let bad = try run("circles")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--layout must be auto, graphviz or boxes"))
        if Graphviz.executable != nil {
            for layout in [nil, "graphviz"] {
                let laidOut = try run(layout)
                #expect(laidOut.status == 0, "\(laidOut.stderr)")
                #expect(laidOut.html.contains("class=\"statechart graphviz\""))
                #expect(Set(Self.arrows(in: laidOut.html).filter { $0.classes == ["transition"] }.map(\.arrow)) == Self.expectedCommandLineArrows)
            }
        }
    }

    @Test("in CI, Graphviz and Chromium are installed (Scripts/install-test-tools.sh), so no page test is skipped")
    func toolsInstalled() {
        let missing = (Graphviz.executable == nil ? ["graphviz (dot)"] : []) + (Browser.executable == nil ? ["chromium"] : [])
        guard !missing.isEmpty else { return }
        let message = "MISSING TEST TOOLS: \(missing.joined(separator: ", ")): the run page's Graphviz and browser tests are skipped"
        if ProcessInfo.processInfo.environment["CI"].map({ !$0.isEmpty }) == true {
            Issue.record("\(message); CI installs them with Scripts/install-test-tools.sh")
        } else {
            FileHandle.standardError.write(Data(("warning: " + message + "\n").utf8))
        }
    }

    // MARK: - Helpers

    struct Arrow: Hashable, CustomStringConvertible {
        var source: String
        var target: String
        var label: String
        var description: String { "\(source) -[\(label)]-> \(target)" }
    }

    struct DrawnArrow {
        var arrow: Arrow
        var classes: [String]
        var hasPath: Bool
        var transitionKey: String?
    }

    /// The arrow groups of a page (`<g class="transition…|initial" data-source data-target>`),
    /// each with the text of its `class="event"` label and whether it has a `class="arrow"` line.
    static func arrows(in markup: String) -> [DrawnArrow] {
        var result: [DrawnArrow] = []
        var rest = markup[...]
        while let open = rest.range(of: "<g ") {
            guard let tagEnd = rest[open.upperBound...].firstIndex(of: ">"),
                let close = rest[tagEnd...].range(of: "</g>")
            else { break }
            let tag = String(rest[open.upperBound..<tagEnd])
            let content = rest[tagEnd..<close.lowerBound]
            rest = rest[rest.index(after: tagEnd)...]
            func attribute(_ name: String) -> String? {
                guard let start = tag.range(of: " " + name + "=\"") ?? (tag.hasPrefix(name + "=\"") ? tag.range(of: name + "=\"") : nil),
                    let end = tag[start.upperBound...].firstIndex(of: "\"")
                else { return nil }
                return RunPageTests.decode(String(tag[start.upperBound..<end]))
            }
            let classes = (attribute("class") ?? "").split(separator: " ").map(String.init)
            guard classes.contains("transition") || classes.contains("initial"),
                let source = attribute("data-source"), let target = attribute("data-target")
            else { continue }
            var label = ""
            if let event = content.range(of: "class=\"event\""), let textStart = content[event.upperBound...].firstIndex(of: ">"),
                let textEnd = content.range(of: "</text>", range: textStart..<content.endIndex)
            {
                label = RunPageTests.decode(String(content[content.index(after: textStart)..<textEnd.lowerBound]))
            }
            result.append(
                DrawnArrow(
                    arrow: Arrow(source: source, target: target, label: label), classes: classes,
                    hasPath: content.contains("class=\"arrow\""), transitionKey: attribute("data-transition")))
        }
        return result
    }

    static func runBinary(_ arguments: [String], path: String?) throws -> (status: Int32, stderr: String) {
        let binary = try #require(CommandLineTests.binary, "the statechart binary was not built next to the tests")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let path {
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = path
            process.environment = environment
        }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }
}

/// Graphviz's `dot`, when installed.
enum Graphviz {
    static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = String(dir) + "/dot"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// `dot -Tsvg` on a DOT text.
    static func run(_ dot: String, _ input: String) throws -> String {
        let dir = try RunPageTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("chart.dot")
        let output = dir.appendingPathComponent("chart.svg")
        try input.write(to: source, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dot)
        process.arguments = ["-Tsvg", "-o", output.path, source.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try String(contentsOf: output, encoding: .utf8)
    }
}
