import Testing

@testable import Statechart

/// The typed emitter stamps a simple machine at each place it is attached (``LevelStamp``)
/// instead of walking its states again. These tests emit the same machines with stamping off —
/// every level through the per-state walk — and check that the stamp builds exactly the same
/// definition (nodes, transitions and their targets, actions, request routes, the typed tables)
/// and that machines compiled from both behave the same (rules R21, R65, R67).
@Suite("Level stamps")
struct LevelStampTests {
    enum Step: Hashable, Sendable { case idle, busy, done, ghost }
    enum Top: Hashable, Sendable { case a, b, c, d }
    enum Ev: Hashable, Sendable { case go, back, finish, jump }

    /// A log the actions write to, so that the two machines' runs can be compared.
    struct Log { var lines: [String] = [] }

    /// A child with entry and exit actions, a final state, a target mentioned only (`ghost`), an
    /// internal, a targetless and a done transition of its own: all of which a stamp keeps.
    static func stampable(_ tag: String) -> Machine<Step, Ev, Log> {
        Machine<Step, Ev, Log>(initial: .busy) {
            When(.idle) {
                OnEntry { $0.context.lines.append("\(tag) enter idle") }
                On(.go, to: .busy)
                On(.jump, to: .ghost)
                // Never taken (an atomic state has no done event), but its event names the place.
                OnDone(to: .busy)
            }
            When(.busy) {
                OnEntry { $0.context.lines.append("\(tag) enter busy") }
                OnExit { $0.context.lines.append("\(tag) exit busy") }
                On(.back, to: .idle, internal: true)
                On(.go) { $0.context.lines.append("\(tag) stay") }
                On(.finish, to: .done)
            }
            Final(.done)
        }
    }

    /// A child that cannot be stamped: an entry action that receives the neighbour state.
    static let walked = Machine<Step, Ev, Log>(initial: .idle) {
        When(.idle) {
            OnEntry { (previous: Step?, scope) in scope.context.lines.append("walked from \(String(describing: previous))") }
            On(.go, to: .busy)
        }
        When(.busy) { On(.back, to: .idle) }
    }

    static func machine() -> Machine<Top, Ev, Log> {
        let child = stampable("child")
        var top = Machine<Top, Ev, Log>("top", initial: .a) {
            When(.a) {
                On(.jump, to: .b)
                OnDone(to: .c)
            }
            When(.b) { On(.jump, to: .c) }
            When(.c) { On(.jump, to: .d) }
            Global(.d) { On(.jump, to: .a) }
        }
        top.attach(child: child, to: .a)
        top.attach(child: child, to: .b, history: .shallow)
        top.attach(child: stampable("left"), to: .c)
        top.attach(child: walked, to: .c)
        top.attach(child: child, to: .d, history: .deep)
        return top
    }

    @Test("a stamped level is the definition the per-state walk builds (R21, R65)")
    func sameDefinition() throws {
        let stamped = try TypedChartEmitter<Ev, Log>.emitting(Self.machine())
        let walked = try TypedChartEmitter<Ev, Log>.emitting(Self.machine(), stamps: false)
        #expect(Self.summary(of: stamped) == Self.summary(of: walked))
        // Three places stamped from one child, one from another, one walked.
        #expect(stamped.levels.count == 6)
        #expect(stamped.mentionedOnly == ["a.ghost", "b.ghost", "c.region1.ghost", "d.ghost"])
        // The stamped machine alone, at the top level (no prefix).
        let alone = try TypedChartEmitter<Ev, Log>.emitting(Self.stampable("alone"))
        let aloneWalked = try TypedChartEmitter<Ev, Log>.emitting(Self.stampable("alone"), stamps: false)
        #expect(Self.summary(of: alone) == Self.summary(of: aloneWalked))
        #expect(alone.definition.outline.nodes.map(\.id) == ["", "idle", "busy", "ghost", "done"])
    }

    @Test("machines compiled from a stamped and a walked definition run alike (R21, R67)")
    func sameRuns() throws {
        let stamped = try TypedChartEmitter<Ev, Log>.emitting(Self.machine())
        let walked = try TypedChartEmitter<Ev, Log>.emitting(Self.machine(), stamps: false)
        var one = try StateMachine<Top, Ev, Log>(
            typed: TypedChart(emitter: stamped, chart: Chart(stamped.definition)), context: Log())
        var two = try StateMachine<Top, Ev, Log>(
            typed: TypedChart(emitter: walked, chart: Chart(walked.definition)), context: Log())
        let events: [Ev] = [.go, .back, .go, .finish, .jump, .go, .jump, .back, .go, .finish, .jump, .finish, .jump, .go, .jump]
        for event in events {
            try one.send(event)
            try two.send(event)
            #expect(one.activeStateIDs == two.activeStateIDs)
        }
        #expect(one.context.lines == two.context.lines)
        // The done transition of `a` (its child reached `done`) was taken: `c` was entered.
        #expect(one.context.lines.contains("left enter busy"))
        #expect(one.context.lines.contains("walked from nil"))
    }

    /// A top machine of two states, `a` and `b`, each jumping to the other: places to attach children.
    static func aAndB() -> Machine<Top, Ev, Log> {
        Machine<Top, Ev, Log>(initial: .a) {
            When(.a) { On(.jump, to: .b) }
            When(.b) { On(.jump, to: .a) }
        }
    }

