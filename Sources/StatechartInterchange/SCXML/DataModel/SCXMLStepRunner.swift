import Statechart
import StatechartECMAScript

/// Runs compiled executable content against a machine's ``SCXMLContext``.
///
/// Iterative (a stack of frames for `<if>` branches and `<foreach>` loops), so nesting never
/// grows the native stack. The first failure throws ``SCXMLExecutionError``: the interpreter
/// raises `error.execution` and skips the rest of the block (SCXML 5.10, rule R14). The scope is
/// passed `inout` and never copied: a copy of the context would make the datamodel copy its session.
enum SCXMLStepRunner {
    typealias Scope = ActionScope<SCXMLEvent, SCXMLContext>

    private enum Frame {
        case block([SCXMLStep], next: Int)
        /// A `<foreach>` over `count` items held in the data model's iteration `slot`.
        case loop(SCXMLStep, slot: Int, count: Int, next: Int)
    }

    /// Runs a block of steps with `_event` bound to the event being processed (when the block may
    /// read it: `mayReadEvent`, ``SCXMLStep/mayReadEvent(_:)`` of the steps).
    static func run(
        _ steps: [SCXMLStep], mayReadEvent: Bool, scope: inout Scope, environment: ChartEnvironment<SCXMLEvent>
    ) throws(SCXMLExecutionError) {
        guard !steps.isEmpty else { return }
        try bindEvent(steps, mayReadEvent: mayReadEvent, scope: &scope, environment: environment)
        var frames: [Frame] = [.block(steps, next: 0)]
        // A failure leaves the loops it interrupts: their copies are released all the same.
        var loops = 0
        defer { while loops > 0 { loops -= 1; scope.context.data.endIteration(slot: loops) } }
        while let frame = frames.popLast() {
            switch frame {
            case .block(let steps, let next):
                guard next < steps.count else { continue }
                frames.append(.block(steps, next: next + 1))
                try execute(steps, at: next, loops: &loops, frames: &frames, scope: &scope, environment: environment)
            case .loop(let step, let slot, let count, let next):
                guard next < count, case .foreach(_, let item, let index, let body) = step.kind else {
                    loops -= 1
                    scope.context.data.endIteration(slot: slot)
                    continue
                }
                frames.append(.loop(step, slot: slot, count: count, next: next + 1))
                try attempt(step) { () throws(ScriptError) in
                    try scope.context.data.assignIterationItem(slot: slot, at: next, to: item)
                    if let index { try scope.context.data.assign(index, .number(Double(next))) }
                }
                frames.append(.block(body, next: 0))
            }
        }
    }

    /// Runs a block of steps none of which has content of its own (``SCXMLStep/isFlat``), with
    /// `_event` bound to the event being processed: ``run(_:mayReadEvent:scope:environment:)`` without frames.
    static func runFlat(
        _ steps: [SCXMLStep], mayReadEvent: Bool, scope: inout Scope, environment: ChartEnvironment<SCXMLEvent>
    ) throws(SCXMLExecutionError) {
        guard !steps.isEmpty else { return }
        try bindEvent(steps, mayReadEvent: mayReadEvent, scope: &scope, environment: environment)
        // Flat steps push no frame: the list stays empty (and unallocated). By index: a step
        // copied out of the list is two reference counts.
        var loops = 0
        var frames: [Frame] = []
        for i in steps.indices {
            try execute(steps, at: i, loops: &loops, frames: &frames, scope: &scope, environment: environment)
        }
    }

    /// Binds `_event` before a block (not empty) runs, unless nothing in it can read it (a
    /// failure is the first step's `error.execution`).
    @inline(__always)
    private static func bindEvent(
        _ steps: [SCXMLStep], mayReadEvent: Bool, scope: inout Scope, environment: ChartEnvironment<SCXMLEvent>
    ) throws(SCXMLExecutionError) {
        guard scope.context.data.needsEvent(mayRead: mayReadEvent) else { return }
        try attempt(steps[0]) { () throws(ScriptError) in try SCXMLEventBinding.bind(environment, in: &scope.context) }
    }

