extension Expression {
    /// Whether evaluating this expression may read `_event` (``ScriptExpression/mayReadEvent``):
    /// it names `_event`, or calls or constructs something. Walked with an explicit stack, as
    /// nesting comes from the document.
    var mayReadEvent: Bool {
        var stack: [Expression] = [self]
        while let e = stack.popLast() {
            switch e {
            case .literal, .function, .regExp:
                // A function literal only makes a function; its body runs when called (a call).
                continue
            case .identifier(let name, _, _):
                if name.text == "_event" { return true }
            case .call, .new, .this:
                return true
            case .array(let elements, _):
                for x in elements { if let x { stack.append(x) } }
            case .object(let members, _):
                for m in members {
                    switch m {
                    case .property(_, let value), .spread(let value): stack.append(value)
                    case .computed(let key, let value): stack.append(contentsOf: [key, value])
                    }
                }
            case .member(let base, _, _, _), .unary(_, let base, _), .update(_, _, let base, _), .spread(let base, _):
                stack.append(base)
            case .index(let a, let b, _, _), .binary(_, let a, let b, _), .logical(_, let a, let b, _), .assign(_, let a, let b, _):
                stack.append(a)
                stack.append(b)
            case .chain(let first, let links):
                stack.append(first)
                for link in links { stack.append(link.operand) }
            case .conditional(let a, let b, let c, _):
                stack.append(contentsOf: [a, b, c])
            case .sequence(let list, _), .template(_, let list, _):
                stack.append(contentsOf: list)
            }
        }
        return false
    }
}
