import Statechart
import StatechartECMAScript

/// Turns an ``XMLTree`` into a ``ChartDefinition``.
///
/// Two loops over the flat element array, which is in document order: the first checks every
/// element (name, place, attributes, values) and converts it to an ``Item``, so the first problem
/// in the document is the one reported; the second adds states, transitions and executable
/// content to the definition. Neither recurses.
struct SCXMLBuilder {
    typealias Definition = ChartDefinition<SCXMLEvent, SCXMLContext>

    /// What an element became. An item per element of the document, all alive while the
    /// definition is built, so kept small (40 bytes): an action is an index into ``actionList``
    /// (inline, its 64 bytes made every item that large), and a state's one-byte kind comes last
    /// in its payload, after the words.
    enum Item {
        case root(name: String?, initial: [String])
        case state(id: String, initial: [String]?, kind: StateKind)
        case transition(events: [String]?, cond: Guard<SCXMLEvent, SCXMLContext>?, targets: [String], kind: TransitionKind)
        case initial
        case onEntry
        case onExit
        /// The element's action: ``actionList``'s element at this index.
        case action(Int32)
        /// Data elements and content the step compiler reads (``SCXMLStepCompiler``).
        case other
    }

    /// The document. Its elements are released once checked when ``releasesCheckedTree`` says so
    /// and nothing reads them afterwards (see ``build(defaultName:)``).
    private(set) var tree: XMLTree
    /// Whether the builder holds the only reference to ``tree``: releasing the elements of a tree
    /// that its caller holds too would free nothing.
    let releasesCheckedTree: Bool
    /// What the definition is built from besides the items, made from the tree once every
    /// element is checked (empty until then).
    private(set) var links = SCXMLElementLinks()
    var items: [Item] = []
    /// The actions of the `.action` items, in document order.
    var actionList: [Action<SCXMLEvent, SCXMLContext>] = []
    /// The ids of the document's state elements, and those generated so far: made only when a
    /// state without an id needs one generated, since most documents give every state its id and
    /// hashing each of them would be work for nothing.
    var usedIDs: Set<String>?
    var stateOrdinal = 0
    /// The document's data model (its root's `datamodel`).
    var dataModel = SCXMLDataModelKind.null
    /// Executable content compiled to steps (data model charts, and `<if>` under the null one).
    var compiler: SCXMLStepCompiler?
    /// The `cond`s of a document without a `datamodel` attribute, by text: parsed once, while
    /// deciding that the document needs no data model (``nullDataModelConditions(_:)``), and used
    /// from here rather than parsed again.
    var nullConditions = SCXMLTextCache<SCXMLCondition>()
    /// The `event` lists read so far, checked, by the attribute's text: a document names the
    /// same few events on thousands of transitions, and a list read anew for each was an array
    /// to allocate (some 200 instructions), check, keep in the definition and free. Shared, one
    /// list serves them all.
    var eventLists = SCXMLTextCache<[String]>()
    /// The same for `cond`s under the null data model: each text's guard, made once (a parse
    /// and two allocations each), shared by every transition that writes it.
    var nullGuards = SCXMLTextCache<Guard<SCXMLEvent, SCXMLContext>>()
    /// The schema's tables by kind, copied once for the document: read as globals, each use went
    /// through `swift_once` (``SCXMLElementKind/Rules``).
    let rules = SCXMLElementKind.rules
    /// Whether state ids must be XML IDs (``SCXMLLoadOptions/requiresXMLIDs``, rule R76).
    let requiresXMLIDs: Bool

    /// Reads `src` attributes (rule R84).
    let sources: SCXMLExternalSources
    /// How the document is loaded: invoked documents are loaded the same way (rule R86).
    let options: SCXMLLoadOptions

    init(tree: XMLTree, requiresXMLIDs: Bool = true) {
        self.init(tree: tree, options: SCXMLLoadOptions(requiresXMLIDs: requiresXMLIDs))
    }

