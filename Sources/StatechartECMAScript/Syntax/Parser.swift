/// A recursive-descent parser for the subset. Its recursion follows the nesting of the source, so
/// every nested construct counts against ``ScriptLimits/maximumNesting``: a document cannot make
/// it overflow the native stack, only get a `NestingLimitExceeded` error naming the line.
struct Parser {
    private var tokens: [Token]
    private var index = 0
    private let source: [UInt8]
    private let maximumNesting: Int
    private var depth = 0
    /// How many function literals have been read: a `for` loop compares it before and after to
    /// know whether its body can make closures.
    private var functionsRead = 0
    /// Whether a `/` the lexer took for a division may be read again as a regular expression
    /// (``readSlashAsRegExp()``): not in a template's `${…}`, whose tokens end at its `}` while
    /// the lexer would read on to the end of the text.
    private let readsSlashAgain: Bool

    init(source: String, maximumNesting: Int) throws(ScriptError) {
        var lexer = Lexer(source, maximumNesting: maximumNesting)
        tokens = lexer.tokenize()
        self.source = lexer.bytes
        self.maximumNesting = maximumNesting
        readsSlashAgain = true
    }

    /// A parser of a template's `${…}`: its tokens, over the same text, at the nesting depth of
    /// the template.
    private init(templateExpression tokens: [Token], source: [UInt8], maximumNesting: Int, depth: Int) {
        self.tokens = tokens
        self.source = source
        self.maximumNesting = maximumNesting
        self.depth = depth
        readsSlashAgain = false
    }

    // MARK: - Entry points

    /// A whole program (a `<script>`): statements up to the end of the text.
    mutating func parseProgram() throws(ScriptError) -> [Statement] {
        var statements: [Statement] = []
        while !isAtEnd { statements.append(try statement()) }
        return statements
    }

    /// One expression filling the whole text (a `cond`, an `expr`, a `location`).
    mutating func parseExpression() throws(ScriptError) -> Expression {
        let e = try expression()
        if case .punctuator(";") = current.kind { advance() }
        guard isAtEnd else { throw unexpected("after the expression") }
        return e
    }

    /// Reads the current `/` or `/=` token again as the start of a regular expression literal, and
    /// the text after it with it: the lexer took it for a division after a `)` or a `}`
    /// (`if (ok) /a/.test(s)`, a statement after a block), where the parser finds an expression
    /// starting instead.
    private mutating func readSlashAsRegExp() throws(ScriptError) {
        let token = current
        guard readsSlashAgain else { throw unexpected("where an expression should start") }
        var lexer = Lexer(bytes: source, position: token.start, line: token.line, maximumNesting: maximumNesting)
        tokens.replaceSubrange(index..., with: try lexer.regExpToken(newlineBefore: token.newlineBefore))
    }

    // MARK: - Tokens

    private var current: Token { tokens[index] }
    private var isAtEnd: Bool { if case .end = current.kind { return true } else { return false } }
    private func peek(_ offset: Int = 1) -> Token { tokens[min(index + offset, tokens.count - 1)] }
    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private func isPunctuator(_ p: String, _ token: Token? = nil) -> Bool {
        if case .punctuator(let q) = (token ?? current).kind { return q == p }
        return false
    }

    private func isKeyword(_ k: String, _ token: Token? = nil) -> Bool {
        if case .keyword(let q) = (token ?? current).kind { return q == k }
        return false
    }

    private mutating func eat(_ p: String) -> Bool {
        guard isPunctuator(p) else { return false }
        advance()
        return true
    }

    private mutating func expect(_ p: String, _ context: String) throws(ScriptError) {
        guard eat(p) else { throw unexpected("\(context): expected '\(p)'") }
    }

