/// Routes added to a running ``StateMachine`` and ordered observers — SwiftState's `addRoute`,
/// `addHandler(order:)` and their `Disposable` (rule R66).
///
/// ```swift
/// let route = machine.addRoute(from: .state1, to: .state0)   // .state1 => .state0
/// try machine.transition(to: .state0)                        // allowed now
/// machine.removeRoute(route)                                 // the route's Disposable
/// machine.observe(order: 10) { change in … }                // before observers of the default order 100
/// ```
extension StateMachine {
    /// The order observers get when none is given (SwiftState's default handler order).
    public static var defaultObserverOrder: UInt8 { 100 }

    /// Adds a route for state requests between top-level states while the machine runs (rule R66):
    /// ``transition(to:)-(State)`` from `source` to `target` is then allowed as if `source` listed
    /// `target` in its ``Routes``. The target's barrier still decides, and a final state still cannot
    /// be left (rule R26).
    ///
    /// - Parameters:
    ///   - source: The state the request must come from; `nil` for any state (SwiftState's `.any => .s`).
    ///   - target: The state requested; `nil` for any state (SwiftState's `.s => .any`).
    ///   - condition: When given, the route applies only while it holds for the context.
    /// - Returns: A token for ``removeRoute(_:)``.
    @discardableResult
    public mutating func addRoute(
        from source: State? = nil, to target: State? = nil,
        condition: (@Sendable (Context) -> Bool)? = nil
    ) -> RouteToken {
        runtimeRoutes.nextID += 1
        let from = source.flatMap { topLevelID(of: $0) }
        let to = target.flatMap { topLevelID(of: $0) }
        runtimeRoutes.routes.append(
            RuntimeRoute(
                id: runtimeRoutes.nextID, from: from, to: to, condition: condition,
                names: (source.map { "\($0)" }, target.map { "\($0)" })))
        return RouteToken(id: runtimeRoutes.nextID)
    }

    /// Removes a route added with ``addRoute(from:to:condition:)``; requests along it are illegal
    /// again unless another route allows them. Removing a removed route does nothing.
    public mutating func removeRoute(_ token: RouteToken) {
        runtimeRoutes.routes.removeAll { $0.id == token.id }
    }

    /// Whether a route added at run time allows a request from the state at index `current` to
    /// the one at `target` (top level only).
    func runtimeRouteAllows(from current: Int32, to target: Int32, level: Int) -> Bool {
        guard level == 0, !runtimeRoutes.routes.isEmpty else { return false }
        let currentID = typed.chart.ids[Int(current)]
        let targetID = typed.chart.ids[Int(target)]
        return runtimeRoutes.routes.contains { route in
            // A route naming a value that is not a top-level state matches nothing.
            (route.names.from == nil || route.from == currentID) && (route.names.to == nil || route.to == targetID)
                && (route.condition?(context) ?? true)
        }
    }

    func topLevelID(of value: State) -> String? {
        typed.indices(of: value).first { typed.levelOfIndex[Int($0)] == 0 }
            .map { typed.chart.ids[Int($0)] }
    }

    // MARK: - Ordered observers

    /// Registers an observer called after every send or request that was handled, with the
    /// top-level state before, the event (`nil` for a request) and the state after (rule R30).
    ///
    /// Observers run by `order`, lower first (SwiftState's `order: UInt8`, default 100); observers of
    /// the same order run in registration order (rule R66).
    ///
    /// - Returns: A token for ``removeObserver(_:)``.
    @discardableResult
    public mutating func observe(
        order: UInt8 = Self.defaultObserverOrder, _ observer: @escaping (MachineTransition<State, Event>) -> Void
    ) -> ObserverToken {
        nextObserverID += 1
        let position = observers.firstIndex { (runtimeRoutes.observerOrders[$0.id] ?? Self.defaultObserverOrder) > order }
        observers.insert((nextObserverID, observer), at: position ?? observers.endIndex)
        runtimeRoutes.observerOrders[nextObserverID] = order
        return ObserverToken(id: nextObserverID)
    }

    /// Registers an observer of the transitions from one top-level state to another (SwiftState's
    /// `addHandler(.s0 => .s1, order:)`); `nil` stands for any state. See ``observe(order:_:)``.
    @discardableResult
    public mutating func observe(
        from source: State?, to target: State?, order: UInt8 = Self.defaultObserverOrder,
        _ observer: @escaping (MachineTransition<State, Event>) -> Void
    ) -> ObserverToken {
        observe(order: order) { change in
            guard source == nil || change.fromState == source, target == nil || change.toState == target else { return }
            observer(change)
        }
    }

    /// Registers an observer of the sends of one event (SwiftState's `addHandler(event:order:)`).
    /// See ``observe(order:_:)``.
    @discardableResult
    public mutating func observe(
        event: Event, order: UInt8 = Self.defaultObserverOrder,
        _ observer: @escaping (MachineTransition<State, Event>) -> Void
    ) -> ObserverToken {
        observe(order: order) { change in
            if change.event == event { observer(change) }
        }
    }

    /// Removes an observer; it is not called again. Removing a removed observer does nothing.
    public mutating func removeObserver(_ token: ObserverToken) {
        observers.removeAll { $0.id == token.id }
        runtimeRoutes.observerOrders[token.id] = nil
    }
}

/// Identifies a route added with ``StateMachine/addRoute(from:to:condition:)`` — SwiftState's
/// `Disposable`: pass it to ``StateMachine/removeRoute(_:)``.
public struct RouteToken: Hashable, Sendable {
    let id: Int
}

/// A state-request route added at run time (rule R66).
@usableFromInline
struct RuntimeRoute<Context> {
    let id: Int
    /// The source and target state ids (`nil`: the value is not a top-level state, or any).
    let from: String?
    let to: String?
    let condition: (@Sendable (Context) -> Bool)?
    /// The values as given (`nil`: any state).
    let names: (from: String?, to: String?)
}

/// What a ``StateMachine`` adds at run time: routes for state requests and observer orders.
// Usable from inlinable code: a machine is created by an inlinable initializer, specialized for
// its context (creating the empty arrays of an unspecialized one looked up their metadata).
@usableFromInline
struct RuntimeRoutes<Context> {
    var routes: [RuntimeRoute<Context>] = []
    var nextID = 0
    var observerOrders: [Int: UInt8] = [:]

    @inlinable init() {}
}
