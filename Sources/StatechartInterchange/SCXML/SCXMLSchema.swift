/// The part of the SCXML 1.0 schema this loader supports: which elements may appear where, and
/// which attributes each takes. Everything else in the SCXML namespace is refused by name.
///
/// The data elements (`<datamodel>`, `<assign>`, `<script>`…) and the expression attributes
/// (`expr`, `eventexpr`…) need `datamodel="ecmascript"`; under the null data model they are
/// refused with the reason (``nullDataModelRefusals``). `<if>`, `<elseif>` and `<else>` work under
/// both: the null data model's conditions are `In('id')` and its combinations.
enum SCXMLSchema {
    /// The children each supported element may have.
    static let allowedChildren: [String: Set<String>] = [
        "scxml": ["state", "parallel", "final", "datamodel", "script"],
        "state": ["onentry", "onexit", "transition", "initial", "state", "parallel", "final", "history", "datamodel", "invoke"],
        "parallel": ["onentry", "onexit", "transition", "state", "parallel", "history", "datamodel", "invoke"],
        "final": ["onentry", "onexit", "donedata"],
        "history": ["transition"],
        "initial": ["transition"],
        "transition": executableContent,
        "onentry": executableContent,
        "onexit": executableContent,
        "if": executableContent.union(["elseif", "else"]),
        "elseif": [],
        "else": [],
        "foreach": executableContent,
        "raise": [],
        "send": ["param", "content"],
        "cancel": [],
        "log": [],
        "assign": [],
        "script": [],
        "datamodel": ["data"],
        "data": [],
        "param": [],
        "content": [],
        "donedata": ["param", "content"],
        "invoke": ["param", "content", "finalize"],
        "finalize": executableContent,
    ]

    /// The executable content this loader runs.
    static let executableContent: Set<String> = ["raise", "send", "cancel", "log", "assign", "script", "if", "foreach"]

    /// State-like elements: each becomes a node of the chart.
    static let stateElements: Set<String> = ["state", "parallel", "final", "history"]

    /// Elements whose text is kept (a script, a value written inline).
    static let textElements: Set<String> = ["script", "data", "assign", "content"]

    /// Elements whose child elements are a value, kept as markup (``XMLElementNode/markup``): an
    /// XML value, or the SCXML document an `<invoke>` starts.
    static let markupElements: Set<String> = ["data", "assign", "content"]

    /// The attributes each supported element may have.
    static let allowedAttributes: [String: Set<String>] = [
        "scxml": ["initial", "name", "version", "datamodel", "binding"],
        "state": ["id", "initial"],
        "parallel": ["id"],
        "final": ["id"],
        "history": ["id", "type"],
        "initial": [],
        "transition": ["event", "cond", "target", "type"],
        "onentry": [],
        "onexit": [],
        "raise": ["event"],
        "send": ["event", "eventexpr", "target", "targetexpr", "delay", "delayexpr", "id", "idlocation", "type", "typeexpr", "namelist"],
        "cancel": ["sendid", "sendidexpr"],
        "log": ["label", "expr"],
        "if": ["cond"],
        "elseif": ["cond"],
        "else": [],
        "foreach": ["array", "item", "index"],
        "assign": ["location", "expr"],
        "script": ["src"],
        "datamodel": [],
        "data": ["id", "expr", "src"],
        "param": ["name", "expr", "location"],
        "content": ["expr"],
        "donedata": [],
        "invoke": ["type", "typeexpr", "src", "srcexpr", "id", "idlocation", "namelist", "autoforward"],
        "finalize": [],
    ]

    /// Attributes whose value is an expression (or a data model location) of a data model other
    /// than the null one.
    static let expressionAttributes: Set<String> = [
        "expr", "eventexpr", "targetexpr", "delayexpr", "typeexpr", "sendidexpr", "idlocation", "namelist",
        "srcexpr", "location", "array", "item", "index",
    ]

    /// SCXML elements this loader refuses whatever the data model, with the reason (none today:
    /// every SCXML 1.0 element is read).
    static let unsupportedElements: [String: String] = [:]

    /// Elements that need a data model: refused under the null one, with the reason.
    static let nullDataModelRefusals: [String: String] = [
        "datamodel": "the null data model has no data (use datamodel=\"ecmascript\")",
        "data": "the null data model has no data (use datamodel=\"ecmascript\")",
        "assign": "the null data model has no data to assign (use datamodel=\"ecmascript\")",
        "script": "the null data model has no scripts (use datamodel=\"ecmascript\")",
        "foreach": "iteration needs a data model (use datamodel=\"ecmascript\")",
        "param": "event data needs a data model (use datamodel=\"ecmascript\")",
        "content": "event data needs a data model (use datamodel=\"ecmascript\")",
        "donedata": "event data needs a data model (use datamodel=\"ecmascript\")",
    ]

    /// The Event I/O processor `type` values accepted on `<send>`: SCXML's own.
    static let sendTypes: Set<String> = ["http://www.w3.org/TR/scxml/#SCXMLEventProcessor", "scxml"]

    /// Whether `text` is an XML ID: an NCName of Namespaces in XML 1.0 (rule R76) — an XML name
    /// without a colon.
    static func isXMLID(_ text: String) -> Bool {
        var first = true
        for c in text.unicodeScalars {
            guard c != ":", first ? XMLCharacters.isNameStart(c.value) : XMLCharacters.isNameChar(c.value) else { return false }
            first = false
        }
        return !first
    }
}
