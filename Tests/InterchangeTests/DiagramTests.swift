import Foundation
import Statechart
import StatechartInterchange
import Testing

// DOT and Mermaid diagrams (issue 7 §1): golden files for three charts, Graphviz parsing every
// DOT output, Mermaid identifiers, swift-state-kit's flat exports, and the `export` command.
//
// The golden files are Tests/InterchangeTests/Golden/*.dot and *.mmd, compared byte for byte.
// After a deliberate change of the output, rewrite them with
// `STATECHART_UPDATE_GOLDEN=1 swift test --filter DiagramTests` and review the diff.

// MARK: - The charts

/// The order chart with its payment child (the CLI's built-in example, without Swift guards).
enum DiagramOrder: Hashable, Sendable { case pending, confirmed, shipped, delivered, cancelled }
enum DiagramPayment: Hashable, Sendable { case authorizing, authorized, captured }
enum DiagramOrderEvent: Hashable, Sendable { case confirm, authorize, capture, deliver, cancel }

struct DiagramOrderData: Sendable {
    var paid = false
}

func diagramOrderMachine() -> Machine<DiagramOrder, DiagramOrderEvent, DiagramOrderData> {
    let payment = Machine<DiagramPayment, DiagramOrderEvent, DiagramOrderData>("payment", initial: .authorizing) {
        When(.authorizing) { On(.authorize, to: .authorized) }
        When(.authorized) { On(.capture, to: .captured) { $0.paid = true } }
        Final(.captured)
    }
    var order = Machine<DiagramOrder, DiagramOrderEvent, DiagramOrderData>("order", initial: .pending) {
        When(.pending) { On(.confirm, to: .confirmed) }
        When(.confirmed) { OnDone(to: .shipped) }
        When(.shipped) { On(.deliver, to: .delivered) }
        Final(.delivered)
        Final(.cancelled)
        AnyState { On(.cancel, to: .cancelled) }
    }
    order.attach(child: payment, to: .confirmed, history: .deep)
    return order
}

/// DDStateMachine's sync chart: a guard, actions, a targetless transition and an event with a payload.
enum DiagramSync: Hashable, Sendable { case notSynced, inProgress, synced, failed }
enum DiagramSyncEvent: Hashable, Sendable { case sync, result(Bool), cacheExpired }

struct DiagramSyncData: Sendable {
    var cacheValid = false
    var runs = 0
}

func diagramSyncMachine() -> Machine<DiagramSync, DiagramSyncEvent, DiagramSyncData> {
    Machine("sync", initial: .notSynced) {
        When(.notSynced) { On(.sync, to: .inProgress) }
        When(.inProgress) {
            OnEntry { $0.runs += 1 }
            On(.result(true), to: .synced) { $0.cacheValid = true }
            On(.result(false), to: .failed)
        }
        When(.synced) {
            On(.cacheExpired) { $0.cacheValid = false }
            On(.sync, to: .inProgress, guard: { !$0.cacheValid })
        }
        When(.failed) { On(.sync, to: .inProgress) }
    }
}