    /// A builder of the definition of `tree`; `releasesCheckedTree` when the caller hands over its
    /// only reference to the tree.
    init(tree: consuming XMLTree, options: SCXMLLoadOptions, releasesCheckedTree: Bool = false) {
        self.tree = tree
        self.releasesCheckedTree = releasesCheckedTree
        self.requiresXMLIDs = options.requiresXMLIDs
        self.options = options
        self.sources = SCXMLExternalSources(baseURL: options.baseURL, limit: options.limits.maximumFileSize)
    }

    /// Checks the document and builds the definition.
    mutating func build(defaultName: String) throws(SCXMLError) -> Definition {
        items.reserveCapacity(tree.elements.count)
        // The checks read each element through a pointer into the tree, field by field: handed
        // over as a value (or borrowed, which the compiler did by copying it), each element had
        // its strings and arrays retained and released.
        var stateCount = 0
        var transitionCount = 0
        var hasInvoke = false
        do {
            // A reference of this scope's own, ended before the attributes are released.
            let elements = tree.elements
            try elements.withUnsafeBufferPointer { (elements) throws(SCXMLError) in
                guard let first = elements.baseAddress else { return }
                for i in elements.indices {
                    let item = try check(first + i, at: i)
                    if first[i].kind == .invoke { hasInvoke = true }
                    switch item {
                    case .state: stateCount += 1
                    case .transition: transitionCount += 1
                    default: break
                    }
                    items.append(item)
                }
            }
        }
        guard case .root(let name, let initial) = items[0] else { preconditionFailure("the root is checked first") }
        // Only an <if> or a <send> can need the runner: the others are passed on their kind,
        // without handing the element (a copy of it) to the test.
        let needsRunner = tree.elements.indices.contains {
            tree.elements[$0].kind == .if || (tree.elements[$0].kind == .send && SCXMLStepCompiler.needsRunner(tree.elements[$0]))
        }
        if dataModel == .ecmascript || needsRunner {
            var c = SCXMLStepCompiler(tree: tree, dataModel: dataModel, limits: ScriptLimits(), sources: sources)
            c.nullConditions = nullConditions
            try c.compileAll()
            compiler = c
        }
        // Before the definition's records are made: the tree's elements may go first.
        links = SCXMLElementLinks(tree.elements)
        releaseTreeIfUnread(hasInvoke: hasInvoke)
        let elements = tree.elements
        let chartName = name ?? defaultName
        var definition = Definition(name: chartName, initial: initial, eventName: { $0.name })
        definition.reserveCapacity(states: stateCount, transitions: transitionCount)
        var nodes = Array(repeating: definition.root, count: links.count)
        var data = SCXMLDataBuilder(tree: tree, items: items, sources: sources)
        if dataModel == .ecmascript {
            try data.collect()
            let first = elements[0].children.first { SCXMLSchema.stateElements.contains(elements[$0].name) }
            let targets = initial.isEmpty ? first.flatMap { stateID(at: $0) }.map { [$0] } ?? [] : initial
            definition.setInitial(targets, actions: data.startActions(chartName: chartName, compiler: compiler), of: definition.root)
        }
        // The items and the links, not the tree: a builder that holds the only tree has released
        // its elements when nothing below reads them (``releaseTreeIfUnread(hasInvoke:)``).
        for i in 1..<links.count {
            let parent = links.parent(of: i)
            switch items[i] {
            case .state(let id, let initial, let kind):
                nodes[i] = definition.addState(
                    id, kind: kind, in: nodes[parent], initial: initial, location: links.location(of: i))
                if let lateBinding = data.lateBindingAction(for: i, stateID: id) {
                    definition.addOnEntry([lateBinding], to: nodes[i])
                }
            case .transition(let events, let cond, let targets, let kind):
                // Most transitions have no content: asked here, not in the method, whose call
                // copied the whole builder (496 bytes) for every transition.
                let actions = links.hasChildren(i) ? actions(in: i) : []
                if case .initial = items[parent] {
                    definition.setInitial(targets, actions: actions, of: nodes[links.parent(of: parent)])
                } else {
                    definition.addTransition(
                        TransitionDefinition(
                            on: events.map { .names($0) }, guard: cond, to: targets, kind: kind,
                            actions: actions, location: links.location(of: i)),
                        from: nodes[parent])
                }
            case .onEntry:
                definition.addOnEntry(actions(in: i), to: nodes[parent])
            case .onExit:
                definition.addOnExit(actions(in: i), to: nodes[parent])
            case .root, .initial, .action, .other:
                break
            }
        }
        // Every element of the tree has the kind of its name (the reader keeps only SCXML's). A
        // document with an <invoke> keeps its tree; one without may have released it.
        if hasInvoke {
            for i in elements.indices where elements[i].kind == .invoke {
                let parent = elements[i].parent
                try addInvocation(i, to: nodes[parent], of: stateID(at: parent) ?? "", in: &definition)
            }
        }
        if let compiler {
            // <donedata> is evaluated after the final state's <onentry>, when its done event is made;
            // a top-level final's is the data of the session's end (`done.invoke.<id>`, key "").
            for i in elements.indices where elements[i].kind == .donedata {
                let final = elements[i].parent
                guard let parentID = elements[final].parent == 0 ? "" : stateID(at: elements[final].parent) else { continue }
                definition.addOnEntry(
                    [try SCXMLDataBuilder.doneData(elements[i], of: parentID, compiler: compiler, tree: tree, index: i)],
                    to: nodes[final])
            }
        }
        return definition
    }

