/// Evaluating expressions.
extension Interpreter {
    // Always inlined: most operands are literals and names, which are then read where the
    // operator evaluates them, without a call; anything else is one call away.
    @inline(__always)
    func evaluate(_ e: Expression, _ scope: Scope) throws(ScriptError) -> ScriptValue {
        switch e {
        case .literal(let l):
            switch l {
            case .undefined: return .undefined
            case .null: return .null
            case .boolean(let b): return .boolean(b)
            case .number(let n): return .number(n)
            case .string(let s): return .string(s)
            }
        case .identifier(let name, let hint, let line):
            try step(line)
            return try lookup(name, hint: hint, in: scope, line: line)
        default:
            try enter(e.line)
            defer { leave() }
            try step(e.line)
            return try evaluateCompound(e, scope)
        }
    }

    private func evaluateCompound(_ e: Expression, _ scope: Scope) throws(ScriptError) -> ScriptValue {
        switch e {
        case .literal, .identifier:
            return try evaluate(e, scope)
        case .this:
            return scope.currentThis
        case .regExp(let program, let line):
            return try makeRegExp(program, line: line)
        case .template(let strings, let expressions, let line):
            // Each value is a string within the budget already; the whole is charged as `+` is.
            var text = strings[0]
            for (k, e) in expressions.enumerated() {
                text += try toStringValue(try evaluate(e, scope), line: line)
                text += strings[k + 1]
            }
            return try makeString(text, line: line)
        case .array(let elements, let line):
            return try makeArray(try evaluateList(elements, scope), line: line)
        case .object(let members, let line):
            let o = try makeObject(line: line)
            for member in members {
                switch member {
                case .property(let key, let value):
                    try charge(32 + key.utf8.count, line: line)
                    o.set(key, try evaluate(value, scope))
                case .computed(let keyExpression, let value):
                    let key = try toPropertyKey(try evaluate(keyExpression, scope), line: line)
                    try charge(32 + key.utf8.count, line: line)
                    o.set(key, try evaluate(value, scope))
                case .spread(let sourceExpression):
                    // `null`, `undefined` and other primitives add none (a string's characters
                    // aside, not copied).
                    try copyOwnProperties(of: try evaluate(sourceExpression, scope), to: .object(o), line: line)
                }
            }
            return .object(o)
        case .spread(_, let line):
            throw ScriptError(.syntax, "'...' outside an array literal or an argument list", line: line)
        case .function(let f):
            try charge(64, line: f.line)
            hasScriptFunctions = true
            return .object(track(ScriptObject(.function(.script(f, scope)))))
        case .member(let base, let name, let optional, let line):
            let object = try evaluate(base, scope)
            if optional && object.isNullish { return .undefined }
            return try property(of: object, name, line: line)
        case .index(let base, let key, let optional, let line):
            let object = try evaluate(base, scope)
            if optional && object.isNullish { return .undefined }
            return try property(of: object, key: try evaluate(key, scope), line: line)
        case .call(let callee, let arguments, let optional, let line):
            return try evaluateCall(callee, arguments, optional: optional, scope, line: line)
        case .new(let callee, let arguments, let line):
            let constructor = try evaluate(callee, scope)
            return try construct(constructor, try evaluateList(arguments, scope), line: line)
        case .unary(let op, let operand, let line):
            return try evaluateUnary(op, operand, scope, line: line)
        case .update(let increment, let prefix, let target, let line):
            let old = try toNumber(try evaluate(target, scope), line: line)
            let new = increment ? old + 1 : old - 1
            try store(.number(new), into: target, scope, line: line)
            return .number(prefix ? new : old)
        case .binary(let op, let left, let right, let line):
            let l = try evaluate(left, scope)
            let r = try evaluate(right, scope)
            return try binary(op, l, r, line: line)
        case .logical(let op, let left, let right, _):
            let l = try evaluate(left, scope)
            switch op {
            case .and: return l.truthy ? try evaluate(right, scope) : l
            case .or: return l.truthy ? l : try evaluate(right, scope)
            case .coalesce: return l.isNullish ? try evaluate(right, scope) : l
            }
        case .conditional(let test, let then, let otherwise, _):
            return try evaluate(test, scope).truthy ? try evaluate(then, scope) : try evaluate(otherwise, scope)
        case .assign(let op, let target, let valueExpression, let line):
            let value: ScriptValue
            switch op {
            case .plain:
                value = try evaluate(valueExpression, scope)
            case .compound(let binaryOp):
                let old = try evaluate(target, scope)
                value = try binary(binaryOp, old, try evaluate(valueExpression, scope), line: line)
            case .logical(let logicalOp):
                let old = try evaluate(target, scope)
                switch logicalOp {
                case .and where !old.truthy, .or where old.truthy: return old
                case .coalesce where !old.isNullish: return old
                default: value = try evaluate(valueExpression, scope)
                }
            }
            try store(value, into: target, scope, line: line)
            return value
        case .chain(let first, let links):
            var value = try evaluate(first, scope)
            for link in links {
                switch link.op {
                case .binary(let op):
                    value = try binary(op, value, try evaluate(link.operand, scope), line: link.line)
                case .logical(.and): if value.truthy { value = try evaluate(link.operand, scope) }
                case .logical(.or): if !value.truthy { value = try evaluate(link.operand, scope) }
                case .logical(.coalesce): if value.isNullish { value = try evaluate(link.operand, scope) }
                }
            }
            return value
        case .sequence(let list, _):
            var last = ScriptValue.undefined
            for x in list { last = try evaluate(x, scope) }
            return last
        }
    }

