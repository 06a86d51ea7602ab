/// The differences between two values of the same type, as readable lines: each differing leaf
/// by its path (`payment.attempts`, `items[2]`, `cache["k"]`), expected then actual. Used by
/// `TestStore` to show how a context differs from the one a test expected (rule R78).
///
/// ```text
///   - charges: 2
///   + charges: 1
///   - log[1]: "charge"
///   + log[1]: "refund"
/// ```
///
/// It walks both values' `Mirror`s in step and stops at the first level where they differ in
/// shape (an enum case, an optional present on one side only, a collection of another length);
/// there it prints both values whole.
enum ValueDifference {
    /// The lines for `expected` against `actual`; empty when they render the same.
    static func lines(expected: Any, actual: Any) -> [String] {
        var out: [String] = []
        walk(expected, actual, path: "", into: &out)
        return out
    }

    private static func walk(_ e: Any, _ a: Any, path: String, into out: inout [String]) {
        let renderedE = String(reflecting: e), renderedA = String(reflecting: a)
        if renderedE == renderedA { return }
        let me = Mirror(reflecting: e), ma = Mirror(reflecting: a)
        let childrenE = Array(me.children), childrenA = Array(ma.children)
        let sameShape =
            !childrenE.isEmpty && childrenE.count == childrenA.count && me.displayStyle == ma.displayStyle
            && type(of: e) == type(of: a) && zip(childrenE, childrenA).allSatisfy { $0.label == $1.label }
            && me.displayStyle != .enum
        let before = out.count
        if me.displayStyle == .dictionary && ma.displayStyle == .dictionary && type(of: e) == type(of: a) {
            // Entries by key: two equal dictionaries may list them in different orders.
            let entriesE = entries(me), entriesA = entries(ma)
            for key in Set(entriesE.keys).union(entriesA.keys).sorted() {
                let keyPath = path + "[" + key + "]"
                switch (entriesE[key], entriesA[key]) {
                case (let x?, let y?): walk(x, y, path: keyPath, into: &out)
                case (let x?, nil): out.append("- \(display(keyPath)): \(String(reflecting: x))")
                case (nil, let y?): out.append("+ \(display(keyPath)): \(String(reflecting: y))")
                default: break
                }
            }
        } else if sameShape && me.displayStyle != .set && me.displayStyle != .dictionary {
            for (k, (ce, ca)) in zip(childrenE, childrenA).enumerated() {
                walk(ce.value, ca.value, path: path + component(ce, index: k, style: me.displayStyle), into: &out)
            }
        }
        // A leaf, another shape, or values that differ only in what their children do not show.
        if out.count == before {
            let name = display(path)
            out.append("- \(name): \(renderedE)")
            out.append("+ \(name): \(renderedA)")
        }
    }

    /// How a child extends the path: `.name` for a stored property, `[i]` for an element.
    private static func component(_ child: Mirror.Child, index: Int, style: Mirror.DisplayStyle?) -> String {
        switch style {
        case .collection?: return "[\(index)]"
        default: return child.label.map { "." + $0 } ?? "[\(index)]"
        }
    }

    /// A dictionary's values by the rendering of their keys.
    private static func entries(_ mirror: Mirror) -> [String: Any] {
        var out: [String: Any] = [:]
        for child in mirror.children {
            let pair = Array(Mirror(reflecting: child.value).children)
            if pair.count == 2 { out[String(reflecting: pair[0].value)] = pair[1].value }
        }
        return out
    }

    /// A path as printed: without its leading dot, `context` for the whole value.
    private static func display(_ path: String) -> String {
        path.isEmpty ? "context" : path.hasPrefix(".") ? String(path.dropFirst()) : path
    }
}