/// A media player: a parallel state (playback and volume) inside `on`, which `power` resumes
/// through its deep history; `play` while off resumes playback through its shallow history.
/// Also: an eventless transition with an `In` condition, an internal transition, a targetless
/// one, actions, and a final state. Docs/Diagrams/parallel-history.scxml is the same document.
let parallelHistorySCXML = """
    <?xml version="1.0" encoding="UTF-8"?>
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" name="player" initial="off">
      <state id="off">
        <transition event="power" target="on.resume"/>
        <transition event="play" target="playback.last"/>
        <transition event="eject" target="ejected"/>
      </state>
      <state id="on">
        <history id="on.resume" type="deep">
          <transition target="running"/>
        </history>
        <transition event="power" target="off"/>
        <parallel id="running">
          <state id="playback" initial="stopped">
            <history id="playback.last" type="shallow">
              <transition target="stopped"/>
            </history>
            <transition event="rewind" type="internal" target="stopped"/>
            <state id="stopped">
              <transition event="play" target="playing"/>
            </state>
            <state id="playing">
              <transition event="tick">
                <log label="position"/>
              </transition>
              <transition event="pause" target="paused"/>
              <transition event="stop" target="stopped">
                <raise event="stopped"/>
              </transition>
            </state>
            <state id="paused">
              <transition event="play" target="playing"/>
              <transition event="stop" target="stopped"/>
            </state>
          </state>
          <state id="volume" initial="normal">
            <state id="normal">
              <transition event="louder" target="loud"/>
              <transition event="mute" target="muted"/>
            </state>
            <state id="loud">
              <transition cond="In('paused')" target="normal"/>
              <transition event="quieter" target="normal"/>
            </state>
            <state id="muted">
              <transition event="mute" target="normal"/>
            </state>
          </state>
        </parallel>
      </state>
      <final id="ejected"/>
    </scxml>

    """

// MARK: - Support

enum Diagrams {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let golden = testsDirectory.appendingPathComponent("Golden")
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let dot = "/usr/bin/dot"
    static var hasGraphviz: Bool { FileManager.default.isExecutableFile(atPath: dot) }
    static var updatesGolden: Bool { ProcessInfo.processInfo.environment["STATECHART_UPDATE_GOLDEN"] == "1" }

    static func orderChart() throws -> Chart<DiagramOrderEvent, DiagramOrderData> {
        try TypedChart(diagramOrderMachine()).chart
    }

    static func syncChart() throws -> Chart<DiagramSyncEvent, DiagramSyncData> {
        try TypedChart(diagramSyncMachine()).chart
    }

    static func parallelHistoryChart() throws -> SCXMLChart {
        try SCXMLDocument.load(string: parallelHistorySCXML, name: "player")
    }

    /// Every diagram of the golden tests, by golden file name.
    static func all() throws -> [(name: String, text: String)] {
        let order = try orderChart()
        let sync = try syncChart()
        let player = try parallelHistoryChart()
        let awkward = try AwkwardNames.chart()
        return [
            ("order.dot", DOTExporter.export(order)), ("order.mmd", MermaidExporter.export(order)),
            ("sync.dot", DOTExporter.export(sync)), ("sync.mmd", MermaidExporter.export(sync)),
            ("parallel-history.dot", DOTExporter.export(player)),
            ("parallel-history.mmd", MermaidExporter.export(player)),
            ("awkward-names.dot", DOTExporter.export(awkward)), ("awkward-names.mmd", MermaidExporter.export(awkward)),
        ]
    }

    /// Compares `text` with the golden file byte for byte (or rewrites the file when asked to).
    static func expectGolden(_ text: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let url = golden.appendingPathComponent(name)
        if updatesGolden {
            try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return
        }
        let expected = try Data(contentsOf: url)
        let same = expected == Data(text.utf8)
        #expect(same, "\(name) differs from its golden file:\n\(text)", sourceLocation: sourceLocation)
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a program with `input` on standard input.
    static func run(_ program: String, _ arguments: [String], input: String = "") throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Write and read on separate threads so that neither pipe can fill up and block.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errorData = LockedData()
        let errorReader = Thread { errorData.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { Thread.sleep(forTimeInterval: 0.01) }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errorData.value, as: UTF8.self))
    }

    final class LockedData: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data?
        func set(_ d: Data) { lock.withLock { data = d } }
        var isSet: Bool { lock.withLock { data != nil } }
        var value: Data { lock.withLock { data ?? Data() } }
    }

    /// `dot -Tsvg` on a DOT text: the SVG, or the reason Graphviz refused it (warnings included).
    static func svg(_ dotText: String) throws -> Result {
        try run(dot, ["-Tsvg"], input: dotText)
    }
}

// MARK: - Tests

