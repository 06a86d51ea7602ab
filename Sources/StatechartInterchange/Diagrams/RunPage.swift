import Statechart

/// A self-contained HTML page that replays a run of a chart: the chart drawn as inline SVG
/// with its transitions as labelled arrows and the active states highlighted (by
/// ``SVGDiagram``'s own layout, or laid out by Graphviz with ``html(chart:steps:title:graphvizSVG:)``), the list of steps with what the
/// interpreter did in each (from its trace), and buttons and the ← and → keys to step back and
/// forth. The page needs no network: its style sheet and script are inline and it uses the
/// browser's default fonts.
///
/// The page opens at the step named by a `#step=K` fragment (0 is the first step), else at the
/// first step, and keeps the fragment up to date as the reader steps. The run is embedded as
/// JSON in a `<script type="application/json" id="run-data">` element:
/// `{"chart": NAME, "steps": [{"label": …, "note": … or null, "trace": [LINE…], "active": [ID…],
/// "taken": [KEY…]}…]}`, where `taken` lists the `data-transition` keys of the transitions the
/// step took: the page marks their arrows with the class `taken`.
///
/// ```swift
/// var instance = ChartInstance(chart: chart, context: SCXMLContext())
/// instance.isTracing = true
/// try instance.start()
/// var steps = [RunPage.Step(label: "start", instance: instance)]
/// instance.trace.removeAll()
/// _ = try instance.send("go")
/// steps.append(RunPage.Step(label: "go", instance: instance))
/// let html = RunPage.html(chart: chart, steps: steps)
/// ```
///
/// The output is deterministic and plain ASCII: every id, label and trace line is escaped.
public enum RunPage {
    /// One step of a run: what happened and which states were active afterwards.
    public struct Step: Hashable, Sendable {
        /// What caused the step: `start`, an event name, a delay such as `+500ms`.
        public var label: String
        /// What the interpreter did, in order (exits, transition actions, entries, raised events…).
        public var trace: [TraceStep]
        /// The ids of the states active after the step, ancestors included, in document order.
        public var activeStates: [String]
        /// A remark shown beside the label (for example `no transition`), if any.
        public var note: String?

        /// A step from its parts.
        public init(label: String, trace: [TraceStep], activeStates: [String], note: String? = nil) {
            self.label = label
            self.trace = trace
            self.activeStates = activeStates
            self.note = note
        }

        /// A step read from an instance after it ran: its recorded ``ChartInstance/trace`` (the
        /// caller clears it between steps) and its active states with their ancestors. When the
        /// machine halted in a top-level final state, that state is the active one.
        public init<Event, Context>(
            label: String, instance: ChartInstance<Event, Context>, note: String? = nil
        ) {
            let chart = instance.chart
            var active = instance.activeStates.map { chart.id(of: $0) }
            if !instance.isRunning, let final = instance.finalState {
                var ids: [String] = []
                var s: ChartStateID? = final
                while let state = s, state != chart.root {
                    ids.append(chart.id(of: state))
                    s = chart.parent(of: state)
                }
                active = ids.reversed()
            }
            self.init(label: label, trace: instance.trace, activeStates: active, note: note)
        }
    }

    /// The page, a complete HTML document ending with a newline.
    ///
    /// - Parameters:
    ///   - chart: The chart that ran.
    ///   - steps: The steps of the run, in order; the first is usually `start`.
    ///   - title: The page's title; the chart's name when `nil`.
    public static func html<Event, Context>(
        chart: Chart<Event, Context>, steps: [Step], title: String? = nil
    ) -> String {
        page(chart: chart, steps: steps, title: title, diagram: SVGDiagram.svg(chart, active: Set(steps.first?.activeStates ?? [])))
    }

    /// The page with the chart laid out by Graphviz: `graphvizSVG` is what `dot -Tsvg` made of
    /// ``SVGDiagram/graphvizInput(_:)`` (see ``SVGDiagram/graphviz(_:svg:active:)``). The page's
    /// highlighting and stepping work as on the page of ``html(chart:steps:title:)``.
    ///
    /// - Throws: ``GraphvizOutputError`` when `graphvizSVG` is not `dot`'s drawing of this chart.
    public static func html<Event, Context>(
        chart: Chart<Event, Context>, steps: [Step], title: String? = nil, graphvizSVG: String
    ) throws(GraphvizOutputError) -> String {
        let first = Set(steps.first?.activeStates ?? [])
        let diagram = try SVGDiagram.graphviz(chart, svg: graphvizSVG, active: first)
        return page(chart: chart, steps: steps, title: title, diagram: diagram)
    }

