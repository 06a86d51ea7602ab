/// The declaration of one level of a statechart: its states (values of your own `State` type),
/// their transitions and actions, and the child machines attached to them.
///
/// ```swift
/// let payment = Machine<Payment, OrderEvent, Order>(initial: .authorizing) {
///     When(.authorizing) { On(.authorized, to: .captured) }
///     Final(.captured)
/// }
/// var order = Machine<OrderState, OrderEvent, Order>(initial: .pending) {
///     When(.pending) { On(.confirm, to: .confirmed) }
///     When(.confirmed) { OnDone(to: .shipped) }
///     When(.shipped) { On(.deliver, to: .delivered) }
///     Final(.delivered)
///     AnyState { On(.cancel, to: .cancelled) }
///     Final(.cancelled)
/// }
/// order.attach(child: payment, to: .confirmed)
/// ```
///
/// Mentioning a state declares it (rule R65): `On(.go, to: .ghost)` adds `ghost` even without a
/// `When(.ghost)`, in the order of first mention, and two `When(.a)` blocks merge into one state.
/// ``TypedChart/validate()`` warns (`undeclared-state`) about a state that is only ever a target.
///
/// A machine is only a description; ``StateMachine`` runs it. Every machine, with all its
/// attached children, compiles into one ``Chart`` that the SCXML interpreter runs.
public struct Machine<State: Hashable & Sendable, Event: Hashable & Sendable, Context>: Sendable {
    /// The machine's name: it names the region when the machine is one of several attached children.
    public var name: String?
    /// The state the machine starts in; the first declared state when `nil`.
    public var initial: State? { didSet { identity = MachineIdentity() } }
    @usableFromInline var elements: [MachineElement<State, Event, Context>]
    @usableFromInline var attachments: [(state: State, child: AnyChildMachine<Event, Context>)] = [] { didSet { identity = MachineIdentity() } }
    /// Shared by the copies of this machine until one changes what it emits (its initial state or
    /// its attachments; its declarations never change): the emitter stamps a machine it has
    /// stamped before by this identity, without looking at the machine again (``LevelStamp``).
    @usableFromInline var identity = MachineIdentity()
    /// The ``estimatedStates`` of the children attached with ``attach(child:to:history:)``, kept
    /// as they are attached.
    @usableFromInline var attachedStates = 0

    /// Declares a machine.
    ///
    /// - Parameters:
    ///   - name: A name for diagnostics and for the region it forms when attached next to other children.
    ///   - initial: Where it starts (the first declared state when `nil`).
    ///   - content: States (``When``, ``Final``, ``Global``), flat ``Transition``s and ``AnyState`` routes.
    @inlinable
    public init(
        _ name: String? = nil,
        initial: State? = nil,
        @MachineBuilder<State, Event, Context> _ content: () -> [MachineElement<State, Event, Context>]
    ) {
        self.name = name
        self.initial = initial
        self.elements = content()
    }

    /// Attaches a child machine to one of this machine's states (rule R21).
    ///
    /// The child lives inside `state`: it is entered when `state` is (at its initial state, or at
    /// its history), exited with it (innermost first) and offered every event first; what it does
    /// not handle bubbles to `state` and its ancestors. Attaching several children to one state
    /// makes them parallel regions (rule R22). When the child reaches a final state, `state`
    /// receives a done event (``OnDone``).
    ///
    /// - Parameters:
    ///   - child: The child machine; its `State` type is its own, its events are the parent's.
    ///   - state: The parent state it lives in.
    ///   - history: How the child is re-entered: from its initial state, or its shallow or deep history.
    @inlinable
    public mutating func attach<ChildState>(
        child: Machine<ChildState, Event, Context>,
        to state: State,
        history: AttachmentHistory = .none
    ) {
        let attached = AnyChildMachine(child, history: history)
        attachedStates &+= attached.estimatedStates
        attachments.append((state, attached))
    }

    /// A copy of this machine with a child attached; see ``attach(child:to:history:)``.
    @inlinable
    public func attaching<ChildState>(
        child: Machine<ChildState, Event, Context>,
        to state: State,
        history: AttachmentHistory = .none
    ) -> Self {
        var copy = self
        copy.attach(child: child, to: state, history: history)
        return copy
    }
}

/// How an attached child machine is re-entered when its parent state is entered again (rule R23).
public enum AttachmentHistory: String, Hashable, Sendable, Codable {
    /// Always at the child's initial state.
    case none
    /// At the child's last active state; that state's own children start fresh.
    case shallow
    /// At the child's last active configuration, all the way down.
    case deep
}

/// A child machine with its `State` type erased: it knows how to emit itself into a chart.
@usableFromInline
struct AnyChildMachine<Event: Hashable & Sendable, Context>: Sendable {
    /// Its name, history and the machine's ``Machine/identity``: what the emitter reads of it
    /// besides ``emit``, kept apart from it by the gathered level (``GatheredLevel/childKeys``).
    @usableFromInline let key: ChildKey
    /// About how many states the machine declares, its attached children included
    /// (``Machine/estimatedStates``).
    @usableFromInline let estimatedStates: Int
    @usableFromInline let emit:
        @Sendable (inout TypedChartEmitter<Event, Context>, ChartDefinition<Event, Context>.Node, String)
            throws(ChartError) -> String

    @inlinable
    init<S>(_ machine: Machine<S, Event, Context>, history: AttachmentHistory) {
        self.key = ChildKey(name: machine.name, history: history, identity: machine.identity)
        self.estimatedStates = machine.estimatedStates
        self.emit = { (emitter: inout TypedChartEmitter<Event, Context>, container, prefix) throws(ChartError) in
            try emitter.emitLevel(machine, container: container, prefix: prefix)
        }
    }
}

/// The identity of a ``Machine``'s emitted form (``Machine/identity``): an object, so that copies
/// share it and the emitter can key a cache by it.
@usableFromInline
final class MachineIdentity: Sendable {
    @usableFromInline init() {}
}

extension Machine {
    /// About how many states this machine declares: one per declaration, and its attached
    /// children's. The emitter makes room for that many states and transitions in the definition
    /// before it emits them, instead of growing its arrays: a million states grown by doubling
    /// copied each array about twice over, into fresh pages (issue 16, "Build"). Counted as the
    /// machine is built, without walking its declarations: walked in the library's generic code,
    /// each element cost metadata lookups, and attaching a child took twice as long.
    @inlinable var estimatedStates: Int { elements.count &+ attachedStates }
}