    private func unexpected(_ context: String) -> ScriptError {
        let found: String
        switch current.kind {
        case .end: found = "end of input"
        case .identifier(let s): found = "identifier '\(s)'"
        case .keyword(let s): found = "'\(s)'"
        case .number(let n): found = "number \(ScriptValue.number(n).displayString)"
        case .string(let s): found = "string '\(s)'"
        case .punctuator(let p): found = "'\(p)'"
        case .regExp(let pattern, let flags): found = "regular expression /\(pattern)/\(flags)"
        case .template: found = "template literal"
        // Text the lexer could not read (an unterminated string, say): that is where the text
        // first went wrong, whatever the parser expected there.
        case .invalid(let error): return error
        }
        return ScriptError(.syntax, "unexpected \(found) \(context)", line: current.line)
    }

    private mutating func identifierName(_ context: String) throws(ScriptError) -> String {
        if case .identifier(let name) = current.kind {
            advance()
            return name
        }
        throw unexpected(context)
    }

    /// Counts one level of nesting; `leave()` undoes it.
    private mutating func enter() throws(ScriptError) {
        depth += 1
        if depth > maximumNesting {
            throw ScriptError(.nesting, "the script nests deeper than \(maximumNesting) levels", line: current.line)
        }
    }

    private mutating func leave() { depth -= 1 }

    /// Ends a statement: `;`, or a line break, `}` or the end before the next token (automatic
    /// semicolon insertion in its simple form).
    private mutating func endStatement() throws(ScriptError) {
        if eat(";") { return }
        if current.newlineBefore || isPunctuator("}") || isAtEnd { return }
        throw unexpected("where a statement should end")
    }

    // MARK: - Statements

    private mutating func statement() throws(ScriptError) -> Statement {
        try enter()
        defer { leave() }
        let line = current.line
        switch current.kind {
        case .punctuator("{"):
            advance()
            return .block(try block())
        case .punctuator(";"):
            advance()
            return .empty
        case .keyword("var"), .keyword("let"), .keyword("const"):
            let d = try declaration()
            try endStatement()
            return d
        case .keyword("function"):
            advance()
            return .function(try functionRest(start: tokens[index - 1].start, line: line, requireName: true))
        case .keyword("if"):
            advance()
            try expect("(", "after 'if'")
            let test = try expression()
            try expect(")", "after the condition of 'if'")
            let then = try statement()
            var otherwise: Statement?
            if isKeyword("else") {
                advance()
                otherwise = try statement()
            }
            return .if(test, then, otherwise)
        case .keyword("while"):
            advance()
            try expect("(", "after 'while'")
            let test = try expression()
            try expect(")", "after the condition of 'while'")
            return .while(test, try statement())
        case .keyword("do"):
            advance()
            let body = try statement()
            guard isKeyword("while") else { throw unexpected("after the body of 'do': expected 'while'") }
            advance()
            try expect("(", "after 'while'")
            let test = try expression()
            try expect(")", "after the condition of 'do … while'")
            _ = eat(";")
            return .doWhile(body, test)
        case .keyword("for"):
            return try forStatement()
        case .keyword("return"):
            advance()
            if isPunctuator(";") || isPunctuator("}") || isAtEnd || current.newlineBefore {
                _ = eat(";")
                return .return(nil)
            }
            let value = try expression()
            try endStatement()
            return .return(value)
        case .keyword("break"), .keyword("continue"):
            let isBreak = isKeyword("break")
            advance()
            if case .identifier = current.kind, !current.newlineBefore {
                throw ScriptError(.unsupported, "labelled break and continue are not supported", line: line)
            }
            try endStatement()
            return isBreak ? .break : .continue
        case .keyword("throw"):
            advance()
            if current.newlineBefore { throw ScriptError(.syntax, "a line break after 'throw'", line: line) }
            let value = try expression()
            try endStatement()
            return .throw(value, line: line)
        case .keyword("try"):
            return try tryStatement()
        case .keyword("switch"):
            return try switchStatement()
        case .keyword(let word) where unsupportedStatements.contains(word):
            throw ScriptError(.unsupported, "'\(word)' statements are not supported", line: line)
        case .identifier where isPunctuator(":", peek()):
            throw ScriptError(.unsupported, "labelled statements are not supported", line: line)
        default:
            let e = try expression()
            try endStatement()
            return .expression(e)
        }
    }

