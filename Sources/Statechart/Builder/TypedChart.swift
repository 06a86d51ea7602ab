/// A compiled typed machine: the ``Chart`` plus the tables that map its indices back to the
/// user's values. Shared by every ``StateMachine`` that runs it.
public final class TypedChart<Event: Hashable & Sendable, Context>: @unchecked Sendable {
    // @unchecked: the levels' closures are `@Sendable`, the value tables hold `Hashable &
    // Sendable` state values only, and nothing here is mutated after init.

    /// The one chart the interpreter runs.
    public let chart: Chart<Event, Context>
    /// By chart index: the slot of the state's value, or -1 (the root, regions and history
    /// pseudo-states). The slots are the emitter's own table, taken over when the chart kept the
    /// emitter's order.
    @usableFromInline let slotOfIndex: [Int32]
    /// Each gathered machine's values, in slot order (``StateValueTable``): a machine attached in
    /// many places has its values, and their slots, once.
    @usableFromInline let valueTables: [any StateValueTable]
    /// Each table's first slot (``StateValueTable/slotBase``), in the same order: the table of a
    /// slot is found by bisection over these integers, without asking each table through its
    /// protocol.
    @usableFromInline let slotBases: [Int32]
    /// Each table's value type and how `AnyHashable` compares its values with other types, in
    /// the same order: a value's own table is found by comparing types, without a cast of each
    /// table.
    @usableFromInline let valueKinds: [ValueKind]
    /// The states by the slot of their value.
    @usableFromInline let statesBySlot: StatesBySlot
    let levelOfIndex: [Int32]
    let levels: TypedLevels<Context>
    /// The levels' global and final states, routes and barriers by chart index, for the checks
    /// of a state request.
    let requestRules: RequestRules
    /// Per level, the index of its container (the root for the top level).
    let containerOfLevel: [Int32]
    /// States only ever mentioned as targets, never declared (rule R65), for ``validate()``.
    let mentionedOnly: [Int32]

    /// Compiles a machine and all its attached children.
    ///
    /// Inlinable so that compiling the emitted definition (`Chart.init`, whose assembly of events,
    /// guards and actions is generic) runs specialized for the caller's event and context types;
    /// walking the machine's declarations stays in the library.
    @inlinable
    public convenience init<State>(_ machine: Machine<State, Event, Context>) throws(ChartError) {
        let emitter = try TypedChartEmitter<Event, Context>.emitting(machine)
        try self.init(emitter: emitter, chart: Chart(emitter.definition))
    }

    @usableFromInline
    init(emitter: TypedChartEmitter<Event, Context>, chart: Chart<Event, Context>) {
        self.chart = chart
        let reordered = Self.reorderedIndices(of: emitter.definition, in: chart)
        let slots = emitter.valueSlotOfNode
        let count = chart.stateCount
        let slotOfIndex: [Int32]
        let levelOfIndex: [Int32]
        if reordered == nil && slots.count == count && emitter.levelOfNode.count == count {
            slotOfIndex = slots
            levelOfIndex = emitter.levelOfNode
        } else {
            var slotTable = [Int32](repeating: -1, count: count)
            var levelTable = [Int32](repeating: -1, count: count)
            for node in 0..<slots.count {
                let i = Int(reordered?[node] ?? Int32(node))
                slotTable[i] = slots[node]
                levelTable[i] = emitter.levelOfNode[node]
            }
            slotOfIndex = slotTable
            levelOfIndex = levelTable
        }
        self.slotOfIndex = slotOfIndex
        self.levelOfIndex = levelOfIndex
        self.valueTables = emitter.valueTables
        self.slotBases = emitter.valueTables.map(\.slotBase)
        self.valueKinds = emitter.valueTables.map { ValueKind(type: $0.valueType, kind: $0.kind) }
        self.statesBySlot = StatesBySlot(slotOfIndex: slotOfIndex, slotCount: Int(emitter.slotCount))
        self.levels = emitter.levels
        self.requestRules = RequestRules(levels: emitter.levels, ruled: emitter.levelsWithRequestRules, chart: chart)
        self.containerOfLevel = emitter.containerOfLevel.map { reordered?[Int($0)] ?? $0 }
        self.mentionedOnly = emitter.mentionedOnly.compactMap { chart.state(withID: $0)?.index }
    }

