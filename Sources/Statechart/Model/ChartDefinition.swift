/// A chart under construction: a tree of states with their transitions and executable content,
/// named by string ids.
///
/// Every front end fills one of these — the typed Swift builder and the SCXML loader alike — and
/// ``Chart/init(_:)`` compiles it into the one model the interpreter runs. The tree is kept flat
/// (nodes refer to their parent by index) so that neither building nor compiling recurses to the
/// depth of the document.
public struct ChartDefinition<Event: Hashable & Sendable, Context>: Sendable {
    /// A handle to a node of this definition.
    public struct Node: Hashable, Sendable {
        /// The node's position in the order it was added.
        public let rawValue: Int
        @usableFromInline init(_ rawValue: Int) { self.rawValue = rawValue }
    }

    /// The tree and its ids, without a closure or a value of `Event` or `Context` in it: the
    /// compiler's structural work runs on this alone, as non-generic code (see ``DefinitionOutline``).
    @usableFromInline var outline = DefinitionOutline()
    /// Every transition as declared, in the order added; each of `outline.transitions` names
    /// its own here (``TransitionOutline/declared``), and the transitions of a stamped typed
    /// machine share one set (``LevelStamp``).
    @usableFromInline var transitions: [TransitionDefinition<Event, Context>] = []
    /// Actions and invoked work of the nodes that have any (`NodeOutline.payload` indexes it):
    /// most nodes of a large chart have none, and then cost nothing here.
    @usableFromInline var payloads: [NodePayload] = []

    /// Drops the parts of the outline only the compiler reads (transitions, their target nodes,
    /// request routes), keeping the nodes, whose payloads and locations the assembly reads: a
    /// definition being compiled releases them before the chart's transitions are built.
    @usableFromInline
    mutating func releaseCompiledOutline() {
        outline.transitions = []
        outline.targetNodes = []
        outline.requestRoutes = []
        outline.requestRouteTargets = []
    }

    /// What a node carries besides its structure.
    @usableFromInline
    struct NodePayload: Sendable {
        @usableFromInline var initialActions: [Action<Event, Context>] = []
        @usableFromInline var onEntry: [[Action<Event, Context>]] = []
        @usableFromInline var onExit: [[Action<Event, Context>]] = []
        @usableFromInline var invocations: [Invocation<Event, Context>] = []
        /// A payload with no actions and no invocations.
        @usableFromInline init() {}
    }

    /// A name for the chart (SCXML `name`), used in diagnostics and exports.
    public var name: String
    /// How events of the chart's type are named for SCXML descriptors, traces and exports.
    public var eventName: @Sendable (Event) -> String

    /// Creates a definition holding only the root (the SCXML `<scxml>` element).
    ///
    /// - Parameters:
    ///   - name: The chart's name.
    ///   - initial: Ids of the initial states; the first child state when empty.
    ///   - eventName: How events are named (default: `String(describing:)`).
    public init(
        name: String = "chart",
        initial: [String] = [],
        eventName: @escaping @Sendable (Event) -> String = { String(describing: $0) }
    ) {
        self.name = name
        self.eventName = eventName
        outline.nodes = [NodeOutline(id: "", kind: .state, parent: -1, initial: initial.isEmpty ? nil : initial, location: nil)]
    }

    /// Makes room for `states` more states and `transitions` more transitions, so that a front
    /// end that knows the size of what it builds (the SCXML loader, a code generator) does not
    /// grow the definition's arrays as it adds them. Counts of zero or less reserve nothing.
    public mutating func reserveCapacity(states: Int, transitions: Int) {
        // Clamped so that no count can overflow the sum (the arrays then fail to allocate, as
        // any array asked for that much would).
        outline.nodes.reserveCapacity(outline.nodes.count + min(max(states, 0), Int.max - outline.nodes.count))
        let more = min(max(transitions, 0), Int.max - self.transitions.count)
        outline.transitions.reserveCapacity(outline.transitions.count + more)
        self.transitions.reserveCapacity(self.transitions.count + more)
    }

    /// The root of the tree. Transitions added to it act as machine-wide (any-state) routes.
    public var root: Node { Node(0) }