    private mutating func block() throws(ScriptError) -> [Statement] {
        var body: [Statement] = []
        while !isPunctuator("}") {
            if isAtEnd { throw unexpected("in a block: expected '}'") }
            body.append(try statement())
        }
        advance()
        return body
    }

    private mutating func declaration() throws(ScriptError) -> Statement {
        let line = current.line
        guard case .keyword(let word) = current.kind, let kind = DeclarationKind(rawValue: word) else {
            throw unexpected("where a declaration should start")
        }
        advance()
        var list: [(target: BindingPattern, value: Expression?)] = []
        repeat {
            let target = try bindingTarget("in a '\(word)' declaration")
            var value: Expression?
            if eat("=") { value = try assignment() }
            if value == nil {
                if case .name(let name) = target {
                    if kind == .const { throw ScriptError(.syntax, "'const \(name)' needs a value", line: line) }
                } else {
                    throw ScriptError(.syntax, "a destructuring declaration needs a value", line: line)
                }
            }
            list.append((target, value))
        } while eat(",")
        return .declaration(kind: kind, list, line: line)
    }

    /// What a declaration, a parameter or a `catch` binds: a name, `{…}` or `[…]`.
    private mutating func bindingTarget(_ context: String) throws(ScriptError) -> BindingPattern {
        try enter()
        defer { leave() }
        if eat("{") { return try objectPattern() }
        if eat("[") { return try arrayPattern() }
        return .name(try identifierName("\(context): expected a name"))
    }

    /// A target and its default value (`= expression`), if it has one.
    private mutating func bindingElement(_ context: String) throws(ScriptError) -> BindingElement {
        let target = try bindingTarget(context)
        return BindingElement(target: target, defaultValue: eat("=") ? try assignment() : nil)
    }

    /// After `{`: `a`, `a = 1`, `key: target`, `key: target = 1`, `[expression]: target`, and
    /// `...rest` last.
    private mutating func objectPattern() throws(ScriptError) -> BindingPattern {
        var properties: [ObjectBindingProperty] = []
        var rest: String?
        while !eat("}") {
            if eat("...") {
                rest = try identifierName("after '...' in an object pattern: expected a name")
                guard isPunctuator("}") else { throw unexpected("after the rest of an object pattern: expected '}'") }
                continue
            }
            let key: PropertyKey
            var shorthand: String?
            switch current.kind {
            case .identifier(let n):
                key = .name(n)
                shorthand = n
                advance()
            case .keyword(let n), .string(let n):
                key = .name(n)
                advance()
            case .number(let n):
                key = .name(ScriptValue.number(n).displayString)
                advance()
            case .punctuator("["):
                advance()
                key = .computed(try assignment())
                try expect("]", "after a computed key")
            default:
                throw unexpected("in an object pattern: expected a property name")
            }
            let element: BindingElement
            if eat(":") {
                element = try bindingElement("in an object pattern")
            } else if let name = shorthand {
                element = BindingElement(target: .name(name), defaultValue: eat("=") ? try assignment() : nil)
            } else {
                throw unexpected("after a property name in an object pattern: expected ':'")
            }
            properties.append(ObjectBindingProperty(key: key, element: element))
            if !isPunctuator("}") { try expect(",", "between the properties of an object pattern") }
        }
        return .object(properties, rest: rest)
    }

    /// After `[`: targets (with defaults), holes, and `...rest` last.
    private mutating func arrayPattern() throws(ScriptError) -> BindingPattern {
        let (elements, rest) = try bindingList(closedBy: "]", holes: true, "an array pattern")
        return .array(elements, rest: rest)
    }

