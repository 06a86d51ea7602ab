/// The syntax tree of an expression. Every node keeps the line it starts on so that a run-time
/// error can name it.
indirect enum Expression: Sendable {
    case literal(Literal)
    /// A name, with where it was last found in the global scope (``SlotHint``).
    case identifier(Name, SlotHint, line: Int)
    /// An array literal; a `nil` element is a hole (`[1, , 2]`), a ``spread(_:line:)`` one is
    /// spread into it.
    case array([Expression?], line: Int)
    case object([ObjectMember], line: Int)
    /// `...value` in an array literal or an argument list (nowhere else): the items of an array
    /// or a string, each an element or argument of its own.
    case spread(Expression, line: Int)
    case function(FunctionLiteral)
    case member(Expression, name: String, optional: Bool, line: Int)
    case index(Expression, Expression, optional: Bool, line: Int)
    case call(Expression, [Expression], optional: Bool, line: Int)
    case new(Expression, [Expression], line: Int)
    case unary(UnaryOperator, Expression, line: Int)
    case update(increment: Bool, prefix: Bool, Expression, line: Int)
    case binary(BinaryOperator, Expression, Expression, line: Int)
    case logical(LogicalOperator, Expression, Expression, line: Int)
    /// Three or more operands at one level (`a + b - c`, `x && y || z`), folded from the left.
    /// Kept flat so that a long chain nests neither the tree nor the evaluation.
    case chain(Expression, [ChainLink])
    case conditional(Expression, Expression, Expression, line: Int)
    case assign(AssignmentOperator, Expression, Expression, line: Int)
    case sequence([Expression], line: Int)
    case this(line: Int)
    /// A regular expression literal, compiled when parsed (a bad pattern is an early
    /// `SyntaxError`); each evaluation makes a new object.
    case regExp(RegExpProgram, line: Int)
    /// A template literal: its texts, one more than its expressions, each expression's value
    /// written as a string between them.
    case template([String], [Expression], line: Int)

    var line: Int {
        switch self {
        case .literal: return 0
        case .identifier(_, _, let l), .array(_, let l), .object(_, let l), .spread(_, let l), .member(_, _, _, let l),
            .index(_, _, _, let l),
            .call(_, _, _, let l), .new(_, _, let l), .unary(_, _, let l), .update(_, _, _, let l), .binary(_, _, _, let l),
            .logical(_, _, _, let l), .conditional(_, _, _, let l), .assign(_, _, _, let l), .sequence(_, let l),
            .this(let l), .regExp(_, let l), .template(_, _, let l):
            return l
        case .function(let f): return f.line
        case .chain(let first, _): return first.line
        }
    }

    /// Whether the expression can be assigned to (an identifier or a member access).
    var isLocation: Bool {
        switch self {
        case .identifier, .member(_, _, false, _), .index(_, _, false, _): return true
        default: return false
        }
    }
}

/// A member of an object literal.
enum ObjectMember: Sendable {
    /// `key: value`, `key` (shorthand) or `key(…) { … }` (a method).
    case property(String, Expression)
    /// `[key]: value`: the key is evaluated, then converted to a property key.
    case computed(Expression, Expression)
    /// `...source`: the source's own enumerable properties are copied.
    case spread(Expression)
}

/// What a declaration, a parameter, a `for … in`/`for … of` head or a `catch` binds: a name, or a
/// pattern that takes a value apart (destructuring).
indirect enum BindingPattern: Sendable {
    case name(String)
    /// `{a, b: c, [k]: d = 1, ...rest}`: properties of an object (not `null` or `undefined`), the
    /// rest its other own properties.
    case object([ObjectBindingProperty], rest: String?)
    /// `[a, , b = 2, ...rest]`: items of an array or a string, the rest those after them.
    case array([BindingElement?], rest: BindingPattern?)

    /// The names it binds, in order.
    var names: [String] {
        var names: [String] = []
        var stack: [BindingPattern] = [self]
        while let p = stack.popLast() {
            switch p {
            case .name(let n): names.append(n)
            case .object(let properties, let rest):
                if let rest { stack.append(.name(rest)) }
                stack.append(contentsOf: properties.reversed().map(\.element.target))
            case .array(let elements, let rest):
                if let rest { stack.append(rest) }
                stack.append(contentsOf: elements.reversed().compactMap { $0?.target })
            }
        }
        return names
    }
}

/// One target of a destructuring pattern, with the value it takes when its own is `undefined`.
struct BindingElement: Sendable {
    var target: BindingPattern
    var defaultValue: Expression?
}

/// A property of an object pattern: its key (a name, or `[expression]`) and its target.
struct ObjectBindingProperty: Sendable {
    var key: PropertyKey
    var element: BindingElement
}

/// A property's key as written: a name (or a string or number literal), or computed.
enum PropertyKey: Sendable {
    case name(String)
    case computed(Expression)
}

/// One operator and its right operand in a ``Expression/chain(_:_:)``.
struct ChainLink: Sendable {
    enum Operator: Sendable {
        case binary(BinaryOperator)
        case logical(LogicalOperator)
    }

