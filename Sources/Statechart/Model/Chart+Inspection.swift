/// Read-only views of a compiled chart's transitions and executable content, for exporters,
/// diagram generators and tools. Everything here is derived from the compiled model; nothing in
/// it can change how a chart runs.

/// Which events a transition responds to, as a value that can be compared and printed.
public enum ChartEventDescriptorInfo: Hashable, Sendable {
    /// Every event (SCXML `event="*"`).
    case any
    /// SCXML event descriptor tokens, normalized (`foo.*` and `foo.` are listed as `foo`).
    case names([String])
    /// Exactly one event of the chart's event type, by its name (``Chart/eventName``).
    case event(String)
    /// Events accepted by a Swift predicate: not expressible as names.
    case matching
    /// The done event of this state (`done.state.<id>`).
    case done(ChartStateID)
    /// Any execution error (`error.execution`).
    case error
}

/// A transition's condition, with state references resolved to state indices.
public indirect enum ChartGuardInfo: Hashable, Sendable {
    /// Holds while this state is active (SCXML `In('id')`).
    case inState(ChartStateID)
    /// Holds when the wrapped condition does not.
    case not(ChartGuardInfo)
    /// Holds when every wrapped condition holds (`true` when empty).
    case all([ChartGuardInfo])
    /// Holds when any wrapped condition holds (`false` when empty).
    case any([ChartGuardInfo])
    /// A Swift predicate over the extended state and the event: not expressible in SCXML's null datamodel.
    case predicate
    /// A condition in the chart's expression language, with its source text (``Guard/expression(_:_:)``).
    case expression(String)
}

/// One piece of executable content, described without its closures.
public enum ChartActionInfo: Hashable, Sendable {
    /// Puts the named event on the internal queue (SCXML `<raise>`).
    case raise(String)
    /// Puts the named event on the external queue after `delay` (SCXML `<send>`), cancellable by `id`.
    case send(String, delay: Duration, id: String?)
    /// Cancels pending delayed sends with this id (SCXML `<cancel sendid>`).
    case cancel(id: String)
    /// Writes a trace line (SCXML `<log label>`), with an optional message.
    case log(label: String, message: String?)
    /// Runs a Swift closure, with its optional name.
    case run(String?)
    /// A block of a datamodel's executable content, with its source text (``Action/content(_:_:)``).
    case content(String)
}

/// A read-only description of one compiled transition.
public struct ChartTransitionInfo: Hashable, Sendable {
    /// The state the transition belongs to (the root for chart-wide transitions).
    public var source: ChartStateID
    /// Its index among the transitions of its source, in document order (0 for initial and history defaults).
    public var ordinal: Int
    /// The events it responds to; `nil` for an eventless transition (and for initial and history defaults).
    public var events: ChartEventDescriptorInfo?
    /// Its condition; `nil` when it always holds.
    public var guardCondition: ChartGuardInfo?
    /// Its declared targets in document order; empty for a targetless transition.
    public var targets: [ChartStateID]
    /// Whether its targets are computed when it is taken (a dynamic transition); ``targets`` is then empty.
    public var hasDynamicTargets: Bool
    /// Whether it was declared internal (SCXML `type="internal"`).
    public var kind: TransitionKind
    /// Its own actions, in order.
    public var actions: [ChartActionInfo]
    /// Where it was declared, when known.
    public var location: SourceLocation?
}

extension Chart {
    /// The selectable transitions of a state, in document order (initial and history defaults excluded).
    public func transitions(of state: ChartStateID) -> [ChartTransitionInfo] {
        let s = states[Int(state.index)]
        guard !s.kind.isHistory, s.transitionStart < s.transitionEnd else { return [] }
        return (s.transitionStart..<s.transitionEnd).map { transitionInfo(Int($0)) }
    }

    /// The initial transition of a compound state (the root included) — its targets are the
    /// `initial` attribute, the `<initial>` element, or the first child state — or the default
    /// transition of a history state. `nil` for every other kind of state.
    public func initialTransition(of state: ChartStateID) -> ChartTransitionInfo? {
        let t = states[Int(state.index)].initialTransition
        return t < 0 ? nil : transitionInfo(Int(t))
    }

    /// The entry blocks of a state (one per SCXML `<onentry>`), in order.
    public func entryActions(of state: ChartStateID) -> [[ChartActionInfo]] {
        entryActions[Int(state.index)].map { $0.map(actionInfo) }
    }

    /// The exit blocks of a state (one per SCXML `<onexit>`), in order.
    public func exitActions(of state: ChartStateID) -> [[ChartActionInfo]] {
        exitActions[Int(state.index)].map { $0.map(actionInfo) }
    }

    private func transitionInfo(_ k: Int) -> ChartTransitionInfo {
        let t = transitions[k]
        return ChartTransitionInfo(
            source: ChartStateID(t.source), ordinal: Int(t.ordinal), events: matchers[k].map(descriptorInfo),
            guardCondition: guardCondition(of: Int32(k)).map(guardInfo), targets: targets(of: Int32(k)).map(ChartStateID.init),
            hasDynamicTargets: dynamicTargets.hasValue(at: k), kind: t.isInternal ? .internal : .external,
            actions: actions(of: Int32(k)).map(actionInfo), location: transitionLocations[k])
    }

    private func descriptorInfo(_ m: EventMatcher<Event>) -> ChartEventDescriptorInfo {
        switch m {
        case .any: return .any
        case .names(let tokens): return .names(tokens)
        case .event(let e): return .event(eventName(e))
        case .matching: return .matching
        case .done(let s): return .done(ChartStateID(s))
        case .error: return .error
        case .timer(let key): return .names(["timer." + key])
        }
    }

    private func guardInfo(_ g: CompiledGuard<Event, Context>) -> ChartGuardInfo {
        switch g {
        case .inState(let s): return .inState(ChartStateID(s))
        case .not(let inner): return .not(guardInfo(inner))
        case .all(let gs): return .all(gs.map(guardInfo))
        case .any(let gs): return .any(gs.map(guardInfo))
        case .predicate, .withInput: return .predicate
        case .expression(let source, _): return .expression(source)
        }
    }

    private func actionInfo(_ a: Action<Event, Context>) -> ChartActionInfo {
        switch a {
        case .raise(let e): return .raise(eventName(e))
        case .send(let e, let delay, let id): return .send(eventName(e), delay: delay, id: id)
        case .cancel(let id): return .cancel(id: id)
        case .log(let label, let message): return .log(label: label, message: message)
        case .run(let name, _): return .run(name)
        case .content(let source, _): return .content(source)
        case .startTimer(let key, let delay): return .send("timer." + key, delay: delay, id: "timer." + key)
        case .cancelTimer(let key): return .cancel(id: "timer." + key)
        }
    }

    /// The invocations (``Work``, SCXML `<invoke>`) of a state, in declaration order (rule R52).
    public func invocations(of state: ChartStateID) -> [Invocation<Event, Context>] {
        invocations[Int(state.index)]
    }
}