    /// Runs one step; pushes the frame to run next when the step has content of its own (a
    /// pushed frame, not a returned `Frame?`: destroying the optional cost more than `<raise>`).
    ///
    /// The step is named by its list and index, and read there: passed as a value, it was
    /// copied out of the list for the call (its kind and its element's name, two reference
    /// counts), although most steps only read their kind.
    private static func execute(
        _ steps: [SCXMLStep], at position: Int, loops: inout Int, frames: inout [Frame], scope: inout Scope,
        environment: ChartEnvironment<SCXMLEvent>
    ) throws(SCXMLExecutionError) {
        switch steps[position].kind {
        case .raise(let event):
            scope.raise(SCXMLEvent(event, kind: .internal))
        case .send(let send):
            try SCXMLSendRunner.send(send, step: steps[position], scope: &scope, environment: environment)
        case .cancel(let id):
            let value = try string(id, steps[position], &scope, environment)
            scope.cancel(sendID: value)
            // A delayed send to another session waits in the outbox (rule R86).
            scope.context.links.outbox.removeAll { $0.due != nil && $0.event.sendID == value }
        case .log(let label, let expr):
            guard let expr else { return scope.log(label) }
            let value = try attempt(steps[position]) { () throws(ScriptError) in try scope.context.data.evaluateString(expr, in: environment) }
            scope.log(label.isEmpty ? value : "\(label): \(value)")
        case .assign(let location, .expression(let e)) where location.isLocation:
            // The usual `<assign location expr>`, matched without copying the whole value.
            try attempt(steps[position]) { () throws(ScriptError) in try scope.context.data.assign(location, from: e, in: environment) }
        case .assign(let location, let value):
            try attempt(steps[position]) { () throws(ScriptError) in
                guard location.isLocation else {
                    throw ScriptError(.syntax, "'\(location.source)' is not a location")
                }
                try assign(value, to: location, &scope.context.data, environment)
            }
        case .script(let program):
            try attempt(steps[position]) { () throws(ScriptError) in try scope.context.data.run(program, in: environment) }
        case .branches(let branches):
            for branch in branches {
                guard let condition = branch.condition else { return frames.append(.block(branch.steps, next: 0)) }
                let holds = try attempt(steps[position]) { () throws(ScriptError) in
                    try scope.context.data.evaluateCondition(condition, in: environment)
                }
                if holds { return frames.append(.block(branch.steps, next: 0)) }
            }
        case .foreach(let array, let item, let index, _):
            let items = try attempt(steps[position]) { () throws(ScriptError) -> Int in
                for location in [item] + (index.map { [$0] } ?? []) {
                    guard location.isLocation, isIdentifier(location.source) || scope.context.data.isDeclared(location.source)
                    else { throw ScriptError(.syntax, "'\(location.source)' is not a variable name") }
                    if isIdentifier(location.source), !scope.context.data.isDeclared(location.source) {
                        try scope.context.data.declare(location.source, .undefined)
                    }
                }
                return try scope.context.data.beginIteration(of: array, slot: loops, in: environment)
            }
            loops += 1
            frames.append(.loop(steps[position], slot: loops - 1, count: items, next: 0))
        }
    }

    /// A literal attribute, or its `…expr` evaluated to a string.
    static func string(_ value: SCXMLValue, _ step: SCXMLStep, _ scope: inout Scope, _ environment: ChartEnvironment<SCXMLEvent>) throws(SCXMLExecutionError) -> String {
        switch value {
        case .literal(let s): return s
        case .expression(let e):
            return try attempt(step) { () throws(ScriptError) in try scope.context.data.evaluateString(e, in: environment) }
        }
    }

    /// Assigns what `<assign>` or `<data>` holds to a location: an expression's value as it is
    /// (objects keep their identity, functions can be assigned), inline content as its value.
    static func assign(
        _ value: SCXMLAssignedValue, to location: ScriptExpression, _ data: inout ECMAScriptDataModel,
        _ environment: ChartEnvironment<SCXMLEvent>
    ) throws(ScriptError) {
        if case .expression(let e) = value { return try data.assign(location, from: e, in: environment) }
        try data.assign(location, try inlineValue(value, &data, environment))
    }

    /// The value of `<assign>`, `<data>` or `<content>`.
    static func inlineValue(_ value: SCXMLAssignedValue, _ data: inout ECMAScriptDataModel, _ environment: ChartEnvironment<SCXMLEvent>) throws(ScriptError) -> DataValue {
        switch value {
        case .none: return .undefined
        case .markup(let xml): return .xml(xml)
        case .unavailable(let reason): throw ScriptError(.reference, reason)
        case .expression(let e): return try data.evaluate(e, in: environment)
        case .inline(let text):
            // SCXML B.2.2: JSON text (`[1, 2]`, `{"a": 1}`, `42`, `"text"`) is its value; any other
            // text is a space-normalized string, never an expression to evaluate (`foo` is the
            // string "foo", whatever a variable `foo` holds). An inline value never fails.
            return (try? data.parseJSON(text)) ?? .string(text.normalizingSpace())
        }
    }

    /// Runs `body`, turning a script error into the step's execution error.
    // The step is an autoclosure: it is only read for the error, and a step copied out of a list
    // at every call was two reference counts.
    static func attempt<T>(_ step: @autoclosure () -> SCXMLStep, _ body: () throws(ScriptError) -> T) throws(SCXMLExecutionError) -> T {
        do {
            return try body()
        } catch {
            let failed = step()
            throw SCXMLExecutionError(message: error.description, element: failed.element, line: failed.line)
        }
    }

    /// Whether `name` is an ECMAScript identifier (a `<foreach>` item or index may declare one).
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first == "$" || first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0 == "$" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}