    private static func page<Event, Context>(
        chart: Chart<Event, Context>, steps: [Step], title: String?, diagram: String
    ) -> String {
        let e = SVGDiagram.escape
        let pageTitle = title ?? (chart.name.isEmpty ? "statechart run" : chart.name)
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>\(e(pageTitle))</title>\n<style>\n\(style)</style>\n</head>\n"
        out += "<body data-step=\"0\">\n<header>\n<h1>\(e(pageTitle))</h1>\n<nav>"
        out += "<button type=\"button\" id=\"prev\" title=\"Previous step (&#x2190;)\">&#x2190; Back</button> "
        out += "<span id=\"position\">Step 1 of \(steps.count)</span> "
        out += "<button type=\"button\" id=\"next\" title=\"Next step (&#x2192;)\">Forward &#x2192;</button>"
        out += "</nav>\n<p class=\"hint\">Keys: &#x2190; and &#x2192; step back and forth.</p>\n</header>\n"
        out += "<main>\n<section class=\"diagram\">\n"
        out += diagram
        out += "</section>\n<section class=\"run\">\n<ol id=\"steps\">\n"
        for (k, step) in steps.enumerated() {
            out += "<li id=\"step-\(k)\" data-step=\"\(k)\" class=\"step\(k == 0 ? " current" : "")\">"
            out += "<button type=\"button\" class=\"step-label\">\(e(step.label))</button>"
            if let note = step.note { out += " <span class=\"note\">(\(e(note)))</span>" }
            out += "\n<ul class=\"trace\">"
            for (line, text) in zip(step.trace, TraceLines.lines(step.trace)) {
                out += "<li class=\"t-\(kind(line))\">\(e(text))</li>"
            }
            out += "</ul>\n<p class=\"active-list\">active: "
            out += step.activeStates.map { "<code>\(e($0))</code>" }.joined(separator: " ")
            out += "</p></li>\n"
        }
        out += "</ol>\n</section>\n</main>\n"
        let taken = steps.map { takenTransitions($0, chart: chart) }
        out += "<script type=\"application/json\" id=\"run-data\">" + json(chart: chart.name, steps: steps, taken: taken)
        out += "</script>\n"
        out += "<script>\n\(script)</script>\n</body>\n</html>\n"
        return out
    }

    /// The CSS class suffix of a trace line.
    static func kind(_ step: TraceStep) -> String {
        switch step {
        case .event: return "event"
        case .exited: return "exit"
        case .transition: return "transition"
        case .entered: return "enter"
        case .action: return "action"
        case .raised: return "raise"
        case .sent: return "send"
        case .dropped: return "drop"
        case .log: return "log"
        case .error: return "error"
        case .halted: return "halt"
        }
    }