    /// The elements of an array pattern or a parameter list, through `closing`: targets with
    /// their defaults, holes where `holes` allows them (`nil`), and `...rest` last.
    private mutating func bindingList(
        closedBy closing: String, holes: Bool, _ what: String
    ) throws(ScriptError) -> ([BindingElement?], rest: BindingPattern?) {
        var elements: [BindingElement?] = []
        var rest: BindingPattern?
        while !eat(closing) {
            if holes && eat(",") {
                elements.append(nil)
                continue
            }
            if eat("...") {
                rest = try bindingTarget("after '...' in \(what)")
                guard isPunctuator(closing) else { throw unexpected("after the rest of \(what): expected '\(closing)'") }
                continue
            }
            elements.append(try bindingElement("in \(what)"))
            if !isPunctuator(closing) { try expect(",", "between the elements of \(what)") }
        }
        return (elements, rest)
    }

    private mutating func forStatement() throws(ScriptError) -> Statement {
        let line = current.line
        advance()
        if isKeyword("await") { throw ScriptError(.unsupported, "'for await' is not supported", line: line) }
        try expect("(", "after 'for'")
        // for (var x in o) / for (x of a) / for (const [k, v] of entries)
        var kind: DeclarationKind?
        var probe = index
        if case .keyword(let w) = current.kind, let k = DeclarationKind(rawValue: w) {
            kind = k
            probe += 1
        }
        var head: BindingPattern?
        if case .identifier(let name) = tokens[probe].kind, tokens[probe + 1].kind == .keyword("in") || tokens[probe + 1].kind == .identifier("of") {
            head = .name(name)
            index = probe + 1
        } else if kind != nil, isPunctuator("{", tokens[probe]) || isPunctuator("[", tokens[probe]) {
            // A pattern: read it, then see whether `in` or `of` follows; if not, it is the
            // declaration of a three-part `for`, read again from the start.
            let start = index
            index = probe
            let pattern = try bindingTarget("in the head of 'for'")
            if isKeyword("in") || current.kind == .identifier("of") { head = pattern } else { index = start }
        }
        if let head {
            let isIn = isKeyword("in")
            advance()
            let object = try expression()
            try expect(")", "after the head of 'for'")
            let body = try statement()
            return isIn
                ? .forIn(kind, target: head, object: object, body: body, line: line)
                : .forOf(kind, target: head, iterable: object, body: body, line: line)
        }
        var initializer: Statement?
        if !isPunctuator(";") {
            initializer = kind != nil ? try declaration() : .expression(try expression())
        }
        try expect(";", "in the head of 'for'")
        // Functions made by the test, the update or the body see the iteration's bindings.
        let functionsBefore = functionsRead
        let test = isPunctuator(";") ? nil : try expression()
        try expect(";", "in the head of 'for'")
        let update = isPunctuator(")") ? nil : try expression()
        try expect(")", "after the head of 'for'")
        let body = try statement()
        var copiesBindings = false
        if case .declaration(.let, _, _)? = initializer { copiesBindings = functionsRead > functionsBefore }
        return .for(initializer: initializer, test: test, update: update, body: body, copiesBindings: copiesBindings)
    }

    private mutating func tryStatement() throws(ScriptError) -> Statement {
        advance()
        try expect("{", "after 'try'")
        let body = try block()
        var target: BindingPattern?
        var handler: [Statement]?
        var finalizer: [Statement]?
        if isKeyword("catch") {
            advance()
            if eat("(") {
                target = try bindingTarget("in 'catch'")
                try expect(")", "after the name in 'catch'")
            }
            try expect("{", "after 'catch'")
            handler = try block()
        }
        if isKeyword("finally") {
            advance()
            try expect("{", "after 'finally'")
            finalizer = try block()
        }
        if handler == nil && finalizer == nil { throw unexpected("after 'try': expected 'catch' or 'finally'") }
        return .try(body: body, catchTarget: target, handler: handler, finalizer: finalizer)
    }

    private mutating func switchStatement() throws(ScriptError) -> Statement {
        advance()
        try expect("(", "after 'switch'")
        let subject = try expression()
        try expect(")", "after the subject of 'switch'")
        try expect("{", "after 'switch (…)'")
        var cases: [(test: Expression?, body: [Statement])] = []
        while !eat("}") {
            var test: Expression?
            if isKeyword("case") {
                advance()
                test = try expression()
            } else if isKeyword("default") {
                advance()
            } else {
                throw unexpected("in 'switch': expected 'case' or 'default'")
            }
            try expect(":", "after a case of 'switch'")
            var body: [Statement] = []
            while !isKeyword("case") && !isKeyword("default") && !isPunctuator("}") {
                if isAtEnd { throw unexpected("in 'switch': expected '}'") }
                body.append(try statement())
            }
            cases.append((test, body))
        }
        return .switch(subject, cases)
    }