    @Test("a stamped child's initial state is looked up at each place, and an unknown one is reported")
    func initialStates() throws {
        // `ghost` is only mentioned, but it is a state of the level: a valid initial state.
        var child = Self.stampable("child")
        child.initial = .ghost
        let emitter = try TypedChartEmitter<Ev, Log>.emitting(child.attaching(child: Self.stampable("inner"), to: .ghost))
        #expect(emitter.definition.outline.nodes[0].initial == ["ghost"])
        #expect(emitter.definition.outline.nodes.first { $0.id == "ghost" }?.initial == ["ghost.busy"])
        // Two machines sharing one set of declarations, with different initial states.
        var other = Self.stampable("child")
        other.initial = .idle
        var top = Self.aAndB()
        top.attach(child: child, to: .a)
        top.attach(child: other, to: .b)
        let both = try TypedChartEmitter<Ev, Log>.emitting(top)
        #expect(both.definition.outline.nodes.first { $0.id == "a" }?.initial == ["a.ghost"])
        // `idle` is the child's first state, the default initial state (SCXML): not named, and
        // entered all the same.
        #expect(both.definition.outline.nodes.first { $0.id == "b" }?.initial == nil)
        let chart = try Chart(both.definition)
        let b = try #require(chart.state(withID: "b"))
        #expect(chart.initialTransition(of: b).map { $0.targets.map { chart.id(of: $0) } } == ["b.idle"])
        // An initial state the child does not declare or mention.
        let small = Machine<Top, Ev, Log>(initial: .d) { When(.a) { On(.go, to: .b) } }
        let parent = Machine<Step, Ev, Log>(initial: .idle) { When(.idle) { On(.go, to: .busy) } }
            .attaching(child: small, to: .idle)
        #expect(throws: ChartError.unknownTarget("d", from: "idle", location: nil)) {
            try TypedChartEmitter<Ev, Log>.emitting(parent)
        }
    }

    @Test("a machine with attachments of its own, attached in two places, is gathered once: one table of values, its slots shared")
    func attachedMachineGatheredOnce() throws {
        let middle = Self.stampable("middle").attaching(child: Self.walked, to: .idle)
        var top = Self.aAndB()
        top.attach(child: middle, to: .a)
        top.attach(child: middle, to: .b)
        let emitter = try TypedChartEmitter<Ev, Log>.emitting(top)
        // The top machine, `middle` and `walked`: their values once each.
        #expect(emitter.valueTables.count == 3)
        #expect(emitter.slotCount == 2 + 4 + 2)
        let definition = emitter.definition
        func slot(_ id: String) -> Int32? {
            (0..<definition.nodeCount).first { definition.id(of: .init($0)) == id }.map { emitter.valueSlotOfNode[$0] }
        }
        #expect(slot("a.busy") != nil && slot("a.busy") == slot("b.busy"))
        #expect(slot("a.idle.idle") != nil && slot("a.idle.idle") == slot("b.idle.idle"))
        #expect(emitter.boxedValue(ofSlot: try #require(slot("b.idle.busy"))) == AnyHashable(Step.busy))
    }

    @Test("copies of a machine share its identity until its initial state or attachments change")
    func identity() {
        let a = Self.stampable("x")
        let b = a
        #expect(a.identity === b.identity)
        var c = a
        c.initial = .idle
        #expect(c.identity !== a.identity)
        var d = a
        d.attach(child: Self.walked, to: .idle)
        #expect(d.identity !== a.identity)
        // The name does not change what the machine emits (a region's name is the attachment's).
        var e = a
        e.name = "renamed"
        #expect(e.identity === a.identity)
    }

    /// Everything the emitter produced, as text: nodes, transitions, routes, payloads and the
    /// typed tables.
    static func summary(of emitter: TypedChartEmitter<Ev, Log>) -> [String] {
        let definition = emitter.definition
        let outline = definition.outline
        var lines: [String] = []
        for (n, node) in outline.nodes.enumerated() {
            lines.append(
                "node \(n) \(node.id) \(node.kind) parent \(node.parent) children \(node.childCount) first \(node.firstChild) "
                    + "next \(node.nextSibling) transitions \(node.firstTransition)…\(node.lastTransition) (\(node.transitionCount)) "
                    + "entry \(node.hasEntryBlocks) \(node.hasEntryActions) exit \(node.hasExitBlocks) \(node.hasExitActions) "
                    + "payload \(node.payload) initial \(String(describing: node.initial))")
        }
        for (k, t) in outline.transitions.enumerated() {
            var targets: [Int32] = []
            if t.targetNodeStart >= 0 {
                let start = Int(t.targetNodeStart)
                targets = Array(outline.targetNodes[(start + 1)...(start + Int(outline.targetNodes[start]))])
            }
            let declared = definition.transitions[Int(t.declared)]
            lines.append(
                "transition \(k) targets \(t.targets) nodes \(targets) internal \(t.isInternal) event \(t.hasEvent) "
                    + "guard \(t.hasGuard) done \(String(describing: t.doneReference)) next \(t.next) "
                    + "declared \(String(describing: declared.event)) \(declared.targets) \(declared.kind) actions \(declared.actions.count)")
        }
        for r in outline.requestRoutes { lines.append("route \(r.targetNode) in \(r.container) name \(r.targetName)") }
        for (p, payload) in definition.payloads.enumerated() {
            lines.append("payload \(p) entry \(payload.onEntry.map(\.count)) exit \(payload.onExit.map(\.count))")
        }
        let values = (0..<emitter.slotCount).map { emitter.boxedValue(ofSlot: $0) }
        lines.append("slots \(emitter.valueSlotOfNode) levels \(emitter.levelOfNode) values \(values)")
        for l in 0..<emitter.levels.count {
            // A level that declares nothing is not held (`TypedLevels`): it reads as an empty one.
            let level = emitter.levels[l] ?? TypedLevel()
            lines.append("level finals \(level.finals.sorted()) globals \(level.globals.sorted()) routes \(level.routes)")
        }
        lines.append("containers \(emitter.containerOfLevel) mentioned \(emitter.mentionedOnly)")
        return lines
    }
}