    /// Releases the tree's elements once every one is checked, when nothing reads them again: the
    /// items and the links hold what the definition needs, and only the step compiler, the data
    /// model and `<invoke>` go back to the elements. For a large document the elements were the
    /// largest part of the memory held while its definition is built, their attributes a sixth of
    /// it (issue 16, "Memory"); the links keep a third of an element's size.
    private mutating func releaseTreeIfUnread(hasInvoke: Bool) {
        guard releasesCheckedTree, compiler == nil, dataModel == .null, !hasInvoke else { return }
        tree.elements = []
    }

    /// Compiles the `<invoke>` at `index` and declares it on its state (rule R86).
    private func addInvocation(_ index: Int, to node: Definition.Node, of stateID: String, in definition: inout Definition) throws(SCXMLError) {
        let e = tree.elements[index]
        let finalize = e.children.first { tree.elements[$0].kind == .finalize }.map { actions(in: $0) } ?? []
        let invoke = try SCXMLInvokeDefinition.compile(
            index, tree: tree, stateID: stateID, finalize: finalize, compiler: compiler, options: options,
            markup: SCXMLMarkup.element(index, in: tree))
        definition.addInvocation(
            Invocation("<invoke> of '\(stateID)'", definition: invoke) { _ in throw SCXMLSessionRequired(stateID: stateID) },
            to: node)
    }

    /// The actions of the executable content inside the element at `index`.
    private func actions(in index: Int) -> [Action<SCXMLEvent, SCXMLContext>] {
        if !links.hasChildren(index) { return [] }
        if let compiler, dataModel == .ecmascript || compiler.needsSteps(index) {
            // One block of content: its steps run together, and a failure skips the rest (R14).
            return [SCXMLDataBuilder.content(compiler.steps(in: index), markup: SCXMLMarkup.children(of: index, in: tree))]
        }
        var actions: [Action<SCXMLEvent, SCXMLContext>] = []
        links.forEachChild(of: index) { child in
            if case .action(let k) = items[child] { actions.append(actionList[Int(k)]) }
        }
        return actions
    }

    /// The id of the state element at `index` (given or generated), once checked.
    private func stateID(at index: Int) -> String? {
        if case .state(let id, _, _) = items[index] { return id }
        return nil
    }

    // MARK: - Checks

