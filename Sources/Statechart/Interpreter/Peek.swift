extension ChartInstance {
    /// Whether an external event would enable a transition now, found without changing anything
    /// (rule R59): the selection of R4 with guards evaluated, but no action run, no error raised
    /// (a throwing guard counts as false) and no state changed. An asynchronous guard counts as
    /// holding, since a runtime would await it.
    ///
    /// Inlinable, so that the walk compares the caller's events specialized: in the library,
    /// unspecialized, each comparison and each guard went through the event's and the context's
    /// metadata, about 5,300 instructions a question of the order machine (issue 16).
    @inlinable
    public func canHandle(_ event: Event) -> Bool {
        guard isRunning else { return false }
        let e = ChartEvent<Event>.event(event)
        var walk = SelectionWalk(over: self)
        while let (t, conditional, _) = walk.nextCandidate(in: self, matching: e) {
            if conditional, let g = chart.guardCondition(of: t), !peekGuard(g, event: e) { continue }
            return true
        }
        return false
    }

    /// Whether guard `g` holds for `event` now, evaluated without changing anything: a throwing
    /// guard counts as false, an expression runs on a copy of the context.
    @inlinable
    func peekGuard(_ g: CompiledGuard<Event, Context>, event: ChartEvent<Event>) -> Bool {
        switch g {
        case .inState(let s): return configuration.contains(s)
        case .not(let inner): return !peekGuard(inner, event: event)
        case .all(let gs): return gs.allSatisfy { peekGuard($0, event: event) }
        case .any(let gs): return gs.contains { peekGuard($0, event: event) }
        case .predicate(let p): return (try? p(scope.context, event)) ?? false
        case .expression(_, let evaluate):
            // A copy of the context: whatever the evaluation does stays in it (rule R81).
            var context = scope.context
            return (try? evaluate(&context, environment(event: event, serial: 0))) ?? false
        case .withInput(let p): return (try? p(GuardInput(context: scope.context, environment: environment(event: event, serial: 0)))) ?? false
        }
    }

    /// The environment an expression sees now (rule R81). `serial` numbers the event: the
    /// current event's by default; 0 ("unknown") for a hypothetical one (``canHandle(_:)``),
    /// which must not be taken for the event being processed.
    ///
    /// Inlinable, so that it is specialized with the guard or action that asks for it: called
    /// unspecialized, the environment was built and destroyed through generic metadata at every
    /// evaluation (about 400 instructions of an SCXML guard's 1,900).
    @inlinable
    func environment(event: ChartEvent<Event>?, serial: UInt64? = nil) -> ChartEnvironment<Event> {
        ChartEnvironment(
            event: event, eventSerial: serial ?? scope.eventSerial, now: scope.machineTime, bits: configuration.words, names: chart.names)
    }
}