    private func evaluateUnary(_ op: UnaryOperator, _ operand: Expression, _ scope: Scope, line: Int) throws(ScriptError) -> ScriptValue {
        switch op {
        case .typeof:
            if case .identifier(let name, _, _) = operand, !isDeclared(name.text, in: scope) { return .string("undefined") }
            return .string(try evaluate(operand, scope).typeName)
        case .delete:
            switch operand {
            case .member(let base, let name, _, _):
                return .boolean(try deleteProperty(try evaluate(base, scope), name, line: line))
            case .index(let base, let key, _, _):
                let object = try evaluate(base, scope)
                return .boolean(try deleteProperty(object, try toPropertyKey(try evaluate(key, scope), line: line), line: line))
            default:
                _ = try evaluate(operand, scope)
                return .boolean(true)
            }
        case .void:
            _ = try evaluate(operand, scope)
            return .undefined
        case .not: return .boolean(!(try evaluate(operand, scope).truthy))
        case .minus: return .number(-(try toNumber(try evaluate(operand, scope), line: line)))
        case .plus: return .number(try toNumber(try evaluate(operand, scope), line: line))
        case .bitwiseNot: return .number(Double(~toInt32(try toNumber(try evaluate(operand, scope), line: line))))
        }
    }

    private func evaluateCall(
        _ callee: Expression, _ arguments: [Expression], optional: Bool, _ scope: Scope, line: Int
    ) throws(ScriptError) -> ScriptValue {
        var this = ScriptValue.undefined
        let function: ScriptValue
        switch callee {
        case .member(let base, let name, let optionalMember, _):
            this = try evaluate(base, scope)
            if optionalMember && this.isNullish { return .undefined }
            function = try property(of: this, name, line: line)
        case .index(let base, let key, let optionalMember, _):
            this = try evaluate(base, scope)
            if optionalMember && this.isNullish { return .undefined }
            function = try property(of: this, key: try evaluate(key, scope), line: line)
        default:
            function = try evaluate(callee, scope)
        }
        if optional && function.isNullish { return .undefined }
        let values = try evaluateList(arguments, scope)
        guard case .object(let f) = function, f.isCallable else {
            throw typeError("\(describe(callee)) is not a function", line: line)
        }
        return try call(f, this: this, values, line: line)
    }