    /// The number of nodes, root included.
    public var nodeCount: Int { outline.nodes.count }

    /// Adds a state as the last child of `parent`.
    ///
    /// - Parameters:
    ///   - id: A unique id (SCXML `id`).
    ///   - kind: What the state is.
    ///   - parent: Where it goes.
    ///   - initial: For a compound state, the ids of its initial states (the first child when `nil`).
    ///   - location: Where it was declared, for diagnostics.
    // Inlined into the typed emitter, which runs unspecialized: a call to a method of a generic
    // type from there looks the type's metadata up at every call (issue 16).
    @discardableResult @inline(__always)
    public mutating func addState(
        _ id: String,
        kind: StateKind = .state,
        in parent: Node,
        initial: [String]? = nil,
        location: SourceLocation? = nil
    ) -> Node {
        let index = outline.nodes.count
        outline.nodes.append(NodeOutline(id: id, kind: kind, parent: Int32(parent.rawValue), initial: initial, location: location))
        outline.appendChild(Int32(index), to: parent.rawValue)
        return Node(index)
    }

    /// Appends a transition to a state's transitions (document order is the order of these calls).
    /// For a history state, the transition is its default: taken when it has no stored history.
    ///
    /// The transition is taken, not copied: a loader that builds one and hands it over pays no
    /// copy and no destruction of it (each was a call through the type's value witnesses).
    @inlinable
    public mutating func addTransition(_ transition: __owned TransitionDefinition<Event, Context>, from state: Node) {
        outline.appendTransition(TransitionOutline(transition, declared: transitions.count), to: state.rawValue)
        transitions.append(transition)
    }

    /// Appends a transition prepared once for several places (the typed emitter's machines
    /// attached in many places): `transition` and its `outline` without targets — the caller
    /// records their nodes next (``DefinitionOutline/setTargetNodes(_:ofTransition:)``) — and,
    /// for a transition on the done event of its source, that source's id.
    ///
    /// The targets are kept by node only: nothing reads a typed transition's target ids (the
    /// compiler takes the nodes, diagnostics and exports read the chart), and a list of ids per
    /// transition was a million arrays for a million-state chart (issue 16, "Build").
    @inline(__always)
    mutating func addPreparedTransition(
        _ k: Int, of transitions: [TransitionDefinition<Event, Context>], outlines: [TransitionOutline],
        doneOf source: String?, from state: Node
    ) {
        // Indexed here, not passed as values: each copy of a generic value costs a call through its witnesses.
        var t = transitions[k]
        var o = outlines[k]
        t.targets = []
        o.targets = []
        if let source {
            t.event = .done(source)
            o.doneReference = source
        }
        o.declared = Int32(self.transitions.count)
        outline.appendTransition(o, to: state.rawValue)
        self.transitions.append(t)
    }

    /// Makes room for the nodes (raw values) of the last transition's `count` targets, set with
    /// ``setTargetNode(_:at:)`` in the order of its target ids; returns the first one's position.
    @inline(__always)
    mutating func reserveTargetNodesOfLastTransition(_ count: Int) -> Int {
        outline.reserveTargetNodes(count, ofTransition: outline.transitions.count - 1)
    }

    /// Sets a target node (raw value) in the room ``reserveTargetNodesOfLastTransition(_:)`` made.
    @inline(__always)
    mutating func setTargetNode(_ node: Int32, at position: Int) {
        outline.setTargetNode(node, at: position)
    }

    /// Appends an entry block (SCXML `<onentry>`) to a state.
    // Inlinable, like `addTransition`: from the library's generic code, appending to the payload
    // went through the generic type's metadata and witnesses, some 6,500 instructions a block
    // in the SCXML loader (issue 16).
    @inlinable
    public mutating func addOnEntry(_ actions: [Action<Event, Context>], to state: Node) {
        outline.countBlock(entry: true, hasActions: !actions.isEmpty, of: state.rawValue)
        payloads[payloadIndex(of: state)].onEntry.append(actions)
    }

    /// Appends an exit block (SCXML `<onexit>`) to a state.
    @inlinable
    public mutating func addOnExit(_ actions: [Action<Event, Context>], to state: Node) {
        outline.countBlock(entry: false, hasActions: !actions.isEmpty, of: state.rawValue)
        payloads[payloadIndex(of: state)].onExit.append(actions)
    }

