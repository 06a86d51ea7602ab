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
        try RunPageTests.source.write(to: scxml, atomically: true, encoding: .utf8)
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
        #expect(Set(Self.arrows(in: boxes.html).filter { $0.classes == ["transition"] }.map(\.arrow)) == Self.expectedArrows)
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
                #expect(Set(Self.arrows(in: laidOut.html).filter { $0.classes == ["transition"] }.map(\.arrow)) == Self.expectedArrows)
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

    // MARK: - Browser

    @Test(
        "in headless Chromium, every arrow of the page's own layout is inked with its head and label, labels on top and apart",
        .enabled(if: Browser.executable != nil, "no chromium or chromium-browser on PATH: browser test skipped"))
    func ownLayoutInBrowser() throws {
        try Self.checkInBrowser(try Self.page(graphviz: false), minimumLength: 20)
    }

    @Test(
        "in headless Chromium, every arrow of the Graphviz layout is inked with its head and label, labels on top and apart",
        .enabled(if: Browser.executable != nil && Graphviz.executable != nil, "chromium or dot missing: browser test skipped"))
    func graphvizLayoutInBrowser() throws {
        try Self.checkInBrowser(try Self.page(graphviz: true), minimumLength: 1)
    }

    /// The arrows each step of ``RunPageTests/steps(_:)`` takes.
    static let takenArrows: [Set<Arrow>] = [
        [],
        [Arrow(source: "idle", target: "work", label: "go")],
        [Arrow(source: "l1", target: "l2", label: "next"), Arrow(source: "r1", target: RunPageTests.oddID, label: "bump")],
        [Arrow(source: "work", target: "end", label: "finish")],
    ]

    @Test("each step embeds the transitions it took, by the data-transition keys of their arrows")
    func takenInJSON() throws {
        let chart = try RunPageTests.chart()
        let steps = try RunPageTests.steps(chart)
        let html = RunPage.html(chart: chart, steps: steps)
        let json = try #require(RunPageTests.embeddedJSON(html))
        struct Data: Decodable {
            struct Step: Decodable { var taken: [String] }
            var steps: [Step]
        }
        let decoded = try JSONDecoder().decode(Data.self, from: Foundation.Data(json.utf8))
        let byKey = Dictionary(grouping: Self.arrows(in: html).filter { $0.classes.contains("transition") }, by: { $0.transitionKey ?? "" })
        let taken = decoded.steps.map { step in Set(step.taken.flatMap { byKey[$0] ?? [] }.map(\.arrow)) }
        #expect(taken == Self.takenArrows)
    }

    @Test(
        "in headless Chromium, #step=K marks exactly the arrows step K took (both layouts)",
        .enabled(if: Browser.executable != nil, "no chromium or chromium-browser on PATH: browser test skipped"))
    func takenInBrowser() throws {
        let browser = try #require(Browser.executable)
        let dir = try RunPageTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for graphviz in Graphviz.executable == nil ? [false] : [false, true] {
            let page = dir.appendingPathComponent("page-\(graphviz).html")
            try Self.page(graphviz: graphviz).write(to: page, atomically: true, encoding: .utf8)
            for (k, expected) in Self.takenArrows.enumerated() {
                let dom = try Browser.dumpDOM(
                    browser, url: page.absoluteString + "#step=\(k)", profile: dir.appendingPathComponent("profile"))
                let taken = Self.arrows(in: dom).filter { $0.classes.contains("taken") }.map(\.arrow)
                #expect(Set(taken) == expected, "step \(k), graphviz: \(graphviz)")
                #expect(taken.count == expected.count, "step \(k), graphviz: \(graphviz)")
            }
        }
    }

    /// Loads the page with ``probe`` added, which draws the page's `<svg>` onto a canvas and reads
    /// its pixels along every arrow, at its head and under its label, and asks the browser which
    /// element is on top at the label's centre.
    static func checkInBrowser(_ html: String, minimumLength: Double) throws {
        let browser = try #require(Browser.executable)
        let dir = try RunPageTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("page.html")
        let probed = html.replacingOccurrences(of: "</body>", with: "<script>\n\(probe)</script>\n</body>")
        try probed.write(to: page, atomically: true, encoding: .utf8)
        let dom = try Browser.dumpDOM(
            browser, url: page.absoluteString, profile: dir.appendingPathComponent("profile"),
            extraArguments: ["--window-size=3000,3000", "--virtual-time-budget=5000"])
        guard let start = dom.range(of: "<pre id=\"arrow-probe\">"),
            let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
        else {
            Issue.record("the probe wrote no result: \(dom.suffix(500))")
            return
        }
        let json = RunPageTests.decode(String(dom[start.upperBound..<end.lowerBound]))
        let result = try JSONDecoder().decode(ProbeResult.self, from: Data(json.utf8))
        #expect(result.error == nil, "\(result.error ?? "")")
        let drawn = result.transitions ?? []
        #expect(drawn.count >= expectedArrows.count)
        for t in drawn {
            let name = "\(t.source) → \(t.target)"
            #expect(t.length >= minimumLength, "\(name) is \(t.length) long")
            #expect(t.line.filter { $0 }.count >= 3, "\(name): its line is not inked: \(t.line)")
            #expect(t.head > 0, "\(name): no arrowhead")
            if let label = t.label {
                #expect(label.width > 5 && label.height > 5, "\(name): label \(label.text) has no size")
                #expect(label.onTop, "\(name): label \(label.text) is covered")
                #expect(label.inked > 10, "\(name): label \(label.text) is not inked")
            }
        }
        let labelled = Set(drawn.compactMap { t in t.label.map { Arrow(source: t.source, target: t.target, label: $0.text) } })
        #expect(labelled.isSuperset(of: expectedArrows))
        let labels = drawn.compactMap(\.label)
        for i in labels.indices {
            for j in labels.indices where j > i {
                let (a, b) = (labels[i], labels[j])
                let dx = min(a.left + a.width, b.left + b.width) - max(a.left, b.left)
                let dy = min(a.top + a.height, b.top + b.height) - max(a.top, b.top)
                #expect(dx <= 1 || dy <= 1, "labels \(a.text) and \(b.text) overlap")
            }
        }
    }

    struct ProbeResult: Decodable {
        struct Label: Decodable {
            var text: String
            var left: Double
            var top: Double
            var width: Double
            var height: Double
            var onTop: Bool
            var inked: Int
        }
        struct Transition: Decodable {
            var source: String
            var target: String
            var length: Double
            var line: [Bool]
            var head: Int
            var label: Label?
        }
        var error: String?
        var transitions: [Transition]?
    }

    /// Draws the page's diagram onto a canvas (the `<svg>` as an image, as a screenshot would
    /// show it) and writes what it finds into `<pre id="arrow-probe">` as JSON.
    static let probe = """
        (function () {
          "use strict";
          function finish(result) {
            var out = document.createElement("pre");
            out.id = "arrow-probe";
            out.textContent = JSON.stringify(result);
            document.body.appendChild(out);
          }
          var svg = document.querySelector("svg.statechart");
          var box = svg.getBoundingClientRect();
          var groups = Array.prototype.slice.call(svg.querySelectorAll("g.transition"));
          var image = new Image();
          image.onload = function () {
            var canvas = document.createElement("canvas");
            canvas.width = Math.ceil(box.width);
            canvas.height = Math.ceil(box.height);
            var context = canvas.getContext("2d");
            context.fillStyle = "#ffffff";
            context.fillRect(0, 0, canvas.width, canvas.height);
            context.drawImage(image, 0, 0, box.width, box.height);
            var pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
            function inked(x0, y0, x1, y1) {
              var n = 0;
              for (var y = Math.max(0, Math.floor(y0)); y <= Math.min(canvas.height - 1, Math.ceil(y1)); y++) {
                for (var x = Math.max(0, Math.floor(x0)); x <= Math.min(canvas.width - 1, Math.ceil(x1)); x++) {
                  var i = (y * canvas.width + x) * 4;
                  if (pixels[i] < 170 && pixels[i + 1] < 170 && pixels[i + 2] < 170) { n++; }
                }
              }
              return n;
            }
            var transitions = groups.map(function (g) {
              var path = g.querySelector(".arrow");
              var matrix = path.getScreenCTM();
              var length = path.getTotalLength();
              function at(l) {
                var p = path.getPointAtLength(l).matrixTransform(matrix);
                return [p.x - box.left, p.y - box.top];
              }
              var line = [0.15, 0.3, 0.7, 0.85].map(function (f) {
                var p = at(length * f);
                return inked(p[0] - 1, p[1] - 1, p[0] + 1, p[1] + 1) > 0;
              });
              var tip = at(Math.max(0, length - 2));
              var text = g.querySelector(".event");
              var label = null;
              if (text) {
                var r = text.getBoundingClientRect();
                var hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                label = {
                  text: text.textContent, left: r.left, top: r.top, width: r.width, height: r.height,
                  onTop: hit !== null && g.contains(hit),
                  inked: inked(r.left - box.left, r.top - box.top, r.right - box.left, r.bottom - box.top)
                };
              }
              return {
                source: g.getAttribute("data-source"), target: g.getAttribute("data-target"), length: length,
                line: line, head: inked(tip[0] - 2, tip[1] - 2, tip[0] + 2, tip[1] + 2), label: label
              };
            });
            finish({ transitions: transitions });
          };
          image.onerror = function () { finish({ error: "the diagram did not load as an image" }); };
          image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(new XMLSerializer().serializeToString(svg));
        })();

        """

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