    /// Calls a function object.
    func call(_ f: ScriptObject, this: ScriptValue, _ arguments: [ScriptValue], line: Int) throws(ScriptError) -> ScriptValue {
        guard case .function(let kind) = f.storage else { throw typeError("not a function", line: line) }
        try enter(line)
        defer { leave() }
        switch kind {
        case .native(_, let body):
            return try body(self, this, arguments)
        case .boundNative(_, let receiver, let body):
            return try body(self, receiver, arguments)
        case .script(let literal, let closure):
            let scope = Scope(parent: closure, holdsVars: true)
            scope.thisValue = literal.isArrow ? closure.currentThis : this
            for name in literal.varNames { scope.declare(name, .undefined) }
            for (i, parameter) in literal.parameters.enumerated() {
                let value = i < arguments.count ? arguments[i] : .undefined
                if case .name(let name) = parameter.target, parameter.defaultValue == nil {
                    scope.declare(name, value)
                } else {
                    try bindElement(parameter, value, as: .parameter, in: scope, line: literal.line)
                }
            }
            if let rest = literal.rest {
                let after = arguments.count > literal.parameters.count ? Array(arguments[literal.parameters.count...]) : []
                try bind(rest, try makeArray(after, line: line), as: .parameter, in: scope, line: literal.line)
            }
            if !literal.isArrow {
                scope.declare("arguments", try makeArray(arguments, line: line))
            }
            if let name = literal.name, scope.binding(name) == nil { scope.declare(name, .object(f)) }
            switch try execute(literal.body, scope) {
            case .returned(let v): return v
            default: return .undefined
            }
        }
    }

    /// `new F(…)`: built-in constructors, or a script function with a fresh `this`.
    func construct(_ constructor: ScriptValue, _ arguments: [ScriptValue], line: Int) throws(ScriptError) -> ScriptValue {
        guard case .object(let f) = constructor, case .function(let kind) = f.storage else {
            throw typeError("\(constructor.displayString) is not a constructor", line: line)
        }
        switch kind {
        case .native(let name, _):
            return try constructBuiltin(name, f, arguments, line: line)
        case .boundNative:
            throw typeError("a method is not a constructor", line: line)
        case .script(let literal, _):
            if literal.isArrow { throw typeError("an arrow function is not a constructor", line: line) }
            let object = try makeObject(line: line)
            if case .object(let proto) = try property(of: constructor, "prototype", line: line) { object.prototype = proto }
            let result = try call(f, this: .object(object), arguments, line: line)
            if case .object = result { return result }
            return .object(object)
        }
    }

    /// Assigns to an identifier or a member.
    func store(_ value: ScriptValue, into target: Expression, _ scope: Scope, line: Int) throws(ScriptError) {
        switch target {
        case .identifier(let name, let hint, _):
            try assign(name, hint: hint, value, in: scope, line: line)
        case .member(let base, let name, _, _):
            try setProperty(of: try evaluate(base, scope), name, value, line: line)
        case .index(let base, let key, _, _):
            let object = try evaluate(base, scope)
            try setProperty(of: object, key: try evaluate(key, scope), value, line: line)
        default:
            throw ScriptError(.syntax, "invalid assignment target", line: line)
        }
    }

    /// A short description of an expression for error messages (`foo.bar`, `f`).
    func describe(_ e: Expression) -> String {
        switch e {
        case .identifier(let name, _, _): return name.text
        case .member(let base, let name, _, _): return describe(base) + "." + name
        case .index(let base, .literal(.string(let key)), _, _): return describe(base) + "['\(key)']"
        case .index(let base, _, _, _): return describe(base) + "[…]"
        case .call(let callee, _, _, _): return describe(callee) + "(…)"
        case .this: return "this"
        case .literal(let l):
            switch l {
            case .undefined: return "undefined"
            case .null: return "null"
            case .boolean(let b): return b ? "true" : "false"
            case .number(let n): return formatNumber(n)
            case .string(let s): return "'\(s)'"
            }
        default: return "the expression"
        }
    }
}