    /// After `function`: an optional name, the parameters and the body.
    private mutating func functionRest(start: Int, line: Int, requireName: Bool) throws(ScriptError) -> FunctionLiteral {
        var name: String?
        if case .identifier(let n) = current.kind {
            name = n
            advance()
        } else if requireName {
            throw unexpected("after 'function': expected a name")
        }
        if isPunctuator("*") { throw ScriptError(.unsupported, "generator functions are not supported", line: line) }
        try expect("(", "after the function's name")
        let (parameters, rest) = try parameterList()
        try expect("{", "before the function's body")
        let body = try block()
        functionsRead += 1
        return FunctionLiteral(
            name: name, parameters: parameters, rest: rest, body: body, line: line, source: text(from: start),
            varNames: hoistedVarNames(body))
    }

    /// After `(`: names or patterns, each with an optional default value, and `...rest` last;
    /// through the `)`.
    private mutating func parameterList() throws(ScriptError) -> ([BindingElement], rest: BindingPattern?) {
        let (parameters, rest) = try bindingList(closedBy: ")", holes: false, "a parameter list")
        return (parameters.compactMap { $0 }, rest)
    }

    private func text(from start: Int) -> String {
        let end = tokens[max(index - 1, 0)].end
        return String(decoding: source[start..<max(start, end)], as: UTF8.self)
    }

    // MARK: - Expressions

    private mutating func expression() throws(ScriptError) -> Expression {
        let line = current.line
        let first = try assignment()
        guard isPunctuator(",") else { return first }
        var list = [first]
        while eat(",") { list.append(try assignment()) }
        return .sequence(list, line: line)
    }

    private mutating func assignment() throws(ScriptError) -> Expression {
        try enter()
        defer { leave() }
        if let arrow = try arrowFunction() { return arrow }
        let line = current.line
        let target = try conditional()
        guard case .punctuator(let p) = current.kind, let op = assignmentOperators[p] else { return target }
        guard target.isLocation else {
            if case .member(_, _, true, _) = target {
                throw ScriptError(.syntax, "an optional chain cannot be assigned to", line: line)
            }
            if case .object = target {
                throw ScriptError(.unsupported, "destructuring assignment is not supported", line: line)
            }
            if case .array = target {
                throw ScriptError(.unsupported, "destructuring assignment is not supported", line: line)
            }
            throw ScriptError(.syntax, "invalid left-hand side in assignment", line: line)
        }
        advance()
        return .assign(op, target, try assignment(), line: line)
    }

    /// `x => …` or `(a, b) => …`, recognised by looking ahead for `=>`.
    private mutating func arrowFunction() throws(ScriptError) -> Expression? {
        let start = current.start
        let line = current.line
        var parameters: [BindingElement]
        var rest: BindingPattern?
        if case .identifier(let name) = current.kind, isPunctuator("=>", peek()) {
            parameters = [BindingElement(target: .name(name), defaultValue: nil)]
            index += 2
        } else if isPunctuator("(") {
            var probe = index + 1
            var level = 1
            while level > 0 {
                switch tokens[probe].kind {
                case .punctuator("("): level += 1
                case .punctuator(")"): level -= 1
                case .end: return nil
                default: break
                }
                probe += 1
            }
            guard isPunctuator("=>", tokens[probe]), !tokens[probe].newlineBefore else { return nil }
            advance()
            (parameters, rest) = try parameterList()
            advance()  // =>
        } else {
            return nil
        }
        let body: [Statement]
        if eat("{") {
            body = try block()
        } else {
            let value = try assignment()
            body = [.return(value)]
        }
        functionsRead += 1
        return .function(
            FunctionLiteral(
                name: nil, parameters: parameters, rest: rest, body: body, line: line, source: text(from: start), isArrow: true,
                varNames: hoistedVarNames(body)))
    }

