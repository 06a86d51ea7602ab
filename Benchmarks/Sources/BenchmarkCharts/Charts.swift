import Statechart

// The charts under test. Every one is built with the public API only, in this module; the
// benchmark executables (other modules again) drive them, as a user's code would.

// MARK: - Flat: the four-state order machine

/// The order machine's states: pending → confirmed → shipped → delivered → (reset) pending.
public enum OrderState: Hashable, Sendable, CaseIterable { case pending, confirmed, shipped, delivered }
/// The order machine's events.
public enum OrderEvent: Hashable, Sendable, CaseIterable { case confirm, ship, deliver, reset }

/// One full cycle of the order machine: four events, back where it started.
public let orderCycle: [OrderEvent] = [.confirm, .ship, .deliver, .reset]

/// The flat order machine with the typed builder. No actions, no guards: the cost measured is
/// the engine's own (selection, exit, entry, configuration update).
public func flatOrderMachine() -> Machine<OrderState, OrderEvent, Void> {
    Machine("order", initial: .pending) {
        When(.pending) { On(.confirm, to: .confirmed) }
        When(.confirmed) { On(.ship, to: .shipped) }
        When(.shipped) { On(.deliver, to: .delivered) }
        When(.delivered) { On(.reset, to: .pending) }
    }
}

/// The same machine written by hand: a `switch` on a struct's stored state — the practical limit
/// any engine is compared with. `@inlinable` so that it compiles into the caller's module, as
/// hand-written code in a user's own module would.
public struct HandWrittenOrder: Sendable {
    public var state: OrderState = .pending

    @inlinable public init() {}

    /// Returns whether the event was handled (an unhandled event changes nothing).
    @inlinable
    public mutating func send(_ event: OrderEvent) -> Bool {
        switch (state, event) {
        case (.pending, .confirm): state = .confirmed
        case (.confirmed, .ship): state = .shipped
        case (.shipped, .deliver): state = .delivered
        case (.delivered, .reset): state = .pending
        default: return false
        }
        return true
    }
}

/// The hand-written order machine inside an actor: the floor for an asynchronous `send`, since
/// every `await` on an actor costs a hop whatever the machine does.
public actor HandWrittenOrderActor {
    var machine = HandWrittenOrder()

    public init() {}

    /// Returns whether the event was handled.
    public func send(_ event: OrderEvent) -> Bool { machine.send(event) }
}

// MARK: - Flat with actions: the order machine as people write it

/// What the order machine with actions keeps: whether the order is paid (every guard reads it)
/// and counts its actions touch.
public struct OrderBook: Sendable {
    public var paid = true
    public var transitions = 0
    public var entries = 0

    @inlinable public init() {}
}

/// The closures both versions of the order machine with actions call: one guard, one
/// transition action, one entry action (issue 16: "a guard and an action on every transition and
/// an entry action on every state, closures that touch the context").
public enum OrderBookClosures {
    public static let isPaid: @Sendable (OrderBook) -> Bool = { $0.paid }
    public static let countTransition: @Sendable (inout OrderBook) -> Void = { $0.transitions &+= 1 }
    public static let countEntry: @Sendable (inout OrderBook) -> Void = { $0.entries &+= 1 }
}

/// The flat order machine with a guard and an action on every transition and an entry action on
/// every state, as ``flatOrderMachine()`` otherwise.
public func flatOrderMachineWithActions() -> Machine<OrderState, OrderEvent, OrderBook> {
    let isPaid = OrderBookClosures.isPaid
    let transition = OrderBookClosures.countTransition
    let entry = OrderBookClosures.countEntry
    return Machine("order", initial: .pending) {
        When(.pending) {
            OnEntry { entry(&$0.context) }
            On(.confirm, to: .confirmed, guard: isPaid) { transition(&$0.context) }
        }
        When(.confirmed) {
            OnEntry { entry(&$0.context) }
            On(.ship, to: .shipped, guard: isPaid) { transition(&$0.context) }
        }
        When(.shipped) {
            OnEntry { entry(&$0.context) }
            On(.deliver, to: .delivered, guard: isPaid) { transition(&$0.context) }
        }
        When(.delivered) {
            OnEntry { entry(&$0.context) }
            On(.reset, to: .pending, guard: isPaid) { transition(&$0.context) }
        }
    }
}