    /// Adds work the state runs while it is active (rule R52).
    public mutating func addInvocation(_ invocation: Invocation<Event, Context>, to state: Node) {
        outline.nodes[state.rawValue].hasInvocations = true
        withPayload(of: state) { $0.invocations.append(invocation) }
    }

    /// Sets a compound state's initial targets and the actions of its initial transition
    /// (SCXML `<initial><transition target=…>actions</transition></initial>`).
    public mutating func setInitial(_ targets: [String], actions: [Action<Event, Context>] = [], of state: Node) {
        outline.nodes[state.rawValue].initial = targets
        if !actions.isEmpty || outline.nodes[state.rawValue].payload >= 0 {
            withPayload(of: state) { $0.initialActions = actions }
        }
    }

    /// Declares that `target` can be requested directly (a state-requested transition such as
    /// Machinus' `transition(to:)`): the request exits everything active inside `container` and
    /// enters `target`, which must be a proper descendant of the compound `container`.
    public mutating func addRequestRoute(to target: String, within container: Node) {
        outline.requestRoutes.append(
            RequestRoute(targetNode: -1, container: Int32(container.rawValue), targetName: Int32(outline.requestRouteTargets.count)))
        outline.requestRouteTargets.append(target)
    }

    /// The number of transitions added so far: the outline's count, an array of a concrete type,
    /// which generic code reads without looking up the metadata of ``transitions``' type.
    @inline(__always) var transitionCount: Int { outline.transitions.count }

    /// ``addRequestRoute(to:within:)`` for a target given by its node.
    @inline(__always)
    mutating func addRequestRoute(toNode target: Node, within container: Node) {
        outline.requestRoutes.append(RequestRoute(targetNode: Int32(target.rawValue), container: Int32(container.rawValue), targetName: -1))
    }

    /// Makes room for what the typed builder adds besides states and transitions for `states`
    /// more states: a request route each, and a transition's target node with its count.
    mutating func reserveTypedTables(states: Int) {
        let more = min(max(states, 0), Int.max / 4)
        outline.requestRoutes.reserveCapacity(outline.requestRoutes.count + more)
        outline.targetNodes.reserveCapacity(outline.targetNodes.count + 2 * more)
    }

    /// The id of a node.
    public func id(of node: Node) -> String { outline.nodes[node.rawValue].id }
    /// The kind of a node.
    public func kind(of node: Node) -> StateKind { outline.nodes[node.rawValue].kind }
    /// The parent of a node, `nil` for the root.
    public func parent(of node: Node) -> Node? {
        let p = outline.nodes[node.rawValue].parent
        return p < 0 ? nil : Node(Int(p))
    }
    /// The children of a node, in document order.
    public func children(of node: Node) -> [Node] { outline.children(of: node.rawValue).map { Node(Int($0)) } }

    /// The indices in ``transitions`` of a node's transitions, in the order they were added.
    func transitionIndices(of node: Node) -> [Int] { outline.transitionIndices(of: node.rawValue).map { Int($0) } }

    /// Replaces the targets of a transition (by its index in the outline's transitions), in both
    /// views of it. Only for a transition of its own (not one of a stamped level's, which share theirs).
    mutating func setTargets(_ targets: [String], ofTransition k: Int) {
        transitions[Int(outline.transitions[k].declared)].targets = targets
        outline.transitions[k].targets = targets
    }

    /// The node's payload, created when first needed.
    private mutating func withPayload(of node: Node, _ change: (inout NodePayload) -> Void) {
        change(&payloads[payloadIndex(of: node)])
    }

    /// The index of the node's payload, created when first needed.
    @inlinable
    mutating func payloadIndex(of node: Node) -> Int {
        let p = outline.payload(of: node.rawValue, next: payloads.count)
        if p == payloads.count { payloads.append(NodePayload()) }
        return p
    }
}

