/// What a ``StateMachine`` rarely uses — observers, failed-send handlers, the undo log and
/// suspension slot, routes added at run time — kept in one box created on first use (issue 16,
/// "Memory"): a machine that never registers an observer, keeps no undo log and adds no route pays
/// one pointer for all of it instead of about a hundred bytes inline.
///
/// The box is copied on write: a copied machine shares it until either copy changes something in
/// it (``StateMachine/uniqueExtras()``), so copies never share mutable state.
@usableFromInline
final class MachineExtras<State: Hashable & Sendable, Event: Hashable & Sendable, Context> {
    // The two lists every send reads (``listens``) are not checked for exclusive access at run
    // time: the box belongs to one machine value, reached only through that value's own access,
    // which is checked, so two accesses to a list cannot overlap unless two to the machine do.
    // Checked, the two reads cost every send of a machine that has this box about 150
    // instructions (`swift_beginAccess` twice): the observable model's machine, which defers its
    // failed sends here, and any with routes added or an undo log (issue 16, "History from
    // memory, time without `Duration`").
    @exclusivity(unchecked) @usableFromInline var observers: [(id: Int, observer: (MachineTransition<State, Event>) -> Void)] = []
    @usableFromInline var nextObserverID = 0
    /// Called for every send that was rejected or failed (rule R62).
    @exclusivity(unchecked) @usableFromInline var failedSendHandlers: [(id: Int, handler: (Event, MachineError) -> Void)] = []
    /// Where failed sends go instead of the handlers while a runtime holds the machine; the
    /// runtime hands them over once it released it (``FailedSendInbox``, rule R62).
    var failedSendInbox: FailedSendInbox<Event>?
    /// The undo log and the suspension slot (rules R41, R42).
    var records = MachineRecords<State, Event, Context>()
    /// Routes added at run time and observer orders (rule R66; StateMachine+Routes.swift).
    @usableFromInline var runtimeRoutes = RuntimeRoutes<Context>()

    init() {}

    /// A copy for a machine that is about to change its extras while another copy shares them.
    init(copying other: MachineExtras) {
        observers = other.observers
        nextObserverID = other.nextObserverID
        failedSendHandlers = other.failedSendHandlers
        failedSendInbox = other.failedSendInbox
        records = other.records
        runtimeRoutes = other.runtimeRoutes
    }

    /// Whether a send must go the recorded way to notify or report (see ``StateMachine/process(_:)``).
    @inlinable var listens: Bool { !observers.isEmpty || !failedSendHandlers.isEmpty }
}

extension StateMachine {
    /// The extras, created on first change and copied first if another machine shares them.
    @usableFromInline
    mutating func uniqueExtras() -> MachineExtras<State, Event, Context> {
        if extras == nil {
            extras = MachineExtras()
        } else if !isKnownUniquelyReferenced(&extras) {
            extras = MachineExtras(copying: extras!)
        }
        return extras!
    }

    @usableFromInline var observers: [(id: Int, observer: (MachineTransition<State, Event>) -> Void)] {
        get { extras?.observers ?? [] }
        set { uniqueExtras().observers = newValue }
        _modify { yield &uniqueExtras().observers }
    }

    @usableFromInline var nextObserverID: Int {
        get { extras?.nextObserverID ?? 0 }
        set { uniqueExtras().nextObserverID = newValue }
    }

    /// Called for every send that was rejected or failed (rule R62).
    @usableFromInline var failedSendHandlers: [(id: Int, handler: (Event, MachineError) -> Void)] {
        get { extras?.failedSendHandlers ?? [] }
        set { uniqueExtras().failedSendHandlers = newValue }
        _modify { yield &uniqueExtras().failedSendHandlers }
    }

    /// The undo log and the suspension slot (rules R41, R42).
    var records: MachineRecords<State, Event, Context> {
        get { extras?.records ?? MachineRecords() }
        set { uniqueExtras().records = newValue }
        _modify { yield &uniqueExtras().records }
    }

    /// Routes added at run time and observer orders (rule R66; StateMachine+Routes.swift).
    @usableFromInline var runtimeRoutes: RuntimeRoutes<Context> {
        get { extras?.runtimeRoutes ?? RuntimeRoutes() }
        set { uniqueExtras().runtimeRoutes = newValue }
        _modify { yield &uniqueExtras().runtimeRoutes }
    }
}