/// The same machine written by hand: the `switch` of ``HandWrittenOrder`` calling the same
/// closures, kept as stored closures (opaque to the optimizer, as an engine's are).
public struct HandWrittenOrderWithActions: Sendable {
    public var state: OrderState = .pending
    public var book = OrderBook()
    @usableFromInline let isPaid: @Sendable (OrderBook) -> Bool
    @usableFromInline let transition: @Sendable (inout OrderBook) -> Void
    @usableFromInline let entry: @Sendable (inout OrderBook) -> Void

    @inlinable
    public init(
        isPaid: @escaping @Sendable (OrderBook) -> Bool = OrderBookClosures.isPaid,
        transition: @escaping @Sendable (inout OrderBook) -> Void = OrderBookClosures.countTransition,
        entry: @escaping @Sendable (inout OrderBook) -> Void = OrderBookClosures.countEntry
    ) {
        self.isPaid = isPaid
        self.transition = transition
        self.entry = entry
    }

    /// Returns whether the event was handled.
    @inlinable
    public mutating func send(_ event: OrderEvent) -> Bool {
        let next: OrderState
        switch (state, event) {
        case (.pending, .confirm): next = .confirmed
        case (.confirmed, .ship): next = .shipped
        case (.shipped, .deliver): next = .delivered
        case (.delivered, .reset): next = .pending
        default: return false
        }
        guard isPaid(book) else { return false }
        transition(&book)
        state = next
        entry(&book)
        return true
    }
}

// MARK: - Nested: four levels deep

public enum Level1: Hashable, Sendable { case a1, b1 }
public enum Level2: Hashable, Sendable { case a2, b2 }
public enum Level3: Hashable, Sendable { case a3, b3 }
public enum Level4: Hashable, Sendable { case a4, b4 }
/// `inner` is handled by the innermost (depth-4) state; `outer` only by the top-level state.
public enum NestedEvent: Hashable, Sendable { case inner, outer }

/// Four machine levels: `a1 ⊃ a2 ⊃ a3 ⊃ {a4, b4}`. The active atomic state is at depth 4.
///
/// - `inner` toggles `a4 ↔ b4`: handled by the innermost state, nothing above it is touched.
/// - `outer` is handled only by `a1` (an external self-transition): it bubbles past `a4`, `a3`
///   and `a2`, exits all four levels (innermost first) and enters them again.
public func nestedMachine() -> Machine<Level1, NestedEvent, Void> {
    let level4 = Machine<Level4, NestedEvent, Void>("level4", initial: .a4) {
        When(.a4) { On(.inner, to: .b4) }
        When(.b4) { On(.inner, to: .a4) }
    }
    let level3 = Machine<Level3, NestedEvent, Void>("level3", initial: .a3) {
        When(.a3)
        When(.b3)
    }.attaching(child: level4, to: .a3)
    let level2 = Machine<Level2, NestedEvent, Void>("level2", initial: .a2) {
        When(.a2)
        When(.b2)
    }.attaching(child: level3, to: .a2)
    return Machine<Level1, NestedEvent, Void>("level1", initial: .a1) {
        When(.a1) { On(.outer, to: .a1) }
        When(.b1)
    }.attaching(child: level2, to: .a1)
}

// MARK: - Parallel: four regions

public enum Toggle: Hashable, Sendable { case off, on }
public enum Appliance: Hashable, Sendable { case running }
public enum ParallelEvent: Hashable, Sendable { case tick }

/// One state, `running`, with four attached child machines (four orthogonal regions); each region
/// toggles `off ↔ on` on `tick`, so one event takes four transitions in one microstep.
public func parallelMachine(regions: Int = 4) -> Machine<Appliance, ParallelEvent, Void> {
    var top = Machine<Appliance, ParallelEvent, Void>("appliance", initial: .running) {
        When(.running)
    }
    for r in 1...regions {
        top.attach(
            child: Machine<Toggle, ParallelEvent, Void>("r\(r)", initial: .off) {
                When(.off) { On(.tick, to: .on) }
                When(.on) { On(.tick, to: .off) }
            },
            to: .running)
    }
    return top
}

