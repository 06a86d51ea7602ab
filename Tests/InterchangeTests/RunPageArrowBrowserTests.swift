import Foundation
import Statechart
import Testing

@testable import StatechartInterchange

/// The run page's arrows in headless Chromium (issue 13 §8): the diagram drawn onto a canvas and
/// its pixels read along every arrow, at its head and under its label; the arrows each step took.
extension RunPageArrowTests {
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
}