    /// The chart index of each definition node, or `nil` when it is the node's own index. The
    /// compiler numbers states in document order, and the emitter adds every node in that order
    /// (a state, then what is attached to it), so the two agree; the compiler says whether they
    /// did (``Chart/numberedAsDeclared``: comparing every id cost a million-state chart 1 % of
    /// its build, issue 16), and a lookup by id is the fallback should they ever differ.
    private static func reorderedIndices(of definition: ChartDefinition<Event, Context>, in chart: Chart<Event, Context>)
        -> [Int32]?
    {
        if chart.numberedAsDeclared { return nil }
        return (0..<definition.nodeCount).map { chart.state(withID: definition.id(of: .init($0)))?.index ?? 0 }
    }

    /// The typed value of a state (`nil` for the root, regions and history pseudo-states).
    public func value(of state: ChartStateID) -> AnyHashable? { value(at: Int(state.index)) }

    /// The typed value of the state at this chart index, if it has one.
    func value(at index: Int) -> AnyHashable? {
        guard let (t, ordinal) = valueLocation(at: index) else { return nil }
        return valueTables[t].boxedValue(at: ordinal)
    }

    /// The value of the state at this chart index when it is a `T` (unboxed: `StateMachine.state`
    /// reads the top-level value this way).
    ///
    /// Inlinable: a table of `T`'s values (``valueKinds`` says which) is read specialized for
    /// `T`. Through ``StateValueTable/value(at:as:)``, in the library, the read cast the value at
    /// run time and looked up its metadata (issue 16).
    @inlinable
    func value<T: Hashable & Sendable>(at index: Int, as type: T.Type) -> T? {
        guard let (t, ordinal) = valueLocation(at: index) else { return nil }
        // A table of another type holds no `T`.
        return valueKinds[t].type == ObjectIdentifier(T.self) ? table(t, of: T.self).values[ordinal] : nil
    }

    /// The value of the state at this chart index as a `T`, as `value(of:)?.base as? T` casts
    /// it: read in place from a table of `T`'s values, and cast from a table of another type only
    /// when a cast can succeed (`castsOthers`, worked out at the first such table of a query and
    /// kept by the caller for the next).
    ///
    /// Inlinable: boxing each active state's value and casting it through the runtime cost
    /// `activeState(of:)` about 16,000 instructions in a machine of four levels (issue 16).
    @inlinable
    func value<T: Hashable & Sendable>(at index: Int, castTo type: T.Type, castsOthers: inout Bool?) -> T? {
        guard let (t, ordinal) = valueLocation(at: index) else { return nil }
        let kind = valueKinds[t]
        if kind.type == ObjectIdentifier(T.self) { return table(t, of: T.self).values[ordinal] }
        if kind.kind != .represented && kind.kind != .object {
            // A number or a value of a plain type (an enum, a struct) casts only to an optional
            // of its own type or to a class it bridges to.
            if castsOthers == nil { castsOthers = mayCastOthers(to: T.self) }
            if castsOthers == false { return nil }
        }
        return castValue(at: ordinal, in: t, to: T.self)
    }

    /// Whether a state whose value equals `value` as `AnyHashable` compares them is active in
    /// `configuration`, or is the final state `endedIn` (-1 while the machine runs): what
    /// ``StateMachine/isActive(_:)`` answers.
    @inlinable
    func isActive<T: Hashable & Sendable>(_ value: T, in configuration: Configuration, endedIn: Int32) -> Bool {
        var active = false
        forEachIndex(of: value) { i in
            if i == endedIn || configuration.contains(i) { active = true }
        }
        return active
    }

    /// The values of the states active in `configuration` that cast to `T`, in document order,
    /// after the final state `endedIn`: what ``StateMachine/activeStates(of:)`` answers.
    @inlinable
    func activeStates<T: Hashable & Sendable>(of type: T.Type, in configuration: Configuration, endedIn: Int32) -> [T] {
        var found: [T] = []
        forEachActiveValue(of: type, in: configuration, endedIn: endedIn) { found.append($0) }
        return found
    }

    /// The one value of ``activeStates(of:in:endedIn:)``, or `nil` when there is none or more than
    /// one: what ``StateMachine/activeState(of:)`` answers.
    @inlinable
    func activeState<T: Hashable & Sendable>(of type: T.Type, in configuration: Configuration, endedIn: Int32) -> T? {
        var found: T?
        var count = 0
        forEachActiveValue(of: type, in: configuration, endedIn: endedIn) { value in
            count += 1
            found = value
        }
        return count == 1 ? found : nil
    }

