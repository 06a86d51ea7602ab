import Statechart
import StatechartECMAScript

/// One element of executable content, compiled when the chart loads: expressions are parsed once
/// (a syntax error is kept and raised as `error.execution` when the element runs).
struct SCXMLStep: Sendable {
    var kind: Kind
    /// The element's name and line, for errors.
    var element: String
    var line: Int
}

extension SCXMLStep {
    /// Whether the step has no content of its own (not `<if>`, not `<foreach>`): a block of such
    /// steps runs without the runner's frames (``SCXMLStepRunner/runFlat(_:scope:environment:)``).
    var isFlat: Bool {
        switch kind {
        case .branches, .foreach: return false
        case .raise, .send, .cancel, .log, .assign, .script: return true
        }
    }

    indirect enum Kind: Sendable {
    /// `<raise event>`.
    case raise(String)
    /// `<send>`.
    case send(SCXMLSendStep)
    /// `<cancel sendid|sendidexpr>`.
    case cancel(SCXMLValue)
    /// `<log label expr>`.
    case log(label: String, expr: ScriptExpression?)
    /// `<assign location expr>` or with inline content.
    case assign(location: ScriptExpression, value: SCXMLAssignedValue)
    /// `<script>`.
    case script(ScriptProgram)
    /// `<if>`/`<elseif>`/`<else>`: the first branch whose condition holds (no condition: `<else>`).
    case branches([SCXMLBranch])
    /// `<foreach array item index>`.
    case foreach(array: ScriptExpression, item: ScriptExpression, index: ScriptExpression?, body: [SCXMLStep])
    }
}

/// One branch of an `<if>`.
struct SCXMLBranch: Sendable {
    var condition: ScriptExpression?
    var steps: [SCXMLStep]
}

/// An attribute given literally (`event`) or as an expression (`eventexpr`).
enum SCXMLValue: Sendable {
    case literal(String)
    case expression(ScriptExpression)
}

/// What `<assign>` or `<data>` assigns: an expression, or the element's inline content.
enum SCXMLAssignedValue: Sendable {
    case expression(ScriptExpression)
    /// Inline text: JSON text (`[1, 2]`, `{"a": 1}`, `42`) is its value; anything else is the
    /// text space-normalized, as a string (SCXML B.2.2).
    case inline(String)
    /// Child elements: an XML value (``DataValue/xml(_:)``), such as a document to invoke.
    case markup(String)
    /// Nothing: `undefined`.
    case none
    /// A `src` that could not be read, and why: binding it is `error.execution`.
    case unavailable(String)
}

/// A `<send>`.
struct SCXMLSendStep: Sendable {
    var event: SCXMLValue?
    var target: SCXMLValue?
    var type: SCXMLValue?
    var delay: SCXMLValue?
    var id: String?
    var idLocation: ScriptExpression?
    var namelist: [ScriptExpression] = []
    var params: [SCXMLParam] = []
    var content: SCXMLAssignedValue?
    var line: Int
}

/// A `<param name expr|location>`.
struct SCXMLParam: Sendable {
    var name: String
    var value: ScriptExpression
}

/// A failure of executable content: raised as `error.execution`, and the rest of the block is
/// skipped (SCXML 5.10, rule R14).
struct SCXMLExecutionError: SendFailure, DescribedFailure, CustomStringConvertible {
    var message: String
    var element: String
    var line: Int
    /// The id of the `<send>` that failed once its id was made (its error event carries it).
    var sendID: String?

    var description: String { "<\(element)> at line \(line): \(message)" }

    /// `_event.data` of the error event: `{tagname, line, column, reason}` (the column is 0: lines
    /// are what the loader keeps for executable content).
    var errorData: DataValue {
        ["tagname": .string(element), "line": .number(Double(line)), "column": 0, "reason": .string(message)]
    }
}

extension SCXMLStep {
    /// Whether running these steps may read `_event` (``ScriptExpression/mayReadEvent`` of every
    /// expression in them, nested content included): a `<script>`, inline content (evaluated as
    /// an expression) or a `namelist` naming it does. Walked with an explicit stack, as nesting
    /// comes from the document.
    static func mayReadEvent(_ steps: [SCXMLStep]) -> Bool {
        var pending: [SCXMLStep] = steps
        func reads(_ value: SCXMLValue?) -> Bool {
            if case .expression(let e)? = value { return e.mayReadEvent }
            return false
        }
        func reads(_ value: SCXMLAssignedValue?) -> Bool {
            switch value {
            case .expression(let e)?: return e.mayReadEvent
            case .inline?: return true
            case .markup?, .none?, .unavailable?, nil: return false
            }
        }
        while let step = pending.popLast() {
            switch step.kind {
            case .raise: continue
            case .script: return true
            case .send(let s):
                if reads(s.event) || reads(s.target) || reads(s.type) || reads(s.delay) || reads(s.content)
                    || s.idLocation?.mayReadEvent == true || s.namelist.contains(where: \.mayReadEvent)
                    || s.params.contains(where: \.value.mayReadEvent)
                {
                    return true
                }
            case .cancel(let v):
                if reads(v) { return true }
            case .log(_, let e):
                if e?.mayReadEvent == true { return true }
            case .assign(let location, let value):
                if location.mayReadEvent || reads(value) { return true }
            case .branches(let branches):
                for b in branches {
                    if b.condition?.mayReadEvent == true { return true }
                    pending.append(contentsOf: b.steps)
                }
            case .foreach(let array, let item, let index, let body):
                if array.mayReadEvent || item.mayReadEvent || index?.mayReadEvent == true { return true }
                pending.append(contentsOf: body)
            }
        }
        return false
    }
}
