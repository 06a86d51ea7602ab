extension ChartInstance: PeekSource {
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
        return wouldHandle(event)
    }

    /// The environment an expression sees now (rule R81), numbered with the current event's
    /// serial.
    ///
    /// Inlinable, so that it is specialized with the guard or action that asks for it: called
    /// unspecialized, the environment was built and destroyed through generic metadata at every
    /// evaluation (about 400 instructions of an SCXML guard's 1,900).
    @inlinable
    func environment(event: ChartEvent<Event>?) -> ChartEnvironment<Event> {
        ChartEnvironment(
            event: event, eventSerial: scope.eventSerial, now: scope.machineTime, bits: configuration.words, names: chart.names)
    }
}

/// What ``ChartInstance/canHandle(_:)`` reads of a running machine — its chart, configuration,
/// context and time — and the question, asked once for every kind of source: the instance
/// itself (borrowed, nothing retained) and a ``PeekView`` of a runtime's machine.
@usableFromInline
protocol PeekSource<Event, Context>: ActiveStatesSource {
    /// The extended state the guards read.
    var context: Context { get }
    /// The machine's time, as an expression sees it.
    var now: Duration { get }
}

extension PeekSource {
    /// Whether `event` would enable a transition of the running machine now (rule R59): the
    /// selection walk (rule R4) up to the first candidate that matches and whose guard holds.
    @inlinable
    func wouldHandle(_ event: Event) -> Bool {
        let e = ChartEvent<Event>.event(event)
        var walk = SelectionWalk(over: self)
        while let (t, conditional, _) = walk.nextCandidate(in: self, matching: e) {
            if conditional, let g = chart.guardCondition(of: t), !holds(g, event: e) { continue }
            return true
        }
        return false
    }

    /// Whether guard `g` holds for `event` now, evaluated without changing anything: a throwing
    /// guard counts as false, an expression runs on a copy of the context.
    @inlinable
    func holds(_ g: CompiledGuard<Event, Context>, event: ChartEvent<Event>) -> Bool {
        switch g {
        case .inState(let s): return configuration.contains(s)
        case .not(let inner): return !holds(inner, event: event)
        case .all(let gs): return gs.allSatisfy { holds($0, event: event) }
        case .any(let gs): return gs.contains { holds($0, event: event) }
        case .predicate(let p): return (try? p(context, event)) ?? false
        case .expression(_, let evaluate):
            // A copy of the context: whatever the evaluation does stays in it (rule R81).
            var context = context
            return (try? evaluate(&context, hypotheticalEnvironment(event: event))) ?? false
        case .withInput(let p):
            return (try? p(GuardInput(context: context, environment: hypotheticalEnvironment(event: event)))) ?? false
        }
    }

    /// The environment an expression sees (rule R81) for an event that is only asked about: its
    /// serial is 0 ("unknown"), which must not be taken for the event being processed.
    @inlinable
    func hypotheticalEnvironment(event: ChartEvent<Event>) -> ChartEnvironment<Event> {
        ChartEnvironment(event: event, eventSerial: 0, now: now, bits: configuration.words, names: chart.names)
    }
}

/// The four fields of a running machine that ``PeekSource`` reads, read out of a runtime's
/// driver one by one.
///
/// Why: a runtime's machine lives in its driver, a class, and a method of the machine called
/// there was handed a copy of the whole machine, every reference it holds retained and released
/// (about 1,080 instructions of `ObservableStateMachine.canSend(_:)`, issue 16).
@usableFromInline
struct PeekView<Event: Hashable & Sendable, Context>: PeekSource {
    @usableFromInline let chart: Chart<Event, Context>
    @usableFromInline let configuration: Configuration
    @usableFromInline let context: Context
    @usableFromInline let now: Duration

    @inlinable
    init(chart: Chart<Event, Context>, configuration: Configuration, context: Context, now: Duration) {
        self.chart = chart
        self.configuration = configuration
        self.context = context
        self.now = now
    }
}