@Suite("Diagrams: DOT and Mermaid")
struct DiagramTests {
    @Test("the order chart with its payment child matches its golden files")
    func orderGolden() throws {
        let chart = try Diagrams.orderChart()
        try Diagrams.expectGolden(DOTExporter.export(chart), "order.dot")
        try Diagrams.expectGolden(MermaidExporter.export(chart), "order.mmd")
    }

    @Test("the sync chart matches its golden files")
    func syncGolden() throws {
        let chart = try Diagrams.syncChart()
        try Diagrams.expectGolden(DOTExporter.export(chart), "sync.dot")
        try Diagrams.expectGolden(MermaidExporter.export(chart), "sync.mmd")
    }

    @Test("the parallel chart with shallow and deep history matches its golden files")
    func parallelHistoryGolden() throws {
        let chart = try Diagrams.parallelHistoryChart()
        try Diagrams.expectGolden(DOTExporter.export(chart), "parallel-history.dot")
        try Diagrams.expectGolden(MermaidExporter.export(chart), "parallel-history.mmd")
    }

    @Test("a chart whose names are awkward for DOT and Mermaid matches its golden files")
    func awkwardNamesGolden() throws {
        let chart = try AwkwardNames.chart()
        try Diagrams.expectGolden(DOTExporter.export(chart), "awkward-names.dot")
        try Diagrams.expectGolden(MermaidExporter.export(chart), "awkward-names.mmd")
    }

    @Test("the same chart gives the same bytes; the typed conveniences draw the machine's chart")
    func deterministic() throws {
        for _ in 0..<3 {
            #expect(try DOTExporter.export(Diagrams.orderChart()) == DOTExporter.export(Diagrams.orderChart()))
            #expect(try MermaidExporter.export(Diagrams.parallelHistoryChart()) == MermaidExporter.export(Diagrams.parallelHistoryChart()))
        }
        #expect(try DOTExporter.export(diagramOrderMachine()) == DOTExporter.export(Diagrams.orderChart()))
        #expect(try MermaidExporter.export(diagramSyncMachine()) == MermaidExporter.export(Diagrams.syncChart()))
    }

    @Test("the DOT output draws the structure: clusters, regions, markers, history, finals, labels")
    func dotStructure() throws {
        let order = DOTExporter.export(try Diagrams.orderChart())
        #expect(order.contains("subgraph \"cluster_2\" {\n        label=\"confirmed\";"))
        #expect(order.contains("\"confirmed.history\" [label=\"H*\", shape=circle, width=0.3];"))
        #expect(order.contains("\"confirmed.captured\" [label=\"captured\", shape=doublecircle];"))
        #expect(order.contains("\"pending\" -> \"__start.confirmed\" [label=\"confirm\", lhead=\"cluster_2\"];"))
        // Leaving a cluster forwards starts from its last node, so the target is ranked after it.
        #expect(order.contains("\"confirmed.captured\" -> \"shipped\" [label=\"done.state.confirmed\", ltail=\"cluster_2\"];"))
        #expect(order.contains("\"*\" -> \"cancelled\" [label=\"cancel\"];"))
        #expect(order.contains("\"confirmed.authorized\" -> \"confirmed.captured\" [label=\"capture / action\"];"))

        let sync = DOTExporter.export(try Diagrams.syncChart())
        #expect(sync.contains("\"synced\" -> \"inProgress\" [label=\"sync [guard]\"];"))
        #expect(sync.contains("<hr/>"), "a targetless transition is listed inside its state")
        #expect(sync.contains("cacheExpired / action"))

        let player = DOTExporter.export(try Diagrams.parallelHistoryChart())
        #expect(player.contains("style=\"rounded,dashed\";"), "regions are dashed clusters")
        #expect(player.contains("[label=\"H\", shape=circle, width=0.3]"))
        #expect(player.contains("\"loud\" -> \"normal\" [label=\"always [In(paused)]\"];"))
        #expect(player.contains("[label=\"rewind\", style=dashed];"), "an internal transition is dashed")
        #expect(player.contains("\"playing\" -> \"stopped\" [label=\"stop / raise stopped\"];"))
        #expect(player.contains("tick / log position"))
        #expect(player.contains("\"ejected\" [shape=doublecircle];"))
    }