    private mutating func conditional() throws(ScriptError) -> Expression {
        let line = current.line
        let test = try binary(0)
        guard eat("?") else { return test }
        let then = try assignment()
        try expect(":", "in a conditional expression")
        return .conditional(test, then, try assignment(), line: line)
    }

    /// Binary operators by precedence climbing; `minimum` is the lowest precedence accepted. The
    /// operators met at one level are kept as a flat chain, folded from the left when evaluated.
    private mutating func binary(_ minimum: Int) throws(ScriptError) -> Expression {
        try enter()
        defer { leave() }
        let first = try unary()
        var links: [ChainLink] = []
        while true {
            let line = current.line
            let symbol: String
            switch current.kind {
            case .punctuator(let p): symbol = p
            case .keyword("in"): symbol = "in"
            case .keyword("instanceof"): symbol = "instanceof"
            default: symbol = ""
            }
            guard let precedence = binaryPrecedence[symbol], precedence >= minimum else { break }
            advance()
            // `**` is right-associative; the others are left-associative.
            let right = try binary(symbol == "**" ? precedence : precedence + 1)
            if let logical = LogicalOperator(rawValue: symbol) {
                links.append(ChainLink(op: .logical(logical), operand: right, line: line))
            } else if let op = BinaryOperator(rawValue: symbol) {
                links.append(ChainLink(op: .binary(op), operand: right, line: line))
            }
        }
        guard links.count == 1 else { return links.isEmpty ? first : .chain(first, links) }
        switch links[0].op {
        case .binary(let op): return .binary(op, first, links[0].operand, line: links[0].line)
        case .logical(let op): return .logical(op, first, links[0].operand, line: links[0].line)
        }
    }

    private mutating func unary() throws(ScriptError) -> Expression {
        try enter()
        defer { leave() }
        let line = current.line
        switch current.kind {
        case .punctuator("!"), .punctuator("-"), .punctuator("+"), .punctuator("~"),
            .keyword("typeof"), .keyword("void"), .keyword("delete"):
            let symbol: String
            switch current.kind {
            case .punctuator(let p): symbol = p
            case .keyword(let k): symbol = k
            default: symbol = ""
            }
            advance()
            let operand = try unary()
            if symbol == "-", case .literal(.number(let n)) = operand { return .literal(.number(-n)) }
            if isPunctuator("**") { throw ScriptError(.syntax, "a unary expression before '**' needs parentheses", line: line) }
            return .unary(UnaryOperator(rawValue: symbol)!, operand, line: line)
        case .punctuator("++"), .punctuator("--"):
            let increment = isPunctuator("++")
            advance()
            let operand = try unary()
            guard operand.isLocation else { throw ScriptError(.syntax, "invalid operand of '\(increment ? "++" : "--")'", line: line) }
            return .update(increment: increment, prefix: true, operand, line: line)
        case .keyword("await"):
            throw ScriptError(.unsupported, "'await' is not supported", line: line)
        default:
            let operand = try postfix()
            if (isPunctuator("++") || isPunctuator("--")) && !current.newlineBefore {
                let increment = isPunctuator("++")
                guard operand.isLocation else { throw ScriptError(.syntax, "invalid operand of '\(increment ? "++" : "--")'", line: line) }
                advance()
                return .update(increment: increment, prefix: false, operand, line: line)
            }
            return operand
        }
    }