    var op: Operator
    var operand: Expression
    var line: Int
}

/// A literal value in the source.
enum Literal: Sendable {
    case undefined, null
    case boolean(Bool)
    case number(Double)
    case string(String)
}

/// A function written in the script: `function f(a, b) { … }`, `function (a) { … }` or `(a) => …`.
struct FunctionLiteral: Sendable {
    var name: String?
    /// The parameters: names or patterns, each with its default value if it has one.
    var parameters: [BindingElement]
    /// `...rest`: the arguments after the parameters, as an array.
    var rest: BindingPattern?
    var body: [Statement]
    var line: Int
    /// The source text of the function, which `String(f)` returns.
    var source: String
    /// Whether it is an arrow function (which keeps the `this` of where it was made).
    var isArrow = false
    /// The `var` names of the body (not of nested functions), declared when the function is called.
    var varNames: [String] = []

    /// ECMAScript's `length`: the parameters before the first with a default value (or the rest).
    var length: Int {
        parameters.firstIndex { $0.defaultValue != nil } ?? parameters.count
    }
}

/// The `var` names a statement list declares, nested blocks and loops included (hoisting).
func hoistedVarNames(_ statements: [Statement]) -> [String] {
    var names: [String] = []
    var seen: Set<String> = []
    var stack: [Statement] = statements.reversed()
    while let s = stack.popLast() {
        switch s {
        case .declaration(.var, let list, _):
            for (target, _) in list {
                for name in target.names where seen.insert(name).inserted { names.append(name) }
            }
        case .block(let body): stack.append(contentsOf: body.reversed())
        case .if(_, let a, let b):
            if let b { stack.append(b) }
            stack.append(a)
        case .while(_, let body), .doWhile(let body, _): stack.append(body)
        case .for(let initializer, _, _, let body, _):
            stack.append(body)
            if let initializer { stack.append(initializer) }
        case .forIn(let kind, let target, _, let body, _), .forOf(let kind, let target, _, let body, _):
            if kind == .var {
                for name in target.names where seen.insert(name).inserted { names.append(name) }
            }
            stack.append(body)
        case .try(let body, _, let handler, let finalizer):
            stack.append(contentsOf: (finalizer ?? []).reversed())
            stack.append(contentsOf: (handler ?? []).reversed())
            stack.append(contentsOf: body.reversed())
        case .switch(_, let cases):
            for c in cases.reversed() { stack.append(contentsOf: c.body.reversed()) }
        default: break
        }
    }
    return names
}

/// Prefix operators.
enum UnaryOperator: String, Sendable {
    case minus = "-", plus = "+", not = "!", bitwiseNot = "~", typeof = "typeof", void = "void", delete = "delete"
}

/// Binary operators other than the short-circuiting ones.
enum BinaryOperator: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%", exponent = "**"
    case equal = "==", notEqual = "!=", strictEqual = "===", strictNotEqual = "!=="
    case less = "<", greater = ">", lessEqual = "<=", greaterEqual = ">="
    case leftShift = "<<", rightShift = ">>", unsignedRightShift = ">>>"
    case bitwiseAnd = "&", bitwiseOr = "|", bitwiseXor = "^"
    case `in` = "in", instanceof = "instanceof"
}

/// `&&`, `||` and `??`.
enum LogicalOperator: String, Sendable {
    case and = "&&", or = "||", coalesce = "??"
}

/// `=` and the compound assignments; a compound one applies its binary operator.
enum AssignmentOperator: Sendable {
    case plain
    case compound(BinaryOperator)
    case logical(LogicalOperator)
}

/// A statement of a `<script>` (or of a function body).
indirect enum Statement: Sendable {
    case expression(Expression)
    case declaration(kind: DeclarationKind, [(target: BindingPattern, value: Expression?)], line: Int)
    case function(FunctionLiteral)
    case block([Statement])
    case `if`(Expression, Statement, Statement?)
    case `while`(Expression, Statement)
    case doWhile(Statement, Expression)
    /// `copiesBindings`: the head declares with `let` and the loop makes functions, so each
    /// iteration gets its own copy of the head's bindings (a closure made in one keeps that
    /// iteration's values, as ECMAScript's CreatePerIterationEnvironment gives it).
    case `for`(initializer: Statement?, test: Expression?, update: Expression?, body: Statement, copiesBindings: Bool)
    case forIn(DeclarationKind?, target: BindingPattern, object: Expression, body: Statement, line: Int)
    case forOf(DeclarationKind?, target: BindingPattern, iterable: Expression, body: Statement, line: Int)
    case `return`(Expression?)
    case `break`
    case `continue`
    case `throw`(Expression, line: Int)
    case `try`(body: [Statement], catchTarget: BindingPattern?, handler: [Statement]?, finalizer: [Statement]?)
    case `switch`(Expression, [(test: Expression?, body: [Statement])])
    case empty
}

/// `var`, `let` or `const`. The subset gives all three function scope, like `var`.
enum DeclarationKind: String, Sendable {
    case `var`, `let`, `const`
}
