/// How a statement ended.
enum Completion {
    case normal
    case returned(ScriptValue)
    case breakLoop
    case continueLoop
}

/// Executing statements.
extension Interpreter {
    /// Runs a statement list: its function declarations first (hoisting), then each statement. A
    /// list that declares `let` or `const` gets its own block scope.
    func execute(_ statements: [Statement], _ scope: Scope, newBlock: Bool = false) throws(ScriptError) -> Completion {
        var scope = scope
        if newBlock, statements.contains(where: \.isLexicalDeclaration) {
            scope = Scope(parent: scope, holdsVars: false)
        }
        for s in statements {
            if case .function(let f) = s, let name = f.name {
                try charge(64, line: f.line)
                hasScriptFunctions = true
                scope.declare(name, .object(track(ScriptObject(.function(.script(f, scope))))))
            }
        }
        for s in statements {
            let completion = try execute(s, scope)
            if case .normal = completion { continue }
            return completion
        }
        return .normal
    }

    func execute(_ s: Statement, _ scope: Scope) throws(ScriptError) -> Completion {
        try enter(s.line)
        defer { leave() }
        try step(s.line)
        switch s {
        case .expression(let e):
            _ = try evaluate(e, scope)
        case .declaration(let kind, let list, let line):
            for (target, valueExpression) in list {
                let value = try valueExpression.map { (x) throws(ScriptError) in try evaluate(x, scope) }
                if case .name(let name) = target {
                    try declare(name, value, kind: kind, in: scope, line: line)
                } else {
                    // The parser gives a pattern a value always.
                    try bind(target, value ?? .undefined, as: .declaration(kind), in: scope, line: line)
                }
            }
        case .function:
            break  // declared when its list started
        case .block(let body):
            return try execute(body, scope, newBlock: true)
        case .if(let test, let then, let otherwise):
            if try evaluate(test, scope).truthy { return try execute(then, scope) }
            if let otherwise { return try execute(otherwise, scope) }
        case .while(let test, let body):
            while try evaluate(test, scope).truthy {
                switch try execute(body, scope) {
                case .breakLoop: return .normal
                case .returned(let v): return .returned(v)
                default: continue
                }
            }
        case .doWhile(let body, let test):
            repeat {
                switch try execute(body, scope) {
                case .breakLoop: return .normal
                case .returned(let v): return .returned(v)
                default: break
                }
            } while try evaluate(test, scope).truthy
        case .for(let initializer, let test, let update, let body, let copiesBindings):
            var loopScope = initializer?.isLexicalDeclaration == true ? Scope(parent: scope, holdsVars: false) : scope
            if let initializer { _ = try execute(initializer, loopScope) }
            if copiesBindings { loopScope = try iterationCopy(of: loopScope, line: s.line) }
            while try test.map({ (x) throws(ScriptError) in try evaluate(x, loopScope).truthy }) ?? true {
                switch try execute(body, loopScope) {
                case .breakLoop: return .normal
                case .returned(let v): return .returned(v)
                default: break
                }
                if copiesBindings { loopScope = try iterationCopy(of: loopScope, line: s.line) }
                if let update { _ = try evaluate(update, loopScope) }
            }
        case .forIn(let kind, let target, let objectExpression, let body, let line):
            let object = try evaluate(objectExpression, scope)
            let keys: [String]
            switch object {
            case .object(let o): keys = o.ownKeys
            case .string(let str): keys = str.utf16.indices.enumerated().map { String($0.offset) }
            default: keys = []
            }
            return try loop(over: keys.map(ScriptValue.string), kind: kind, target: target, body: body, scope, line: line)
        case .forOf(let kind, let target, let iterableExpression, let body, let line):
            let items = try iterableItems(try evaluate(iterableExpression, scope), line: line)
            return try loop(over: items, kind: kind, target: target, body: body, scope, line: line)
        case .return(let value):
            return .returned(try value.map { (x) throws(ScriptError) in try evaluate(x, scope) } ?? .undefined)
        case .break:
            return .breakLoop
        case .continue:
            return .continueLoop
        case .throw(let valueExpression, let line):
            let value = try evaluate(valueExpression, scope)
            thrownValue = value
            throw ScriptError(.thrown, try toStringValue(value, line: line), line: line)
        case .try(let body, let target, let handler, let finalizer):
            var completion = Completion.normal
            var pending: ScriptError?
            do {
                completion = try execute(body, scope, newBlock: true)
            } catch {
                if let handler, error.isCatchable {
                    let catchScope = Scope(parent: scope, holdsVars: false)
                    do {
                        if let target { try bind(target, caughtValue(error), as: .parameter, in: catchScope, line: s.line) }
                        completion = try execute(handler, catchScope, newBlock: true)
                    } catch {
                        pending = error
                    }
                } else {
                    pending = error
                }
            }
            if let finalizer {
                if let pending, !pending.isCatchable { throw pending }
                let after = try execute(finalizer, scope, newBlock: true)
                if case .normal = after {} else { return after }
            }
            if let pending { throw pending }
            return completion
        case .switch(let subjectExpression, let cases):
            let subject = try evaluate(subjectExpression, scope)
            var matched: Int?
            for (i, c) in cases.enumerated() {
                if let test = c.test, strictEquals(subject, try evaluate(test, scope)) {
                    matched = i
                    break
                }
            }
            if matched == nil { matched = cases.firstIndex { $0.test == nil } }
            guard let start = matched else { return .normal }
            let switchScope = Scope(parent: scope, holdsVars: false)
            for c in cases[start...] {
                switch try execute(c.body, switchScope) {
                case .normal: continue
                case .breakLoop: return .normal
                case let other: return other
                }
            }
        case .empty:
            break
        }
        return .normal
    }

    /// The next iteration's scope of a `for (let …)` loop that makes functions, charged to the
    /// memory budget as a new object is.
    private func iterationCopy(of scope: Scope, line: Int) throws(ScriptError) -> Scope {
        try charge(64 + 32 * scope.slots.count, line: line)
        return scope.copy()
    }

    private func loop(
        over items: [ScriptValue], kind: DeclarationKind?, target: BindingPattern, body: Statement, _ scope: Scope, line: Int
    ) throws(ScriptError) -> Completion {
        for item in items {
            let iterationScope: Scope
            if let kind, kind != .var {
                iterationScope = Scope(parent: scope, holdsVars: false)
                try bind(target, item, as: .declaration(kind), in: iterationScope, line: line)
            } else {
                iterationScope = scope
                if kind == .var {
                    try bind(target, item, as: .declaration(.var), in: scope, line: line)
                } else {
                    try bind(target, item, as: .assignment, in: scope, line: line)
                }
            }
            switch try execute(body, iterationScope) {
            case .breakLoop: return .normal
            case .returned(let v): return .returned(v)
            default: continue
            }
        }
        return .normal
    }
}

extension Statement {
    var isLexicalDeclaration: Bool {
        if case .declaration(let kind, _, _) = self { return kind != .var }
        return false
    }

    var line: Int {
        switch self {
        case .expression(let e): return e.line
        case .declaration(_, _, let line), .throw(_, let line), .forIn(_, _, _, _, let line), .forOf(_, _, _, _, let line):
            return line
        case .function(let f): return f.line
        case .if(let e, _, _), .while(let e, _), .doWhile(_, let e), .switch(let e, _): return e.line
        default: return 0
        }
    }
}

extension ScriptError {
    /// Budgets and nesting limits cannot be caught by the script itself: `try` around an endless
    /// loop still ends.
    var isCatchable: Bool {
        switch kind {
        case .stepBudget, .memoryBudget, .nesting: return false
        default: return true
        }
    }
}