    private mutating func postfix() throws(ScriptError) -> Expression {
        var e: Expression
        if isKeyword("new") {
            let line = current.line
            advance()
            try enter()
            defer { leave() }
            var callee = try primary()
            while true {
                if eat(".") {
                    callee = .member(callee, name: try propertyName(), optional: false, line: line)
                } else if eat("[") {
                    let key = try expression()
                    try expect("]", "after a computed member")
                    callee = .index(callee, key, optional: false, line: line)
                } else {
                    break
                }
            }
            var arguments: [Expression] = []
            if eat("(") { arguments = try argumentList() }
            e = .new(callee, arguments, line: line)
        } else {
            e = try primary()
        }
        var depthAdded = 0
        defer { depth -= depthAdded }
        while true {
            let line = current.line
            depthAdded += 1
            try enter()
            if eat(".") {
                e = .member(e, name: try propertyName(), optional: false, line: line)
            } else if eat("?.") {
                if eat("(") {
                    e = .call(e, try argumentList(), optional: true, line: line)
                } else if eat("[") {
                    let key = try expression()
                    try expect("]", "after a computed member")
                    e = .index(e, key, optional: true, line: line)
                } else {
                    e = .member(e, name: try propertyName(), optional: true, line: line)
                }
            } else if eat("[") {
                let key = try expression()
                try expect("]", "after a computed member")
                e = .index(e, key, optional: false, line: line)
            } else if eat("(") {
                e = .call(e, try argumentList(), optional: false, line: line)
            } else if case .template = current.kind {
                throw ScriptError(.unsupported, "tagged templates (f`…`) are not supported", line: line)
            } else {
                depth -= 1
                depthAdded -= 1
                return e
            }
        }
    }

    private mutating func propertyName() throws(ScriptError) -> String {
        switch current.kind {
        case .identifier(let n), .keyword(let n):
            advance()
            return n
        default:
            throw unexpected("after '.': expected a property name")
        }
    }

    private mutating func argumentList() throws(ScriptError) -> [Expression] {
        var arguments: [Expression] = []
        while !eat(")") {
            arguments.append(try spreadOrAssignment())
            if !isPunctuator(")") { try expect(",", "between arguments") }
        }
        return arguments
    }

    private mutating func primary() throws(ScriptError) -> Expression {
        let token = current
        let line = token.line
        switch token.kind {
        case .number(let n):
            advance()
            return .literal(.number(n))
        case .string(let s):
            advance()
            return .literal(.string(s))
        case .identifier(let name):
            advance()
            if name == "undefined" { return .literal(.undefined) }
            return .identifier(Name(name), SlotHint(), line: line)
        case .keyword("true"):
            advance()
            return .literal(.boolean(true))
        case .keyword("false"):
            advance()
            return .literal(.boolean(false))
        case .keyword("null"):
            advance()
            return .literal(.null)
        case .keyword("this"):
            advance()
            return .this(line: line)
        case .keyword("function"):
            advance()
            return .function(try functionRest(start: token.start, line: line, requireName: false))
        case .punctuator("("):
            advance()
            let e = try expression()
            try expect(")", "after a parenthesised expression")
            return e
        case .punctuator("["):
            advance()
            var elements: [Expression?] = []
            while !eat("]") {
                if isPunctuator(",") {
                    advance()
                    elements.append(nil)
                    continue
                }
                elements.append(try spreadOrAssignment())
                if !isPunctuator("]") { try expect(",", "between array elements") }
            }
            return .array(elements, line: line)
        case .punctuator("{"):
            advance()
            return try objectLiteral(line: line)
        case .regExp(let pattern, let flags):
            advance()
            return .regExp(try RegExpProgram(pattern: pattern, flags: flags, maximumNesting: maximumNesting, line: line), line: line)
        case .punctuator("/"), .punctuator("/="):
            try readSlashAsRegExp()
            return try primary()
        case .template(let strings, let expressionTokens):
            advance()
            var expressions: [Expression] = []
            for tokens in expressionTokens {
                var parser = Parser(templateExpression: tokens, source: source, maximumNesting: maximumNesting, depth: depth)
                if parser.isAtEnd { throw ScriptError(.syntax, "an empty ${} in a template literal", line: line) }
                let e = try parser.expression()
                functionsRead += parser.functionsRead
                guard parser.isAtEnd else { throw parser.unexpected("in a template literal's ${…}: expected '}'") }
                expressions.append(e)
            }
            if expressions.isEmpty { return .literal(.string(strings[0])) }
            return .template(strings, expressions, line: line)
        case .keyword(let word) where word == "class" || word == "super" || word == "import" || word == "yield":
            throw ScriptError(.unsupported, "'\(word)' is not supported", line: line)
        default:
            throw unexpected("where an expression should start")
        }
    }