    private mutating func check(_ e: UnsafePointer<XMLElementNode>, at i: Int) throws(SCXMLError) -> Item {
        let line = e.pointee.location.line
        guard let kind = e.pointee.kind else { throw .unknownElement(e.pointee.name, line: line) }
        if i > 0 {
            if let reason = rules.unsupportedReason(of: kind) {
                throw .unsupportedElement(e.pointee.name, line: line, reason: reason)
            }
            let parent = tree.elements[e.pointee.parent].kind
            // An <invoke>'s inline <content> is the document to start: no data model needed.
            let startsDocument = kind == .content && parent == .invoke && e.pointee.attributes["expr"] == nil
            if dataModel == .null, !startsDocument, let reason = rules.nullDataModelRefusal(of: kind) {
                throw .unsupportedElement(e.pointee.name, line: line, reason: reason)
            }
            guard let parent, rules.allowedChildren(of: parent).contains(kind) else {
                throw .misplacedElement(e.pointee.name, parent: tree.elements[e.pointee.parent].name, line: line)
            }
        }
        // First a test by masks, a byte per attribute: no attribute the kind may not have, and no
        // expression under the null data model, is what almost every element passes. Made here:
        // a call of the method below copied the whole builder (496 bytes) for every element.
        // An attribute passes if the kind has it as a plain attribute, or as an expression when
        // there is a data model; one that does not may still be a literal <log expr>.
        let accepted = rules.plainAttributeMask(of: kind) | (dataModel == .null ? 0 : rules.expressionAttributeMask(of: kind))
        if !e.pointee.attributes.allKnown(in: accepted) { try checkAttributes(of: e, kind: kind) }
        let attributes = AttributeReader(element: e)
        switch kind {
        case .scxml:
            if let v = e.pointee.attributes["version"], v != "1.0" {
                throw attributes.invalid("version", v, "SCXML 1.0 documents have version=\"1.0\"")
            }
            if let v = e.pointee.attributes["binding"], v != "early" && v != "late" {
                throw attributes.invalid("binding", v, "expected 'early' or 'late'")
            }
            switch e.pointee.attributes["datamodel"] {
            case nil:
                // SCXML leaves the default to the platform (rule R82): ECMAScript for a document that
                // uses data or expressions, as SCION's and uSCXML's charts expect, else the null one.
                if let conditions = Self.nullDataModelConditions(tree) {
                    dataModel = .null
                    nullConditions = conditions
                } else {
                    dataModel = .ecmascript
                }
            case "null"?: dataModel = .null
            case "ecmascript"?: dataModel = .ecmascript
            case let v?: throw attributes.invalid("datamodel", v, "supported data models: 'null' and 'ecmascript'")
            }
            return .root(name: e.pointee.attributes["name"], initial: try attributes.tokens("initial") ?? [])
        case .state, .parallel, .final, .history:
            return try checkState(e, attributes: attributes)
        case .initial:
            try checkInitial(e)
            return .initial
        case .transition:
            return try checkTransition(e, attributes: attributes)
        case .onentry:
            return .onEntry
        case .onexit:
            return .onExit
        case .raise, .send, .cancel, .log:
            // Under a data model, the step compiler checks them (expressions are its business), and
            // so it does a send to another session (rule R86), which only the step runner makes.
            if dataModel == .ecmascript || SCXMLStepCompiler.needsRunner(e.pointee) { return .other }
            actionList.append(try SCXMLExecutableContent.action(e.pointee, attributes: attributes))
            return .action(Int32(actionList.count - 1))
        default:
            return .other
        }
    }

    /// Refuses the first attribute (by name) the element may not have, or that is an expression
    /// under the null data model: for an element that did not pass the test by masks in
    /// ``check(_:at:)``.
    private func checkAttributes(of e: UnsafePointer<XMLElementNode>, kind: SCXMLElementKind) throws(SCXMLError) {
        let plain = kind.plainAttributes
        let expressions = kind.expressionAttributes
        func refused(_ key: String) -> Bool {
            if plain.contains(key) { return false }
            guard expressions.contains(key) else { return true }
            return dataModel == .null && !Self.isNullLogLiteral(e.pointee, key)
        }
        // Sorted only when one is refused, so that the error names the same attribute every time.
        guard let key = e.pointee.attributes.keys.filter(refused).min() else { return }
        if SCXMLSchema.expressionAttributes.contains(key) {
            throw .unsupportedExpression(
                e.pointee.attributes[key] ?? "", attribute: key, element: e.pointee.name, line: e.pointee.location.line)
        }
        throw .unsupportedAttribute(key, element: e.pointee.name, line: e.pointee.location.line)
    }