/// A transition as declared.
public struct TransitionDefinition<Event: Hashable & Sendable, Context>: Sendable {
    // The words first, then the two descriptors, the location and the kind: a definition holds
    // one of these per transition (a 1,000,000-state SCXML document, two million at the loader's
    // peak, issue 16 "Memory"), and the fields in the order of their meaning left padding after
    // each descriptor.

    /// The ids of its targets; empty makes it targetless (it exits and enters nothing).
    public var targets: [String]
    /// The transition's own actions, run between the exits and the entries.
    public var actions: [Action<Event, Context>]
    /// ``dynamicTargets`` and ``asyncGuard``, which few transitions have, in one box: `nil` when
    /// neither is set. In place they took 32 bytes of every transition; boxed, 8.
    @usableFromInline var closures: TransitionClosures<Event, Context>?
    /// The events it responds to; `nil` makes it eventless.
    public var event: EventDescriptor<Event>?
    /// Its condition; `nil` always holds.
    public var guardCondition: Guard<Event, Context>?
    /// Where it was declared.
    public var location: SourceLocation?
    /// External (default) or internal.
    public var kind: TransitionKind

    /// Computes the targets when the transition is selected (a dynamic transition). Returns ids;
    /// an unknown id is an error raised at run time. Overrides ``targets`` when set.
    public var dynamicTargets: (@Sendable (Context, ChartEvent<Event>?) -> [String])? {
        @inlinable get { closures?.dynamicTargets }
        @inlinable set { closures = TransitionClosures.boxing(dynamicTargets: newValue, asyncGuard: closures?.asyncGuard) }
    }

    /// An asynchronous condition, awaited by ``AsyncStateMachine`` before the macrostep of an
    /// external event (rule R58). In every other microstep, and in a synchronous machine, the
    /// transition is not enabled.
    public var asyncGuard: (@Sendable (Context, Event) async -> Bool)? {
        @inlinable get { closures?.asyncGuard }
        @inlinable set { closures = TransitionClosures.boxing(dynamicTargets: closures?.dynamicTargets, asyncGuard: newValue) }
    }

    /// Creates a transition.
    // Inlinable, so that it runs specialized for the caller's types: compiled once in the library,
    // making the box's type (generic) looked its metadata up at every call, about 1,700
    // instructions a transition (`scaleDefinition`, 100,000 states: 557 M → 733 M).
    @inlinable
    public init(
        on event: EventDescriptor<Event>?,
        guard guardCondition: Guard<Event, Context>? = nil,
        to targets: [String] = [],
        kind: TransitionKind = .external,
        actions: [Action<Event, Context>] = [],
        dynamicTargets: (@Sendable (Context, ChartEvent<Event>?) -> [String])? = nil,
        location: SourceLocation? = nil
    ) {
        self.event = event
        self.guardCondition = guardCondition
        self.targets = targets
        self.kind = kind
        self.actions = actions
        self.closures = TransitionClosures.boxing(dynamicTargets: dynamicTargets, asyncGuard: nil)
        self.location = location
    }
}

/// The closures of a ``TransitionDefinition`` that few transitions have. Immutable: setting one
/// of them makes a new box, so copies of a definition never share a change.
@usableFromInline
final class TransitionClosures<Event: Hashable & Sendable, Context>: Sendable {
    @usableFromInline let dynamicTargets: (@Sendable (Context, ChartEvent<Event>?) -> [String])?
    @usableFromInline let asyncGuard: (@Sendable (Context, Event) async -> Bool)?

    @usableFromInline
    init(
        dynamicTargets: (@Sendable (Context, ChartEvent<Event>?) -> [String])?,
        asyncGuard: (@Sendable (Context, Event) async -> Bool)?
    ) {
        self.dynamicTargets = dynamicTargets
        self.asyncGuard = asyncGuard
    }

    /// A box holding both, or `nil` when neither is set (a transition without them holds no box).
    @inlinable
    static func boxing(
        dynamicTargets: (@Sendable (Context, ChartEvent<Event>?) -> [String])?,
        asyncGuard: (@Sendable (Context, Event) async -> Bool)?
    ) -> TransitionClosures? {
        if dynamicTargets == nil && asyncGuard == nil { return nil }
        return TransitionClosures(dynamicTargets: dynamicTargets, asyncGuard: asyncGuard)
    }
}
