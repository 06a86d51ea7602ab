/// Binding names to values — declarations, parameters, `for` heads and `catch` — through
/// destructuring patterns, and the iteration that patterns, spread and `for … of` share.
extension Interpreter {
    /// How ``bind(_:_:as:in:line:)`` binds each name of a pattern.
    enum BindingMode {
        /// A `var`, `let` or `const` declaration.
        case declaration(DeclarationKind)
        /// A parameter or a `catch` name: declared in the function's (or the handler's) scope.
        case parameter
        /// A `for (x of …)` head without a declaration: the name is assigned.
        case assignment
    }

    /// Binds `value` to `pattern`: a name is declared or assigned as `mode` says; an object
    /// pattern reads the value's properties (a `TypeError` for `null` and `undefined`), an array
    /// pattern its items (``iterableItems(_:line:)``); an element whose value is `undefined`
    /// takes its default, evaluated then.
    func bind(_ pattern: BindingPattern, _ value: ScriptValue, as mode: BindingMode, in scope: Scope, line: Int) throws(ScriptError) {
        try enter(line)
        defer { leave() }
        switch pattern {
        case .name(let name):
            try bindName(name, value, as: mode, in: scope, line: line)
        case .object(let properties, let rest):
            if value.isNullish { throw typeError("cannot destructure \(value.displayString): it has no properties", line: line) }
            var used: [String] = []
            for p in properties {
                let key: String
                switch p.key {
                case .name(let name): key = name
                case .computed(let e): key = try toPropertyKey(try evaluate(e, scope), line: line)
                }
                used.append(key)
                try bindElement(p.element, try property(of: value, key, line: line), as: mode, in: scope, line: line)
            }
            if let rest {
                let copy = ScriptValue.object(try makeObject(line: line))
                try copyOwnProperties(of: value, to: copy, excluding: used, line: line)
                try bindName(rest, copy, as: mode, in: scope, line: line)
            }
        case .array(let elements, let rest):
            let items = try iterableItems(value, line: line)
            for (i, element) in elements.enumerated() {
                guard let element else { continue }
                try bindElement(element, i < items.count ? items[i] : .undefined, as: mode, in: scope, line: line)
            }
            if let rest {
                let after = items.count > elements.count ? Array(items[elements.count...]) : []
                try bind(rest, try makeArray(after, line: line), as: mode, in: scope, line: line)
            }
        }
    }

    /// Binds one element of a pattern or one parameter: its default when `value` is `undefined`.
    func bindElement(_ element: BindingElement, _ value: ScriptValue, as mode: BindingMode, in scope: Scope, line: Int) throws(ScriptError) {
        var value = value
        if value == .undefined, let d = element.defaultValue { value = try evaluate(d, scope) }
        try bind(element.target, value, as: mode, in: scope, line: line)
    }

    private func bindName(_ name: String, _ value: ScriptValue, as mode: BindingMode, in scope: Scope, line: Int) throws(ScriptError) {
        switch mode {
        case .declaration(let kind):
            try declare(name, value, kind: kind, in: scope, line: line)
        case .parameter:
            scope.declare(name, value)
        case .assignment:
            try assign(name, value, in: scope, line: line)
        }
    }

    /// A `var`, `let` or `const` declaration of one name (`value` `nil` when it has none: a `var`
    /// then keeps the value it has). A `var` is declared in the function's scope, or assigned
    /// where an enclosing scope (a `catch` name, say) already holds the name.
    func declare(_ name: String, _ value: ScriptValue?, kind: DeclarationKind, in scope: Scope, line: Int) throws(ScriptError) {
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

    /// Copies `source`'s own enumerable properties onto `target`, but those named in `excluded`:
    /// `Object.assign`, an object literal's `...source` and an object pattern's rest. A source that
    /// is not an object has none to copy.
    func copyOwnProperties(of source: ScriptValue, to target: ScriptValue, excluding excluded: [String] = [], line: Int) throws(ScriptError) {
        guard case .object(let s) = source else { return }
        for k in s.ownKeys where !excluded.contains(k) {
            try setProperty(of: target, k, try property(of: source, k, line: line), line: line)
        }
    }

    /// The items `for … of`, spread and array patterns take from a value: an array's elements, a
    /// string's code points; anything else is a `TypeError` (the subset has no iterator protocol).
    func iterableItems(_ value: ScriptValue, line: Int) throws(ScriptError) -> [ScriptValue] {
        switch value {
        case .object(let o) where o.isArray: return o.elements
        case .string(let s):
            try charge(16 * s.unicodeScalars.count, line: line)
            return s.unicodeScalars.map { .string(String($0)) }
        default: throw typeError("\(value.typeName) is not iterable (arrays and strings are)", line: line)
        }
    }

    /// Evaluates an array literal's elements or an argument list: a ``Expression/spread(_:line:)``
    /// gives each of its items, a hole `undefined`.
    func evaluateList(_ expressions: [Expression?], _ scope: Scope) throws(ScriptError) -> [ScriptValue] {
        var values: [ScriptValue] = []
        values.reserveCapacity(expressions.count)
        for e in expressions {
            guard let e else {
                values.append(.undefined)
                continue
            }
            if case .spread(let source, let line) = e {
                let items = try iterableItems(try evaluate(source, scope), line: line)
                try charge(16 * items.count, line: line)
                values.append(contentsOf: items)
            } else {
                values.append(try evaluate(e, scope))
            }
        }
        return values
    }
}
