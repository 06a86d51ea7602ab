import Statechart

/// Writes a guard as a null data model `cond` expression, without recursion.
///
/// `!` binds tightest, then `&&`, then `||`; parentheses are added only where precedence needs
/// them. An empty conjunction is `true`, an empty disjunction `false`; a Swift predicate is written
/// as the call `_predicate()`, which the null data model cannot evaluate.
enum SCXMLGuardWriter {
    private enum Task {
        case visit(ChartGuardInfo, minimumPrecedence: Int)
        case join(separator: String, count: Int, prefix: String, parenthesize: Bool)
    }

    static func expression(_ g: ChartGuardInfo, ids: [String]) -> String {
        var tasks: [Task] = [.visit(g, minimumPrecedence: 0)]
        var results: [String] = []
        while let task = tasks.popLast() {
            switch task {
            case .join(let separator, let count, let prefix, let parenthesize):
                let parts = results.suffix(count)
                results.removeLast(count)
                let text = prefix + parts.joined(separator: separator)
                results.append(parenthesize ? "(" + text + ")" : text)
            case .visit(let g, let minimum):
                switch g {
                case .inState(let s):
                    let id = ids[Int(s.index)]
                    results.append(id.contains("'") ? "In(\"\(id)\")" : "In('\(id)')")
                case .predicate:
                    results.append("_predicate()")
                case .expression(let source):
                    // The text as written; parenthesized when it is combined with others.
                    results.append(minimum > 0 ? "(" + source + ")" : source)
                case .all([]):
                    results.append("true")
                case .any([]):
                    results.append("false")
                case .all(let xs) where xs.count == 1, .any(let xs) where xs.count == 1:
                    tasks.append(.visit(xs[0], minimumPrecedence: minimum))
                case .not(let x):
                    tasks.append(.join(separator: "", count: 1, prefix: "!", parenthesize: false))
                    tasks.append(.visit(x, minimumPrecedence: 3))
                case .all(let xs), .any(let xs):
                    let isAll: Bool
                    if case .all = g { isAll = true } else { isAll = false }
                    let precedence = isAll ? 2 : 1
                    tasks.append(
                        .join(
                            separator: isAll ? " && " : " || ", count: xs.count, prefix: "",
                            parenthesize: precedence < minimum))
                    for x in xs.reversed() { tasks.append(.visit(x, minimumPrecedence: precedence)) }
                }
            }
        }
        return results.last ?? "true"
    }
}