    /// The `data-transition` keys (``DiagramChart/Arrow/transitionKey``) of the transitions a
    /// step took, from its trace's `transition` lines, in order and without repeats.
    static func takenTransitions<Event, Context>(_ step: Step, chart: Chart<Event, Context>) -> [String] {
        var keys: [String] = []
        for line in step.trace {
            guard case .transition(let source, let ordinal, _) = line, let s = chart.state(withID: source) else { continue }
            let key = "\(s.index)_\(ordinal)"
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The embedded run, as JSON safe inside a `<script>` element.
    static func json(chart: String, steps: [Step], taken: [[String]]) -> String {
        var out = "{\"chart\":" + jsonString(chart) + ",\"steps\":["
        for (k, step) in steps.enumerated() {
            if k > 0 { out += "," }
            out += "\n{\"label\":" + jsonString(step.label)
            out += ",\"note\":" + (step.note.map(jsonString) ?? "null")
            out += ",\"trace\":[" + TraceLines.lines(step.trace).map(jsonString).joined(separator: ",") + "]"
            out += ",\"active\":[" + step.activeStates.map(jsonString).joined(separator: ",") + "]"
            out += ",\"taken\":[" + taken[k].map(jsonString).joined(separator: ",") + "]}"
        }
        return out + "]}"
    }

    /// A JSON string literal in plain ASCII, with `<`, `>` and `&` escaped so that it cannot end
    /// the `<script>` element it sits in.
    static func jsonString(_ s: String) -> String {
        var out = "\""
        for unit in s.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x20..<0x7F where unit != 0x3C && unit != 0x3E && unit != 0x26:
                out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }

    static let style = """
        body { margin: 0; font-family: sans-serif; color: #1f2328; background: #f6f8fa; }
        header { padding: 10px 16px; background: #ffffff; border-bottom: 1px solid #d0d7de; }
        h1 { font-size: 18px; margin: 0 0 6px 0; }
        nav button { font-size: 14px; padding: 4px 10px; }
        #position { display: inline-block; min-width: 110px; text-align: center; }
        .hint { margin: 4px 0 0 0; font-size: 12px; color: #57606a; }
        main { display: flex; gap: 16px; padding: 16px; align-items: flex-start; }
        .diagram { flex: 0 1 auto; overflow: auto; background: #ffffff; border: 1px solid #d0d7de; padding: 8px; }
        .run { flex: 1 1 320px; min-width: 260px; }
        #steps { margin: 0; padding-left: 28px; }
        #steps > li { margin-bottom: 6px; padding: 4px 8px; border-left: 3px solid transparent; }
        #steps > li.current { background: #ffffff; border-left-color: #1d4ed8; }
        .step-label { font-family: monospace; font-size: 13px; cursor: pointer; }
        .note { color: #57606a; font-size: 12px; }
        .trace { margin: 4px 0; padding-left: 18px; font-family: monospace; font-size: 12px; }
        #steps > li:not(.current) .trace, #steps > li:not(.current) .active-list { display: none; }
        .t-exit { color: #9a3412; }
        .t-enter { color: #166534; }
        .t-transition, .t-event { color: #1e3a8a; }
        .t-raise, .t-send { color: #6b21a8; }
        .t-error { color: #b91c1c; font-weight: bold; }
        .active-list { margin: 2px 0; font-size: 12px; color: #57606a; }
        svg.statechart { display: block; max-width: 100%; height: auto; }
        svg.statechart g.state > .frame { transition: fill 0.15s, stroke 0.15s; }
        svg.statechart g.state.active > .frame { fill: #eff6ff; stroke: #1d4ed8; stroke-width: 2.5px; }
        svg.statechart g.state.atomic.active > .frame, svg.statechart g.state.final.active > .frame { fill: #bfdbfe; }
        svg.statechart g.state.active > .inner { stroke: #1d4ed8; }
        svg.statechart g.state.active > .label { fill: #1e3a8a; font-weight: bold; }
        svg.statechart g.transition.taken .arrow { stroke: #1d4ed8; stroke-width: 2.5px; }
        svg.statechart:not(.graphviz) g.transition.taken .arrow { marker-end: url(#statechart-arrowhead-taken); }
        svg.statechart g.transition.taken polygon { fill: #1d4ed8; stroke: #1d4ed8; }
        svg.statechart g.transition.taken .event { fill: #1d4ed8; font-weight: bold; }
        svg.statechart g.transition:hover .arrow { stroke: #1d4ed8; stroke-width: 2px; }
        svg.statechart g.transition:hover .event { fill: #1d4ed8; }

        """

    static let script = """
        (function () {
          "use strict";
          var data = JSON.parse(document.getElementById("run-data").textContent);
          var steps = data.steps;
          var groups = document.querySelectorAll("svg.statechart g[data-state]");
          var arrows = document.querySelectorAll("svg.statechart g[data-transition]");
          var items = document.querySelectorAll("#steps > li");
          var prev = document.getElementById("prev");
          var next = document.getElementById("next");
          var position = document.getElementById("position");
          var current = 0;
          function show(k, updateHash) {
            if (steps.length === 0) { return; }
            if (!(k >= 0)) { k = 0; }
            if (k > steps.length - 1) { k = steps.length - 1; }
            current = k;
            var active = new Set(steps[k].active);
            for (var i = 0; i < groups.length; i++) {
              groups[i].classList.toggle("active", active.has(groups[i].getAttribute("data-state")));
            }
            var taken = new Set(steps[k].taken || []);
            for (var t = 0; t < arrows.length; t++) {
              arrows[t].classList.toggle("taken", taken.has(arrows[t].getAttribute("data-transition")));
            }
            for (var j = 0; j < items.length; j++) { items[j].classList.toggle("current", j === k); }
            document.body.setAttribute("data-step", String(k));
            position.textContent = "Step " + (k + 1) + " of " + steps.length;
            prev.disabled = k === 0;
            next.disabled = k === steps.length - 1;
            if (updateHash) {
              try { history.replaceState(null, "", "#step=" + k); } catch (e) { location.hash = "step=" + k; }
            }
          }
          function fromHash() {
            var m = /^#step=(\\d+)$/.exec(location.hash);
            return m ? parseInt(m[1], 10) : 0;
          }
          prev.addEventListener("click", function () { show(current - 1, true); });
          next.addEventListener("click", function () { show(current + 1, true); });
          for (var j = 0; j < items.length; j++) {
            (function (k) {
              items[k].querySelector(".step-label").addEventListener("click", function () { show(k, true); });
            })(j);
          }
          document.addEventListener("keydown", function (event) {
            if (event.altKey || event.ctrlKey || event.metaKey) { return; }
            if (event.key === "ArrowLeft") { show(current - 1, true); event.preventDefault(); }
            if (event.key === "ArrowRight") { show(current + 1, true); event.preventDefault(); }
          });
          window.addEventListener("hashchange", function () { show(fromHash(), false); });
          show(fromHash(), false);
        })();

        """
}