    /// `...value` (an array literal's element or an argument), or an assignment expression.
    private mutating func spreadOrAssignment() throws(ScriptError) -> Expression {
        let line = current.line
        if eat("...") { return .spread(try assignment(), line: line) }
        return try assignment()
    }

    private mutating func objectLiteral(line: Int) throws(ScriptError) -> Expression {
        var members: [ObjectMember] = []
        while !eat("}") {
            let keyStart = current.start
            let keyLine = current.line
            var key: String?
            var computed: Expression?
            var shorthandName: String?
            switch current.kind {
            case .identifier(let n):
                key = n
                shorthandName = n
            case .keyword(let n): key = n
            case .string(let s): key = s
            case .number(let n): key = ScriptValue.number(n).displayString
            case .punctuator("["):
                advance()
                computed = try assignment()
                guard isPunctuator("]") else { throw unexpected("after a computed key: expected ']'") }
            case .punctuator("..."):
                advance()
                members.append(.spread(try assignment()))
                if !isPunctuator("}") { try expect(",", "between properties") }
                continue
            default:
                throw unexpected("in an object literal: expected a property name")
            }
            advance()
            if (key == "get" || key == "set") && !isPunctuator(":") && !isPunctuator("(") && !isPunctuator(",") && !isPunctuator("}") {
                throw ScriptError(.unsupported, "getters and setters are not supported", line: keyLine)
            }
            let value: Expression
            if eat(":") {
                value = try assignment()
            } else if let name = shorthandName, isPunctuator(",") || isPunctuator("}") {
                value = .identifier(Name(name), SlotHint(), line: line)
            } else if isPunctuator("(") {
                // A method: `name(…) { … }`, a function named by its key.
                if isPunctuator("*", peek()) { throw ScriptError(.unsupported, "generator functions are not supported", line: keyLine) }
                advance()
                let (parameters, rest) = try parameterList()
                try expect("{", "before the method's body")
                let body = try block()
                functionsRead += 1
                value = .function(
                    FunctionLiteral(
                        name: key, parameters: parameters, rest: rest, body: body, line: keyLine, source: text(from: keyStart),
                        varNames: hoistedVarNames(body)))
            } else {
                throw unexpected("after a property name: expected ':'")
            }
            if let computed {
                members.append(.computed(computed, value))
            } else if let key {
                members.append(.property(key, value))
            }
            if !isPunctuator("}") { try expect(",", "between properties") }
        }
        return .object(members, line: line)
    }
}

private let unsupportedStatements: Set<String> = ["class", "import", "export", "with", "debugger", "yield", "enum"]

private let assignmentOperators: [String: AssignmentOperator] = [
    "=": .plain, "+=": .compound(.add), "-=": .compound(.subtract), "*=": .compound(.multiply),
    "/=": .compound(.divide), "%=": .compound(.remainder), "**=": .compound(.exponent),
    "<<=": .compound(.leftShift), ">>=": .compound(.rightShift), ">>>=": .compound(.unsignedRightShift),
    "&=": .compound(.bitwiseAnd), "|=": .compound(.bitwiseOr), "^=": .compound(.bitwiseXor),
    "&&=": .logical(.and), "||=": .logical(.or), "??=": .logical(.coalesce),
]

/// Precedence of the binary operators, lowest first (ECMAScript's table).
private let binaryPrecedence: [String: Int] = [
    "??": 1, "||": 2, "&&": 3, "|": 4, "^": 5, "&": 6,
    "==": 7, "!=": 7, "===": 7, "!==": 7,
    "<": 8, ">": 8, "<=": 8, ">=": 8, "in": 8, "instanceof": 8,
    "<<": 9, ">>": 9, ">>>": 9,
    "+": 10, "-": 10,
    "*": 11, "/": 11, "%": 11,
    "**": 12,
]