    private mutating func checkState(_ e: UnsafePointer<XMLElementNode>, attributes: AttributeReader) throws(SCXMLError) -> Item {
        stateOrdinal += 1
        let id: String
        if let given = try attributes.token(.id) {
            // Ids are of type xsd:ID (rule R76): Qt and the W3C schema refuse `id="1"`, so a chart
            // this loader accepts loads elsewhere too.
            guard !requiresXMLIDs || SCXMLSchema.isXMLID(given) else {
                throw attributes.invalid(
                    "id", given,
                    "'\(given)' is not an XML ID: it must start with a letter or '_', and hold only letters, "
                        + "digits, '_', '-' and '.' (an NCName)")
            }
            id = given
        } else {
            // Inserted in place: a local copy of the set, written back, copied the whole set for
            // every generated id (quadratic in a document of states without ids).
            if usedIDs == nil { usedIDs = givenStateIDs() }
            var generated = "_\(e.pointee.name)\(stateOrdinal)"
            while usedIDs!.contains(generated) { generated += "_" }
            usedIDs!.insert(generated)
            id = generated
        }
        let kind: StateKind
        switch e.pointee.kind {
        case .parallel?: kind = .parallel
        case .final?: kind = .final
        case .history?:
            switch e.pointee.attributes[.type] ?? "shallow" {
            case "shallow": kind = .history(.shallow)
            case "deep": kind = .history(.deep)
            case let v: throw attributes.invalid("type", v, "expected 'shallow' or 'deep'")
            }
            let transitions = e.pointee.children.filter { tree.elements[$0].kind == .transition }
            if transitions.count > 1 {
                throw .invalidElement(
                    "transition", line: tree.elements[transitions[1]].location.line,
                    reason: "a <history> has at most one default transition")
            }
        default: kind = .state
        }
        let initial = try attributes.tokens(.initial)
        if let v = e.pointee.attributes[.initial], e.pointee.children.contains(where: { tree.elements[$0].kind == .initial }) {
            throw attributes.invalid(
                "initial", v, "a state cannot have both an initial attribute and an <initial> element")
        }
        return .state(id: id, initial: initial, kind: kind)
    }

    /// The `id`s written on the document's state elements.
    private func givenStateIDs() -> Set<String> {
        var ids: Set<String> = []
        for i in tree.elements.indices where rules.states.contains(tree.elements[i].kind) {
            if let id = tree.elements[i].attributes["id"] { ids.insert(id) }
        }
        return ids
    }

    private func checkInitial(_ e: UnsafePointer<XMLElementNode>) throws(SCXMLError) {
        let siblings = tree.elements[e.pointee.parent].children.filter { tree.elements[$0].kind == .initial }
        if siblings.count > 1, let second = siblings.dropFirst().first {
            throw .invalidElement(
                "initial", line: tree.elements[second].location.line, reason: "a state has at most one <initial>")
        }
        guard e.pointee.children.count == 1 else {
            throw .invalidElement(
                "initial", line: e.pointee.location.line, reason: "<initial> contains exactly one <transition>")
        }
    }

    private mutating func checkTransition(_ e: UnsafePointer<XMLElementNode>, attributes: AttributeReader) throws(SCXMLError) -> Item {
        var events: [String]?
        if let text = e.pointee.attributes[.event] {
            if let checked = eventLists[text] {
                events = checked
            } else {
                events = try Self.eventList(attributes)
                if let events { eventLists.insert(events, for: text) }
            }
        }
        var cond: Guard<SCXMLEvent, SCXMLContext>?
        if let text = e.pointee.attributes[.cond] {
            if dataModel == .ecmascript {
                cond = SCXMLDataBuilder.condition(ScriptExpression(text))
            } else if let known = nullGuards[text] {
                cond = known
            } else {
                guard let parsed = nullConditions[text] ?? SCXMLCondition.parse(text) else {
                    throw .unsupportedExpression(text, attribute: "cond", element: e.pointee.name, line: e.pointee.location.line)
                }
                let made = parsed.guardCondition
                cond = made
                nullGuards.insert(made, for: text)
            }
        }
        let targets = try attributes.tokens(.target) ?? []
        let kind: TransitionKind
        switch e.pointee.attributes[.type] ?? "external" {
        case "external": kind = .external
        case "internal": kind = .internal
        case let v: throw attributes.invalid("type", v, "expected 'external' or 'internal'")
        }
        let parentKind = tree.elements[e.pointee.parent].kind
        if parentKind == .initial || parentKind == .history {
            let parent = tree.elements[e.pointee.parent].name
            if events != nil || cond != nil {
                throw .invalidElement(
                    "transition", line: e.pointee.location.line,
                    reason: "the transition of <\(parent)> has no event and no cond")
            }
            if parentKind == .initial && targets.isEmpty {
                throw .missingAttribute("target", element: "transition", line: e.pointee.location.line)
            }
        }
        return .transition(events: events, cond: cond, targets: targets, kind: kind)
    }
}