    /// Calls `body` with the value of each state active in `configuration` that casts to `T`, in
    /// document order, after the final state `endedIn` (-1 while the machine runs): read in place,
    /// without a list of the active states or a box per value (``value(at:castTo:castsOthers:)``).
    @inlinable
    func forEachActiveValue<T: Hashable & Sendable>(
        of type: T.Type, in configuration: Configuration, endedIn: Int32, _ body: (T) -> Void
    ) {
        var castsOthers: Bool?
        if endedIn >= 0, !configuration.contains(endedIn),
            let v = value(at: Int(endedIn), castTo: T.self, castsOthers: &castsOthers)
        {
            body(v)
        }
        var k = 0
        while k < configuration.count {
            let s = configuration[k]
            k += 1
            if let v = value(at: Int(s), castTo: T.self, castsOthers: &castsOthers) { body(v) }
        }
    }

    /// Whether a value of another type than `T`, a number or of a plain type, may cast to `T`: when
    /// `T` is an optional (of that type) or a class (the value may bridge to it). Known from
    /// the kind of a table of `T`'s values when the chart has one, without asking the runtime.
    @inlinable
    func mayCastOthers<T: Hashable & Sendable>(to type: T.Type) -> Bool {
        for k in valueKinds where k.type == ObjectIdentifier(T.self) && k.kind != .empty {
            return k.kind == .represented || k.kind == .object
        }
        return T.self is any OptionalValue.Type || T.self is AnyObject.Type
    }

    /// The value at `ordinal` of table `t`, boxed and cast to `T` (out of line: the path of the
    /// casts that may succeed).
    @inlinable @inline(never)
    func castValue<T: Hashable & Sendable>(at ordinal: Int, in t: Int, to type: T.Type) -> T? {
        valueTables[t].boxedValue(at: ordinal).base as? T
    }

    /// Every state whose value is `value` (one unless a machine is attached in several places).
    public func states<T: Hashable & Sendable>(for value: T) -> [ChartStateID] {
        indices(of: value).map(ChartStateID.init)
    }

    /// The chart indices of the states whose value equals `value` as `AnyHashable` compares them,
    /// in index order: each machine's table is asked (a lookup in its own dictionary when the
    /// types agree), then each slot found lists its states.
    func indices<T: Hashable & Sendable>(of value: T) -> [Int32] {
        var found: [Int32] = []
        var sorted = true
        forEachIndex(of: value) { index in
            if let last = found.last, last > index { sorted = false }
            found.append(index)
        }
        // Values equal across machines (an `Int` state at two levels): their states in index order.
        if !sorted { found.sort() }
        return found
    }

    /// The table at `t` as the table of `T`'s values; ``valueKinds`` has said it is one.
    @inlinable
    func table<T: Hashable & Sendable>(_ t: Int, of type: T.Type) -> StateValues<T> {
        unsafeDowncast(valueTables[t], to: StateValues<T>.self)
    }

    /// Where the value of the state at this chart index is kept: the index in ``valueTables`` of
    /// its table and its ordinal there, or `nil` for a state without a value (the root, regions,
    /// history pseudo-states). The one lookup every read of a value shares.
    @inlinable
    func valueLocation(at index: Int) -> (table: Int, ordinal: Int)? {
        let slot = slotOfIndex[index]
        guard slot >= 0 else { return nil }
        let t = tableIndex(holding: slot)
        return (t, Int(slot - slotBases[t]))
    }

    /// The index in ``valueTables`` of the table that holds `slot`.
    @inlinable
    func tableIndex(holding slot: Int32) -> Int { valueTableIndex(holding: slot, slotBases: slotBases) }

    /// Whether the machine level of the state at `index` runs: its container is active (the
    /// root's level runs while the machine does), in a machine whose active states are
    /// `configuration`.
    @usableFromInline
    func isLevelActive(of index: Int32, running: Bool, in configuration: Configuration) -> Bool {
        let level = levelOfIndex[Int(index)]
        guard level >= 0 else { return false }
        let container = containerOfLevel[Int(level)]
        return container == 0 ? running : configuration.contains(container)
    }

