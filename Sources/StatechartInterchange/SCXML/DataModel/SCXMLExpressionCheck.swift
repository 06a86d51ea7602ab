import Statechart
import StatechartECMAScript

/// Finds the expressions and scripts of an ECMAScript chart that do not parse (rule R85), for
/// `statechart validate`: the loader keeps them (SCXML wants the chart to load and to raise
/// `error.execution` when they run), so this is where an author hears of them before that.
enum SCXMLExpressionCheck {
    /// Attributes holding an expression, and those holding a location (which must also be one).
    static let valueAttributes: Set<String> = ["cond", "expr", "eventexpr", "targetexpr", "typeexpr", "delayexpr", "sendidexpr", "array"]
    static let locationAttributes: Set<String> = ["location", "idlocation", "item", "index"]

    static func diagnostics(_ tree: XMLTree, limits: ScriptLimits = ScriptLimits()) -> [ChartDiagnostic] {
        var out: [ChartDiagnostic] = []
        func report(_ e: XMLElementNode, _ what: String, _ text: String, _ problem: String) {
            out.append(
                ChartDiagnostic(
                    .error, .invalidExpression, "<\(e.name) \(what)=\"\(text)\">: \(problem)", location: e.location))
        }
        for e in tree.elements {
            for key in e.attributes.keys.sorted() {
                guard let text = e.attributes[key] else { continue }
                if valueAttributes.contains(key) {
                    if let error = ScriptExpression(text, limits: limits).syntaxError { report(e, key, text, error.description) }
                } else if locationAttributes.contains(key) {
                    let expression = ScriptExpression(text, limits: limits)
                    if let error = expression.syntaxError {
                        report(e, key, text, error.description)
                    } else if !expression.isLocation {
                        report(e, key, text, "not a location (a variable or a member of one)")
                    }
                } else if key == "namelist" {
                    for name in text.split(whereSeparator: \.isWhitespace) where !ScriptExpression(String(name), limits: limits).isLocation {
                        report(e, key, text, "'\(name)' is not a location")
                    }
                }
            }
            if e.name == "script", e.attributes["src"] == nil, let error = ScriptProgram(e.text, limits: limits).syntaxError {
                report(e, "text", e.text.trimmingWhitespace().prefix(40) + "", error.description)
            }
        }
        return out
    }
}