extension SCXMLBuilder {
    /// A transition's `event` list, checked: each token an event descriptor, `.*` read as `*`.
    static func eventList(_ attributes: AttributeReader) throws(SCXMLError) -> [String]? {
        // `.*` is the wildcard written as a suffix of the empty name: the same as `*`.
        var events = try attributes.tokens(.event)
        // Rewritten in place, and only where one is written: mapping every list made a new array.
        if let written = events, written.contains(".*") { events = written.map { $0 == ".*" ? "*" : $0 } }
        for token in events ?? [] where !isEventDescriptorToken(token) {
            throw attributes.invalid(
                "event", token,
                "'\(token)' is not an event descriptor: dot-separated names, optionally ending in '.*' or '.', or '*'")
        }
        return events
    }

    /// Whether `key` is the `expr` of a `<log>` that is a string literal (`expr="'pass'"`), which
    /// the null data model logs as it is: a literal reads no data (W3C test 436 logs one).
    static func isNullLogLiteral(_ e: XMLElementNode, _ key: String) -> Bool {
        guard e.name == "log", key == "expr", let value = e.attributes[key] else { return false }
        return SCXMLExecutableContent.stringLiteral(value) != nil
    }

    /// Whether a document without a `datamodel` attribute can do without a data model, and if so
    /// its `cond`s as parsed on the way, by text; `nil` when it needs one: it has an
    /// element or an expression attribute the null data model refuses, or a `cond` other than
    /// `In()` logic. The parsed `cond`s are handed on so that none is parsed a second time.
    static func nullDataModelConditions(_ tree: XMLTree) -> SCXMLTextCache<SCXMLCondition>? {
        var conditions = SCXMLTextCache<SCXMLCondition>()
        let rules = SCXMLElementKind.rules
        // Fields are read in place: binding an element to a local would copy it.
        let elements = tree.elements
        for i in elements.indices.dropFirst() {
            if let kind = elements[i].kind, rules.nullDataModelRefusal(of: kind) != nil {
                // An <invoke>'s inline <content> is the document to start, not data.
                if kind == .content && elements[elements[i].parent].kind == .invoke && elements[i].attributes["expr"] == nil {
                    continue
                }
                return nil
            }
            // Every expression attribute has an ``SCXMLAttributeName``: an element with none of them
            // is passed on its masks, without looking at names.
            if elements[i].attributes.anyKnown(in: rules.expressionAttributeNames), elements[i].attributes.keys.contains(where: {
                SCXMLSchema.expressionAttributes.contains($0) && !isNullLogLiteral(elements[i], $0)
            }) {
                return nil
            }
            // Each distinct text parsed once: a document repeats its few conditions.
            if let text = elements[i].attributes[.cond], conditions[text] == nil {
                guard let condition = SCXMLCondition.parse(text) else { return nil }
                conditions.insert(condition, for: text)
            }
        }
        return conditions
    }

    /// Whether a token of a transition's `event` is an SCXML event descriptor: `*`, or a name
    /// whose dot-separated parts are not empty and contain no `*`, optionally followed by `.*` or
    /// `.`. Anything else (`.`, `a..b`, `foo*`) would match no event the author could mean, and
    /// would not survive the normalization of `foo.*` and `foo.` to `foo` (an export could not
    /// write it back).
    static func isEventDescriptorToken(_ token: String) -> Bool {
        if token == "*" { return true }
        if let ascii = token.utf8.withContiguousStorageIfAvailable(isASCIIEventDescriptorToken), let ascii {
            return ascii
        }
        var name = Substring(token)
        if name.hasSuffix(".*") { name = name.dropLast(2) } else if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, !name.contains("*") else { return false }
        return !name.split(separator: ".", omittingEmptySubsequences: false).contains { $0.isEmpty }
    }