/// ``parallelMachine(regions:)`` in which only the second of four regions takes `tick`: the step
/// of a parallel state where one region moves and its active state is not the last of the
/// configuration's list (the usual step of a parallel chart: regions that each follow their own
/// events).
public func parallelOneRegionMachine() -> Machine<Appliance, ParallelEvent, Void> {
    var top = Machine<Appliance, ParallelEvent, Void>("appliance", initial: .running) {
        When(.running)
    }
    for r in 1...4 {
        top.attach(
            child: Machine<Toggle, ParallelEvent, Void>("r\(r)", initial: .off) {
                if r == 2 {
                    When(.off) { On(.tick, to: .on) }
                    When(.on) { On(.tick, to: .off) }
                } else {
                    When(.off)
                    When(.on)
                }
            },
            to: .running)
    }
    return top
}

// MARK: - History

public enum Room: Hashable, Sendable { case inside, outside }
public enum Step: Hashable, Sendable { case first, second }
public enum Detail: Hashable, Sendable { case start, end }
/// `advance` moves the inner levels on; `leave` and `back` go out of and into the history state.
public enum HistoryEvent: Hashable, Sendable { case advance, leave, back }

/// `inside` holds a two-level child with deep history: `inside ⊃ {first, second ⊃ {start, end}}`.
/// After ``historySetup`` the configuration is `inside.second.end`; `leave` exits all three
/// levels (recording the deep history) and `back` re-enters `inside.second.end` from it.
public func historyMachine() -> Machine<Room, HistoryEvent, Void> {
    let detail = Machine<Detail, HistoryEvent, Void>("detail", initial: .start) {
        When(.start) { On(.advance, to: .end) }
        When(.end)
    }
    let step = Machine<Step, HistoryEvent, Void>("step", initial: .first) {
        When(.first) { On(.advance, to: .second) }
        When(.second)
    }.attaching(child: detail, to: .second)
    return Machine<Room, HistoryEvent, Void>("room", initial: .inside) {
        When(.inside) { On(.leave, to: .outside) }
        When(.outside) { On(.back, to: .inside) }
    }.attaching(child: step, to: .inside, history: .deep)
}

/// The events that take ``historyMachine()`` to `inside.second.end` before measuring.
public let historySetup: [HistoryEvent] = [.advance, .advance]
/// One cycle: out of the history state and back in.
public let historyCycle: [HistoryEvent] = [.leave, .back]

// MARK: - Scale: generated charts

/// Events of the generated charts.
public enum ScaleEvent: Hashable, Sendable { case next, jump }

/// A generated chart of `states` states (the root not counted), built with ``ChartDefinition``
/// as a code generator would: `states / 10` compound groups `g<i>` at depth 1, each with nine
/// atomic children `g<i>.s<j>` at depth 2. Every atomic state moves to its next sibling on `next`;
/// every group moves to the next group on `jump`. However large the chart, the active state is
/// at depth 2 and `next` takes one transition between siblings — the same work at every size.
public func scaleDefinition(states: Int) -> ChartDefinition<ScaleEvent, Void> {
    precondition(states >= 10 && states % 10 == 0, "a multiple of 10 states")
    let groups = states / 10
    var definition = ChartDefinition<ScaleEvent, Void>(name: "scale\(states)")
    let root = definition.root
    for g in 0..<groups {
        let groupID = "g\(g)"
        let group = definition.addState(groupID, in: root)
        definition.addTransition(TransitionDefinition(on: .event(.jump), to: ["g\((g + 1) % groups)"]), from: group)
        for s in 0..<9 {
            let leaf = definition.addState("\(groupID).s\(s)", in: group)
            definition.addTransition(TransitionDefinition(on: .event(.next), to: ["\(groupID).s\((s + 1) % 9)"]), from: leaf)
        }
    }
    return definition
}

/// A compiled, started instance of ``scaleDefinition(states:)``.
public func scaleInstance(states: Int) throws -> ChartInstance<ScaleEvent, Void> {
    var instance = ChartInstance(chart: try Chart(scaleDefinition(states: states)), context: ())
    try instance.start()
    return instance
}

// MARK: - Helpers

/// Moves a value out of an optional, leaving `nil`: the caller then holds the only reference to
/// its storage, so mutating it copies nothing.
@inlinable
public func takeOut<T>(_ slot: inout T?) -> T {
    guard let value = slot.take() else { preconditionFailure("the machine was not put back") }
    return value
}
