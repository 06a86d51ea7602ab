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
            for (name, valueExpression) in list {
                let value = try valueExpression.map { (x) throws(ScriptError) in try evaluate(x, scope) }
                switch kind {
                case .var:
                    let target = scope.varScope
                    if let value {
                        if let owner = scope.resolve(name), owner !== target, owner.binding(name) != nil {
                            try assign(name, value, in: scope, line: line)
                        } else if let existing = target.binding(name), existing.readOnly {
                            try assign(name, value, in: target, line: line)
                        } else {
                            target.declare(name, value)
                        }
                    } else if target.binding(name) == nil {
                        target.declare(name, .undefined)
                    }
                case .let, .const:
                    scope.declare(name, value ?? .undefined, readOnly: kind == .const)
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
        case .for(let initializer, let test, let update, let body):
            let loopScope = initializer?.isLexicalDeclaration == true ? Scope(parent: scope, holdsVars: false) : scope
            if let initializer { _ = try execute(initializer, loopScope) }
            while try test.map({ (x) throws(ScriptError) in try evaluate(x, loopScope).truthy }) ?? true {
                switch try execute(body, loopScope) {
                case .breakLoop: return .normal
                case .returned(let v): return .returned(v)
                default: break
                }
                if let update { _ = try evaluate(update, loopScope) }
            }
        case .forIn(let kind, let name, let objectExpression, let body, let line):
            let object = try evaluate(objectExpression, scope)
            let keys: [String]
            switch object {
            case .object(let o): keys = o.ownKeys
            case .string(let str): keys = str.utf16.indices.enumerated().map { String($0.offset) }
            default: keys = []
            }
            return try loop(over: keys.map(ScriptValue.string), kind: kind, name: name, body: body, scope, line: line)
        case .forOf(let kind, let name, let iterableExpression, let body, let line):
            let iterable = try evaluate(iterableExpression, scope)
            let items: [ScriptValue]
            switch iterable {
            case .object(let o) where o.isArray: items = o.elements
            case .string(let str): items = str.map { .string(String($0)) }
            default: throw typeError("\(iterable.typeName) is not iterable (for … of takes arrays and strings)", line: line)
            }
            return try loop(over: items, kind: kind, name: name, body: body, scope, line: line)
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
        case .try(let body, let name, let handler, let finalizer):
            var completion = Completion.normal
            var pending: ScriptError?
            do {
                completion = try execute(body, scope, newBlock: true)
            } catch {
                if let handler, error.isCatchable {
                    let catchScope = Scope(parent: scope, holdsVars: false)
                    if let name { catchScope.declare(name, caughtValue(error)) }
                    do {
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

    private func loop(
        over items: [ScriptValue], kind: DeclarationKind?, name: String, body: Statement, _ scope: Scope, line: Int
    ) throws(ScriptError) -> Completion {
        for item in items {
            let iterationScope: Scope
            if let kind, kind != .var {
                iterationScope = Scope(parent: scope, holdsVars: false)
                iterationScope.declare(name, item, readOnly: kind == .const)
            } else {
                iterationScope = scope
                if kind == .var { scope.varScope.declare(name, item) } else { try assign(name, item, in: scope, line: line) }
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