    /// Calls `body` with the chart index of each state whose value equals `value` as
    /// `AnyHashable` compares them: in index order for each machine's table, the tables in slot
    /// order. Nothing is allocated (a state request reads it for every request).
    ///
    /// Inlinable: a table of `T`'s own values (``valueKinds`` says which: no cast of each table)
    /// is asked directly, its dictionary looked up specialized for `T` (through `T`'s witnesses,
    /// in the library, about 800 instructions a request, issue 16). A table of another type is
    /// asked through
    /// ``StateValueTable/ordinal(matching:)``, which keeps `AnyHashable`'s equality, with the
    /// value boxed once for all such tables (``ForeignValue``), and only when the two types can
    /// be equal that way: a value of a type whose table says it is
    /// ``AnyHashableKind/plain`` (an enum of states) can only equal a value of another type whose
    /// `AnyHashable` form is not itself. Boxing the value and working out its kind for each table
    /// of another type cost about 6,000 instructions a table (`isActive(_:)` of a machine of four
    /// levels, issue 16).
    @inlinable
    func forEachIndex<T: Hashable & Sendable>(of value: T, _ body: (Int32) -> Void) {
        let type = ObjectIdentifier(T.self)
        let kinds = valueKinds
        // How the value compares with other types: known from a table of its own type with values
        // (worked out when the chart was built), looked for at the first table of another type.
        var ownKind: AnyHashableKind?
        for t in 0..<kinds.count {
            if kinds[t].type == type {
                if let ordinal = table(t, of: T.self).ordinalOf[value] { forEachState(ofSlot: Int(slotBases[t]) + ordinal, body) }
                continue
            }
            if ownKind == nil { ownKind = kinds.first { $0.type == type && $0.kind != .empty }?.kind ?? .empty }
            if ownKind == .plain && kinds[t].kind != .represented { continue }
            // A table whose values may equal this one as `AnyHashable` compares them: it and the
            // tables after it are asked out of line, the value boxed once. (Boxed here, the
            // optional box cost every request a call to destroy it, about 60 instructions.)
            return forEachIndex(comparing: value, from: t, body)
        }
    }

    /// ``forEachIndex(of:_:)`` from table `first` on, each table of another type asked with the
    /// value boxed once (``ForeignValue``).
    @inlinable @inline(never)
    func forEachIndex<T: Hashable & Sendable>(comparing value: T, from first: Int, _ body: (Int32) -> Void) {
        let foreign = ForeignValue(value)
        for t in first..<valueKinds.count {
            let found =
                valueKinds[t].type == ObjectIdentifier(T.self)
                ? table(t, of: T.self).ordinalOf[value] : valueTables[t].ordinal(matching: foreign)
            if let ordinal = found { forEachState(ofSlot: Int(slotBases[t]) + ordinal, body) }
        }
    }

    /// Calls `body` with each state whose value has this slot, in index order.
    @inlinable
    func forEachState(ofSlot slot: Int, _ body: (Int32) -> Void) {
        var i = Int(statesBySlot.start[slot])
        let end = Int(statesBySlot.start[slot + 1])
        while i < end {
            body(statesBySlot.indices[i])
            i += 1
        }
    }
}

/// The index of the value table that holds `slot`, found by bisection over the tables' first
/// slots `slotBases` (ascending, the first 0). The bounds cannot overflow (`0 ≤ low ≤ high <
/// count`), so the arithmetic wraps without checks and the reads are unchecked: with the checks,
/// the bisection was half of what `activeState(of:)` costs (issue 16).
@inlinable
func valueTableIndex(holding slot: Int32, slotBases: [Int32]) -> Int {
    slotBases.withUnsafeBufferPointer { bases in
        var low = 0
        var high = bases.count &- 1
        while low < high {
            let middle = (low &+ high &+ 1) &>> 1
            if bases[middle] <= slot { low = middle } else { high = middle &- 1 }
        }
        return low
    }
}

extension TypedChart {
    /// ``Chart/validate()`` for a typed machine: state requests along declared ``Routes`` and to
    /// ``Global`` states count as ways in and out of a state, and a state that is only ever
    /// mentioned as a target — no ``When``, ``Final``, ``Global`` or flat ``Transition`` declares
    /// it — is reported as `undeclared-state` (rule R65): the builder added it, but it may be a typo.
    public func validate() -> [ChartDiagnostic] {
        chart.validate(requestEdges: requestEdges(), mentionedOnly: mentionedOnly)
    }

    /// The edges that state requests (routes and global routes of each level) add to the chart's
    /// own transitions, for reachability: from each state of a level to each state it may request.
    func requestEdges() -> [(from: Int32, to: Int32)] {
        var edges: [(from: Int32, to: Int32)] = []
        for f in 0..<levelOfIndex.count where levelOfIndex[f] >= 0 {
            guard let level = levels[Int(levelOfIndex[f])] else { continue }
            let from = chart.ids[f]
            let targets = (level.routes[from] ?? []).union(level.finals.contains(from) ? [] : level.globals)
            for to in targets.sorted() where to != from {
                if let t = chart.state(withID: to)?.index { edges.append((Int32(f), t)) }
            }
        }
        return edges
    }
}