    @Test("the Mermaid output nests composite states, separates regions with --, and marks start, end and history")
    func mermaidStructure() throws {
        let order = MermaidExporter.export(try Diagrams.orderChart())
        #expect(order.hasPrefix("stateDiagram-v2\n"))
        #expect(order.contains("    state \"confirmed\" as confirmed {\n        [*] --> s6\n        state \"authorizing\" as s3\n"))
        #expect(order.contains("        state \"captured\" as s5\n        s5 --> [*]\n        state \"H*\" as s6\n"))
        #expect(order.contains("    [*] --> pending\n"))
        #expect(order.contains("    pending --> confirmed : confirm\n"))
        #expect(order.contains("    s0 --> cancelled : cancel\n"))

        let player = MermaidExporter.export(try Diagrams.parallelHistoryChart())
        #expect(player.contains("\n            --\n"))
        #expect(player.contains("state \"H\" as s"))
        #expect(player.contains("loud --> normal : always [In(paused)]"))
        #expect(player.contains(" : rewind (internal)"))
        #expect(player.contains("    ejected --> [*]\n"))
    }

    @Test(
        "every DOT output is accepted by Graphviz without a warning",
        .enabled(if: Diagrams.hasGraphviz, "Graphviz is not installed (/usr/bin/dot): apt-get install graphviz"))
    func graphvizParsesEveryOutput() throws {
        var outputs = try Diagrams.all().filter { $0.name.hasSuffix(".dot") }
        outputs.append(("flat", DOTExporter.export(try TypedChart(FlatMachine.machine()).chart)))
        var running = try StateMachine(diagramOrderMachine(), context: DiagramOrderData())
        try running.send(.confirm)
        outputs.append(("running order", DOTExporter.export(running)))
        for (name, text) in outputs {
            let r = try Diagrams.svg(text)
            #expect(r.status == 0, "dot refused \(name): \(r.stderr)")
            #expect(r.stderr.isEmpty, "dot warned about \(name): \(r.stderr)")
            #expect(r.stdout.contains("<svg"), "no SVG for \(name)")
        }
    }