    /// ``isEventDescriptorToken(_:)`` on the bytes of an ASCII token (`nil` when not ASCII): the
    /// same rule without building `Character`s, for the thousands of tokens of a large document.
    private static func isASCIIEventDescriptorToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let dot = UInt8(ascii: "."), star = UInt8(ascii: "*")
        var end = bytes.count
        if end >= 2 && bytes[end - 2] == dot && bytes[end - 1] == star {
            end -= 2
        } else if end >= 1 && bytes[end - 1] == dot {
            end -= 1
        }
        guard end > 0 else { return false }
        var partIsEmpty = true
        for byte in bytes[..<end] {
            if byte == star { return false }
            if byte == dot {
                if partIsEmpty { return false }
                partIsEmpty = true
            } else {
                partIsEmpty = false
            }
        }
        return !partIsEmpty
    }
}

/// Reads and checks the attribute values of one element.
struct AttributeReader {
    /// The element's attributes, name and line: only what is read, so that making a reader
    /// copies one array and not the whole element.
    let attributes: XMLAttributes
    /// The element's kind, and its name when it has none: its name is only made for an error.
    /// (Read as the element's ``XMLElementNode/name``, a computed property, the whole element
    /// was copied for every reader made: 1.6 % of the instructions of loading a document.)
    let kind: SCXMLElementKind?
    let unknownName: String
    let line: Int

    /// The element's name, for an error.
    var elementName: String { XMLElementNode.name(kind: kind, unknownName: unknownName) }

    init(element: borrowing XMLElementNode) {
        attributes = element.attributes
        kind = element.kind
        unknownName = element.kind == nil ? element.extras?.unknownName ?? "" : ""
        line = element.location.line
    }

    /// The reader of the element at `element`, read in place.
    init(element: UnsafePointer<XMLElementNode>) {
        attributes = element.pointee.attributes
        kind = element.pointee.kind
        unknownName = element.pointee.kind == nil ? element.pointee.extras?.unknownName ?? "" : ""
        line = element.pointee.location.line
    }

    /// An error for an invalid value of this element's attribute.
    func invalid(_ attribute: String, _ value: String, _ reason: String) -> SCXMLError {
        .invalidAttributeValue(value, attribute: attribute, element: elementName, line: line, reason: reason)
    }

    /// A space-separated list that must not be empty when present.
    func tokens(_ attribute: String) throws(SCXMLError) -> [String]? {
        try tokens(attribute, attributes[attribute])
    }

    /// The list of the attribute named by's ``SCXMLAttributeName``, found without comparing strings.
    func tokens(_ attribute: SCXMLAttributeName) throws(SCXMLError) -> [String]? {
        try tokens(attribute.name, attributes[attribute])
    }

    // The attribute's name is only made for an error: for a known attribute it is read from a
    // global table, a `swift_once` at every list.
    private func tokens(_ attribute: @autoclosure () -> String, _ value: String?) throws(SCXMLError) -> [String]? {
        guard let value else { return nil }
        let tokens = XMLWhitespace.split(value)
        if tokens.isEmpty { throw invalid(attribute(), value, "expected at least one name") }
        return tokens
    }

    /// A single name (no white space) that must not be empty when present.
    func token(_ attribute: String) throws(SCXMLError) -> String? {
        try token(attribute, attributes[attribute])
    }

    /// The name in the attribute named by's ``SCXMLAttributeName``, found without comparing strings.
    func token(_ attribute: SCXMLAttributeName) throws(SCXMLError) -> String? {
        try token(attribute.name, attributes[attribute])
    }

    private func token(_ attribute: @autoclosure () -> String, _ value: String?) throws(SCXMLError) -> String? {
        guard let value else { return nil }
        if value.isEmpty { throw invalid(attribute(), value, "the value is empty") }
        if XMLWhitespace.containsSpace(value) {
            throw invalid(attribute(), value, "expected one name, without spaces")
        }
        return value
    }
}