    @Test("Mermaid identifiers: any state name becomes a plain identifier with its name as label")
    func mermaidIdentifiers() throws {
        let chart = try AwkwardNames.chart()
        let text = MermaidExporter.export(chart)
        var declared: [String: String] = [:]
        for raw in text.split(separator: "\n").dropFirst() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            var identifiers: [Substring] = []
            if line == "--" || line == "}" { continue }
            if line.hasPrefix("state \"") {
                // state "label" as id, optionally followed by {
                let afterQuote = line.dropFirst("state \"".count)
                let close = try #require(afterQuote.firstIndex(of: "\""), "unterminated label: \(line)")
                let label = afterQuote[..<close]
                var rest = afterQuote[afterQuote.index(after: close)...]
                #expect(rest.hasPrefix(" as "), "\(line)")
                rest = rest.dropFirst(4)
                if rest.hasSuffix(" {") { rest = rest.dropLast(2) }
                identifiers.append(rest)
                declared[String(rest)] = String(label)
                Self.expectSafeLabel(label, line: line)
            } else if let arrow = line.range(of: " --> ") {
                identifiers.append(line[..<arrow.lowerBound])
                var rest = line[arrow.upperBound...]
                if let colon = rest.range(of: " : ") {
                    Self.expectSafeLabel(rest[colon.upperBound...], line: line)
                    rest = rest[..<colon.lowerBound]
                }
                identifiers.append(rest)
            } else if let colon = line.range(of: " : ") {
                identifiers.append(line[..<colon.lowerBound])
                Self.expectSafeLabel(line[colon.upperBound...], line: line)
            } else {
                Issue.record("unexpected line: \(line)")
            }
            for id in identifiers where id != "[*]" {
                #expect(isSafeMermaidIdentifier(String(id)), "identifier \(id) in: \(line)")
            }
        }
        // Every awkward name is still shown, as the label of a generated alias.
        for name in AwkwardNames.names where !isSafeMermaidIdentifier(name) {
            #expect(!declared.keys.contains(name), "\(name) used as an identifier")
        }
        let labels = Set(declared.values)
        for expected in [
            "needs work", "order.v2", "Zürich", "say #34;hi#34;", "a#58; b#59; c #35;1", "back#92;", "state", "s12",
            "direction#32;LR", "end", "default_x", "#45; list", "x#123;y#125;", "line break",
        ] {
            #expect(labels.contains(expected), "no state labelled \(expected)")
        }
        #expect(text.contains(" : go#58; now\n"))
        #expect(text.contains(" : #60;b#62;#42;bold#42;#60;/b#62; #37; #37;#37; #124; #96;x#96;\n"))
        #expect(text.contains(" : set direction#32;LR\n"))
        #expect(text.contains(" : 1#46; first\n"))
        #expect(text.contains(" : #35;include #60;x#62;\n"))
    }

    private static func expectSafeLabel(_ label: Substring, line: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let withoutCodes = label.replacing(/#[0-9]+;/, with: "")
        for forbidden in ["\"", ":", ";", "#", "%", "<", ">", "{", "}", "`", "$"] {
            #expect(!withoutCodes.contains(forbidden), "\(forbidden) in a label: \(line)", sourceLocation: sourceLocation)
        }
        // Every # starts an entity code: #digits; or #name;
        var rest = label[...]
        while let hash = rest.firstIndex(of: "#") {
            let after = rest[rest.index(after: hash)...]
            let code = after.prefix { $0.isNumber }
            #expect(!code.isEmpty && after.dropFirst(code.count).first == ";", "a bare # in: \(line)", sourceLocation: sourceLocation)
            rest = after
        }
        #expect(label.range(of: "direction ", options: .caseInsensitive) == nil, "\(line)", sourceLocation: sourceLocation)
    }

    @Test("a flat chart exports like swift-state-kit's exportDOT() and exportMermaid()")
    func flatMigration() throws {
        // swift-state-kit:
        //   StateMachine(initial: .idle, transitions: [Transition(from: .idle, on: .start, to: .loading),
        //                                             Transition(from: .loading, on: .succeed, to: .loaded)])
        let chart = try TypedChart(FlatMachine.machine()).chart
        let dot = DOTExporter.export(chart)
        #expect(dot.contains("digraph \"flat\""))
        #expect(dot.contains("rankdir=LR;"))
        #expect(dot.contains("\"__start\" [shape=point, width=0.15];"))
        #expect(dot.contains("\"__start\" -> \"idle\";"))
        #expect(dot.contains("\"idle\" -> \"loading\" [label=\"start\"];"))
        #expect(dot.contains("\"loading\" -> \"loaded\" [label=\"succeed\"];"))
        #expect(dot.contains("\"*\" -> \"idle\" [label=\"reset\"];"), "a wildcard leaves the * node")
        #expect(!dot.contains("subgraph"))

        let mermaid = MermaidExporter.export(chart)
        #expect(mermaid.contains("stateDiagram-v2"))
        #expect(mermaid.contains("state \"idle\" as idle"))
        #expect(mermaid.contains("state \"loading\" as loading"))
        #expect(mermaid.contains("[*] --> idle"))
        #expect(mermaid.contains("idle --> loading : start"))
        #expect(mermaid.contains("loading --> loaded : succeed"))
        #expect(mermaid.contains("state \"any state\" as s0"))
        #expect(mermaid.contains("s0 --> idle : reset"))
        #expect(mermaid.components(separatedBy: "[*]").count - 1 == 1, "[*] appears once: the start")
        #expect(!mermaid.contains("{"))
    }

    @Test("a running machine's diagrams highlight its active states")
    func highlightsActiveStates() throws {
        var machine = try StateMachine(diagramOrderMachine(), context: DiagramOrderData())
        try machine.send(.confirm)
        let dot = DOTExporter.export(machine)
        #expect(dot.contains("\"confirmed.authorizing\" [label=\"authorizing\", style=\"rounded,bold\", color=blue];"))
        let mermaid = MermaidExporter.export(machine)
        #expect(mermaid.hasSuffix("    classDef active font-weight:bold,stroke-width:3px,stroke:blue\n    class s3 active\n"))
    }

    @Test("statechart export --format dot|mermaid writes the diagrams; an unknown format is a usage error")
    func exportCommand() throws {
        let binary = try #require(CommandLineTests.binary, "the statechart binary was not built next to the tests")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("statechart-diagrams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("player.scxml")
        try parallelHistorySCXML.write(to: file, atomically: true, encoding: .utf8)
        let chart = try SCXMLDocument.load(contentsOf: file)

        let dot = try Diagrams.run(binary.path, ["export", file.path, "--format", "dot"])
        #expect(dot.status == 0)
        #expect(dot.stdout == DOTExporter.export(chart))
        let mermaid = try Diagrams.run(binary.path, ["export", file.path, "--format", "mermaid"])
        #expect(mermaid.status == 0)
        #expect(mermaid.stdout == MermaidExporter.export(chart))
        let scxml = try Diagrams.run(binary.path, ["export", file.path])
        #expect(scxml.status == 0)
        #expect(scxml.stdout == SCXMLExporter.export(chart))
        let unknown = try Diagrams.run(binary.path, ["export", file.path, "--format", "png"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("available: scxml, dot, mermaid"))
    }

    @Test("Docs/Diagrams: parallel-history.scxml is the golden chart; each .mmd and Diagrams.md's block are current")
    func docsAreCurrent() throws {
        let docs = Diagrams.packageRoot.appendingPathComponent("Docs/Diagrams")
        let player = try SCXMLDocument.load(contentsOf: docs.appendingPathComponent("parallel-history.scxml"))
        #expect(DOTExporter.export(player) == DOTExporter.export(try Diagrams.parallelHistoryChart()))
        for name in ["order", "sync", "parallel-history"] {
            let chart = try SCXMLDocument.load(contentsOf: docs.appendingPathComponent(name + ".scxml"))
            let committed = try String(contentsOf: docs.appendingPathComponent(name + ".mmd"), encoding: .utf8)
            #expect(committed == MermaidExporter.export(chart), "Docs/Diagrams/\(name).mmd is stale: Scripts/render-diagrams.sh")
            #expect(FileManager.default.fileExists(atPath: docs.appendingPathComponent(name + ".svg").path))
        }
        let page = try String(contentsOf: Diagrams.packageRoot.appendingPathComponent("Docs/Diagrams.md"), encoding: .utf8)
        let order = try String(contentsOf: docs.appendingPathComponent("order.mmd"), encoding: .utf8)
        #expect(page.contains("```mermaid\n" + order + "```\n"), "Docs/Diagrams.md's Mermaid block is not Docs/Diagrams/order.mmd")
    }

    @Test("an initial transition to a deeper state, and arrows between regions and levels")
    func crossLevelArrows() throws {
        let chart = try SCXMLDocument.load(
            string: """
                <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="p">
                  <state id="p" initial="c2">
                    <state id="c">
                      <state id="c1"><transition event="up" target="p"/></state>
                      <state id="c2"><transition event="over" target="r2"/></state>
                    </state>
                    <parallel id="q">
                      <state id="r1"><transition event="across" target="r2"/></state>
                      <state id="r2"/>
                    </parallel>
                    <transition event="again" target="p"/>
                    <transition event="in" target="c1"/>
                  </state>
                </scxml>
                """)
        let mermaid = MermaidExporter.export(chart)
        // Inside p, [*] can only reach a child of p: c, labelled with the real target.
        #expect(mermaid.contains("    state \"p\" as p {\n        [*] --> c : to c2\n"))
        // Arrows Mermaid cannot declare inside a block are declared at the top level.
        #expect(mermaid.contains("\n    c1 --> p : up\n"))
        #expect(mermaid.contains("\n    c2 --> r2 : over\n"))
        #expect(mermaid.contains("\n    r1 --> r2 : across\n"))
        #expect(mermaid.contains("\n    p --> p : again\n"))
        #expect(mermaid.contains("\n    p --> c1 : in\n"))
        let dot = DOTExporter.export(chart)
        #expect(dot.contains("\"__start.p\" -> \"c2\";"))
        #expect(dot.contains("\"c1\" -> \"__start.p\" [label=\"up\"];"), "an arrow to an ancestor ends at its marker")
        #expect(dot.contains("\"__start.p\" -> \"c1\" [label=\"in\"];"), "an arrow into the source's own subtree")
        #expect(dot.contains("\"r1\" -> \"r2\" [label=\"across\"];"))
        if Diagrams.hasGraphviz {
            let r = try Diagrams.svg(dot)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        }
    }
}

// MARK: - More charts

/// swift-state-kit's export test machine, with a wildcard (`Transition(fromAny: .reset, to: .idle)`).
enum FlatMachine {
    enum State: Hashable, Sendable { case idle, loading, loaded }
    enum Event: Hashable, Sendable { case start, succeed, reset }

    static func machine() -> Machine<State, Event, Void> {
        Machine("flat", initial: .idle) {
            When(.idle) { On(.start, to: .loading) }
            When(.loading) { On(.succeed, to: .loaded) }
            When(.loaded)
            AnyState { On(.reset, to: .idle) }
        }
    }
}

/// A chart whose state names are everything a diagram language can choke on.
enum AwkwardNames {
    static let names = [
        "needs work", "plain", "order.v2", "Zürich", "say \"hi\"", "a: b; c #1", "back\\", "state", "s12",
        "direction LR", "end", "default_x", "- list", "x{y}", "line\nbreak",
    ]

    static func chart() throws -> Chart<String, Void> {
        let machine = Machine<String, String, Void>("awkward \"names\"", initial: names[0]) {
            When(names[0]) {
                On("go: now", to: names[2])
                On("stay", to: names[1])
            }
            When(names[1]) { On("<b>*bold*</b> % %% | `x`", to: names[3]) }
            When(names[2]) { On("next", to: names[4]) }
            When(names[3]) { On("next", to: names[5]) }
            When(names[4]) { On("next", to: names[6]) }
            When(names[5]) { On("next", to: names[7]) }
            When(names[6]) { On("next", to: names[8]) }
            When(names[7]) { On("set direction LR", to: names[9]) }
            When(names[8]) { On("next", to: names[10]) }
            When(names[9]) { On("next", to: names[11]) }
            When(names[10]) { On("next", to: names[12]) }
            When(names[11]) { On("1. first", to: names[13]) }
            When(names[12]) { On("next", to: names[14]) }
            When(names[13]) { On("#include <x>", to: names[0]) }
            Final(names[14])
        }
        return try TypedChart(machine).chart
    }
}

/// Whether a Mermaid identifier is safe: ASCII letters, digits and `_`, starting with a letter,
/// and not a keyword of the `stateDiagram` lexer (checked independently of the exporter's rule).
func isSafeMermaidIdentifier(_ id: String) -> Bool {
    let scalars = Array(id.unicodeScalars)
    guard let first = scalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
    let lower = id.lowercased()
    return scalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
        && !["state", "note", "class", "classdef", "end", "root", "as", "direction", "style", "scale"].contains(lower)
        && !lower.hasPrefix("default")
}
