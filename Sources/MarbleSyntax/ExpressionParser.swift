/// A recursive-descent parser for the Swift subset of `let` lines, closures and
/// `values` literals. Binary operators use Swift's precedence groups:
///
/// | group | operators | associativity |
/// |---|---|---|
/// | multiplication | `* / %` | left |
/// | addition | `+ -` | left |
/// | range formation | `... ..<` | none |
/// | nil coalescing | `??` | right |
/// | comparison | `== != < <= > >=` | none |
/// | logical conjunction | `&&` | left |
/// | logical disjunction | `\|\|` | left |
/// | ternary | `? :` | right |
///
/// Prefix `-` and `!` bind looser than postfix member access and calls (`-x.y` is
/// `-(x.y)`), as in Swift; a `-` written directly before a number literal is part
/// of the literal.
struct ExpressionParser {
    /// Deeper nesting than this (brackets, closures, prefix operators, interpolations)
    /// is reported as an error rather than risking the stack.
    static let maximumDepth = 32
    /// The deepest syntax tree (`Expr.depth`) an expression may build. Operator chains
    /// (`$0 + 1 + 1 …`) and method chains (`a.map { $0 }.map { $0 } …`) are parsed in loops, and
    /// the name check, the type checker and the interpreter walk them in loops too. What still
    /// grows a level per link is outside those walks: the pipeline a method chain builds
    /// (subscribing and delivering go through every operator, as in Combine), the type of a
    /// chain such as `.collect().collect() …` (the type functions recurse over a type's depth),
    /// and Swift's release of the tree itself. A link of a method chain is two levels (the member
    /// and the call). 256 keeps all of these well inside a thread's stack, even in a debug build,
    /// and is far beyond any pipeline written by hand.
    static let maximumChainDepth = 256

    let source: SourceText
    let tokens: [Token]
    /// The lexing error that the last token stands for, if any.
    let lexError: SyntaxError?
    var position = 0
    var depth: Int
    /// True while parsing an `if` condition, where `{` opens the body, not a trailing closure.
    var noTrailingClosure = false
    /// The loops and `switch`es that `break` and `continue` may leave here.
    var jumpTargets = JumpTargets()
    /// The declared result type of the `func` being parsed (nil in a closure): each `return`'s
    /// value is annotated with it, so a literal takes it as in Swift (`-> Double { return 1 }`).
    var resultType: TypeText?

    init(source: SourceText, from start: Int, to end: Int, depth: Int = 0) {
        self.source = source
        (tokens, lexError) = Lexer.tokenize(source, from: start, to: end)
        self.depth = depth
    }

    /// Parses all of `start..<end` as one expression. `leftover` words the error
    /// for a token after a complete expression (given that token's description).
    static func parse(_ source: SourceText, from start: Int, to end: Int,
                      leftover: (String) -> String = { "unexpected \($0) after the expression" }) throws(SyntaxError) -> Expr {
        var parser = ExpressionParser(source: source, from: start, to: end)
        return try parser.parseWhole(leftover: leftover)
    }

    /// Parses all the tokens as one expression. An error found at the token where
    /// lexing failed is replaced by the lexing error.
    mutating func parseWhole(emptyError: SyntaxError? = nil, leftover: (String) -> String) throws(SyntaxError) -> Expr {
        do throws(SyntaxError) {
            guard canStartHere else {
                throw (isAtEnd ? emptyError : nil) ?? error(expectedExpression(), at: current)
            }
            let expression = try parseExpression()
            guard isAtEnd else {
                var hint: String?
                if case .op(let op) = current.kind, Self.assignmentOperators.contains(op) {
                    hint = "assign inside a closure, to a 'var' declared there: { var n = 0; n += 1; … }"
                }
                throw error(leftover(describe(current)), at: current, hint: hint)
            }
            if let lexError { throw lexError }
            return expression
        } catch {
            if let lexError, isAtEnd { throw lexError }
            throw error
        }
    }

    // MARK: Tokens

    var current: Token { tokens[position] }

    // Predicates on the current token (they keep temporaries out of the callers' frames).
    func at(_ punctuation: String) -> Bool { tokens[position].kind == .punctuation(punctuation) }
    func atOperator(_ op: String) -> Bool { tokens[position].kind == .op(op) }
    func atIdentifier(_ name: String) -> Bool { tokens[position].kind == .identifier(name) }
    var canStartHere: Bool { canStartExpression(tokens[position]) }

    func peek(_ offset: Int = 1) -> Token {
        tokens[min(position + offset, tokens.count - 1)]
    }

    mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    /// The index just after the last consumed token.
    var previousEnd: Int { position > 0 ? tokens[position - 1].end : tokens[0].start }

    /// At the last token: the end, or where lexing failed.
    var isAtEnd: Bool { position == tokens.count - 1 }

    func error(_ message: String, at token: Token, hint: String? = nil) -> SyntaxError {
        source.error(message, at: token.start, length: source.lineLength(token.start, token.end), hint: hint)
    }

    func describe(_ token: Token) -> String {
        switch token.kind {
        case .end: return "end of line"
        case .string: return "string literal"
        case .identifier(let name) where ["let", "var", "return", "else", "in", "if", "throw", "try"].contains(name):
            return "keyword '\(name)'"
        default: return "'\(source.text(token.start, token.end))'"
        }
    }

    func expectedExpression() -> String {
        isAtEnd ? "expected expression" : "expected expression, found \(describe(current))"
    }

    func location(_ token: Token) -> SourceLocation { source.location(token.start) }

    func range(from start: Int) -> SourceRange {
        SourceRange(start: source.location(start), end: source.location(max(start, previousEnd)))
    }

    func make(_ kind: ExprKind, at anchor: Int, from start: Int) -> Expr {
        Expr(kind: kind, location: source.location(anchor), range: range(from: start))
    }

    mutating func enter() throws(SyntaxError) {
        guard depth < ExpressionParser.maximumDepth else {
            throw error("expression is nested too deeply (more than \(ExpressionParser.maximumDepth) levels of brackets, closures and prefix operators)", at: current)
        }
        depth += 1
    }

    /// `expression`, unless it makes the tree deeper than `maximumChainDepth` (checked as each
    /// link of a chain is added, before a longer one is built); `token` is the link's operator.
    func bounded(_ expression: Expr, at token: Token) throws(SyntaxError) -> Expr {
        guard expression.depth <= ExpressionParser.maximumChainDepth else {
            throw error("expression is too deep: more than \(ExpressionParser.maximumChainDepth) levels of operators, calls and member accesses",
                        at: token, hint: "split the chain over several 'let' lines")
        }
        return expression
    }

    func canStartExpression(_ token: Token) -> Bool {
        switch token.kind {
        case .identifier(let name):
            return !["else", "in", "return", "let", "var"].contains(name)
        case .integer, .floating, .string:
            return true
        case .punctuation(let p):
            return ["(", "[", "{", ".", "\\"].contains(p)
        case .op(let op):
            return op == "-" || op == "!"
        case .genericArguments, .invalid, .end:
            return false
        }
    }

    // MARK: Operators

    enum Associativity { case left, right, none }

    static func binaryOperator(_ op: String) -> (precedence: Int, associativity: Associativity, group: String)? {
        switch op {
        case "||": (1, .left, "LogicalDisjunctionPrecedence")
        case "&&": (2, .left, "LogicalConjunctionPrecedence")
        case "==", "!=", "<", "<=", ">", ">=": (3, .none, "ComparisonPrecedence")
        case "??": (4, .right, "NilCoalescingPrecedence")
        case "...", "..<": (5, .none, "RangeFormationPrecedence")
        case "+", "-": (6, .left, "AdditionPrecedence")
        case "*", "/", "%": (7, .left, "MultiplicationPrecedence")
        default: nil
        }
    }

    // The functions on the recursive path (parseExpression → parseBinary → parseUnary
    // → parsePrimary → parseParenthesised/parseArray/parseClosure/…) keep their own
    // work small and leave error wording and rare cases to helpers, so that each
    // level of nesting costs little stack, even in unoptimised builds.

    /// A full expression: ternary level.
    mutating func parseExpression() throws(SyntaxError) -> Expr {
        try enter()
        defer { depth -= 1 }
        let first = tokens[position]
        let condition = try parseBinary(minimumPrecedence: 1)
        if atOperator("?") {
            return try bounded(parseTernary(condition, start: first.start), at: first)
        }
        // Brackets and closures around a chain add to its depth: checked here, where every
        // nested expression returns.
        return try bounded(condition, at: first)
    }

    /// `? then : else` after `condition`.
    mutating func parseTernary(_ condition: Expr, start: Int) throws(SyntaxError) -> Expr {
        let question = current
        advance()
        guard canStartHere else {
            throw error("expected expression after '?' in ternary expression", at: current)
        }
        let then = try parseExpression()
        guard at(":") else {
            throw error("expected ':' after '? …' in ternary expression (the '?' is at \(location(question)))", at: current)
        }
        advance()
        guard canStartHere else {
            throw error("expected expression after ':' in ternary expression", at: current)
        }
        let otherwise = try parseExpression()
        return make(.ternary(condition: condition, then: then, else: otherwise), at: start, from: start)
    }

    /// The binary operator at the current token, if it binds at least as tightly as `minimumPrecedence`.
    func binaryOperatorHere(minimumPrecedence: Int) -> (op: String, precedence: Int, associativity: Associativity)? {
        guard case .op(let op) = current.kind, let info = ExpressionParser.binaryOperator(op),
              info.precedence >= minimumPrecedence else { return nil }
        // `-1` at the start of a new line is a new statement (prefix minus), as in Swift.
        if current.newlineBefore && peek().start == current.end { return nil }
        return (op, info.precedence, info.associativity)
    }

    mutating func parseBinary(minimumPrecedence: Int) throws(SyntaxError) -> Expr {
        let start = tokens[position].start
        var lhs = try parseUnary()
        var lastNonAssociative = 0
        while true {
            // `as` binds tighter than `??` and looser than ranges (Swift's CastingPrecedence).
            if atIdentifier("as"), minimumPrecedence <= 4 {
                lhs = try bounded(parseCast(lhs, start: start), at: tokens[position])
                continue
            }
            guard let (op, precedence, associativity) = binaryOperatorHere(minimumPrecedence: minimumPrecedence) else { break }
            let operatorIndex = position
            let operatorStart = tokens[position].start
            if associativity == .none && lastNonAssociative == precedence {
                throw nonAssociativeError()
            }
            advance()
            guard canStartHere else { throw expectedAfter(op) }
            let rhs: Expr
            if associativity == .right {
                try enter()
                rhs = try parseBinary(minimumPrecedence: precedence)
                depth -= 1
            } else {
                rhs = try parseBinary(minimumPrecedence: precedence + 1)
            }
            lhs = try bounded(make(.binary(op: op, lhs: lhs, rhs: rhs), at: operatorStart, from: start), at: tokens[operatorIndex])
            lastNonAssociative = associativity == .none ? precedence : 0
        }
        return lhs
    }

    func nonAssociativeError() -> SyntaxError {
        var group = ""
        if case .op(let op) = current.kind, let info = ExpressionParser.binaryOperator(op) { group = info.group }
        return error("adjacent operators are in non-associative precedence group '\(group)'", at: current)
    }

    /// "expected expression after '+'", at the current token.
    func expectedAfter(_ what: String) -> SyntaxError {
        error("expected expression after '\(what)'", at: current)
    }

    mutating func parseUnary() throws(SyntaxError) -> Expr {
        switch tokens[position].kind {
        case .op("-"), .op("!"):
            return try parsePrefixOperator()
        case .identifier("try"), .identifier("throw"):
            return try parseTryOrThrow()
        default:
            let start = tokens[position].start
            return try parsePostfix(parsePrimary(), start: start)
        }
    }

    /// `-x`, `!x`, and negative number literals.
    mutating func parsePrefixOperator() throws(SyntaxError) -> Expr {
        let token = current
        let op = token.kind == .op("-") ? "-" : "!"
        let next = peek()
        if op == "-", next.start == token.end {
            if case .integer(let digits) = next.kind {
                advance()
                advance()
                return try parsePostfix(integerLiteral("-" + digits, token: next, start: token.start), start: token.start)
            }
            if case .floating(let digits) = next.kind {
                advance()
                advance()
                return try parsePostfix(floatingLiteral("-" + digits, token: next, start: token.start), start: token.start)
            }
        }
        try enter()
        defer { depth -= 1 }
        advance()
        guard canStartHere else { throw expectedAfter(op) }
        let operand = try parseUnary()
        return make(.unary(op: op, operand: operand), at: token.start, from: token.start)
    }

    /// `try EXPR` (the `try` is dropped) and `throw EXPR`.
    mutating func parseTryOrThrow() throws(SyntaxError) -> Expr {
        let token = current
        advance()
        if token.isIdentifier("throw") {
            guard canStartHere, !current.newlineBefore else { throw expectedAfter("throw") }
            let value = try parseExpression()
            return make(.throwExpression(value), at: token.start, from: token.start)
        }
        if atOperator("?") || atOperator("!"), current.start == token.end {
            return try parseTryMode(token)
        }
        guard canStartHere else { throw expectedAfter("try") }
        try enter()
        defer { depth -= 1 }
        return try parseUnary()
    }

    // MARK: Primary expressions

    func integerLiteral(_ text: String, token: Token, start: Int) throws(SyntaxError) -> Expr {
        guard let value = Int(text) else {
            throw source.error("integer literal '\(text)' overflows when stored into 'Int'", at: start,
                               length: source.lineLength(start, token.end))
        }
        return Expr(kind: .int(value), location: source.location(start),
                    range: SourceRange(start: source.location(start), end: source.location(token.end)))
    }

    func floatingLiteral(_ text: String, token: Token, start: Int) throws(SyntaxError) -> Expr {
        guard let value = Double(text), value.isFinite else {
            throw source.error("floating-point literal '\(text)' cannot be represented as a 'Double'", at: start,
                               length: source.lineLength(start, token.end))
        }
        return Expr(kind: .double(value), location: source.location(start),
                    range: SourceRange(start: source.location(start), end: source.location(token.end)))
    }

    mutating func parsePrimary() throws(SyntaxError) -> Expr {
        switch tokens[position].kind {
        case .punctuation("("): return try parseParenthesised()
        case .punctuation("["): return try parseArray()
        case .punctuation("{"): return try parseClosure()
        case .punctuation("\\"): return try parseKeyPath()
        case .identifier("if"): return try parseIf()
        case .identifier("switch"): return try parseSwitch()
        default: return try parseSimplePrimary()
        }
    }

    /// Literals, names and implicit members.
    mutating func parseSimplePrimary() throws(SyntaxError) -> Expr {
        let token = current
        let start = token.start
        switch token.kind {
        case .integer(let digits):
            advance()
            return try integerLiteral(digits, token: token, start: start)
        case .floating(let digits):
            advance()
            return try floatingLiteral(digits, token: token, start: start)
        case .string(let parts):
            advance()
            return make(.string(try stringParts(parts)), at: start, from: start)
        case .identifier(let name):
            switch name {
            case "true", "false":
                advance()
                return make(.bool(name == "true"), at: start, from: start)
            case "nil":
                advance()
                return make(.nilLiteral, at: start, from: start)
            case "_":
                throw error("'_' can only appear in a pattern, such as a closure parameter", at: token)
            case "await":
                throw error("'await' is not supported in marble expressions", at: token)
            case "let", "var", "return", "else", "in", "guard", "func", "for", "while", "do":
                throw error(expectedExpression(), at: token)
            default:
                advance()
                return make(.identifier(name), at: start, from: start)
            }
        case .punctuation("."):
            advance()
            guard let name = current.identifier, current.start == token.end, name != "_" else {
                throw error("expected a member name after '.'", at: current.start == token.end && !isAtEnd ? current : token)
            }
            let nameToken = current
            advance()
            return make(.member(base: nil, name: name), at: nameToken.start, from: start)
        default:
            throw error(expectedExpression(), at: token)
        }
    }

    mutating func stringParts(_ parts: [RawStringPart]) throws(SyntaxError) -> [StringPart] {
        var result: [StringPart] = []
        for part in parts {
            switch part {
            case .literal(let text):
                result.append(.literal(text))
            case .interpolation(let start, let end):
                var inner = ExpressionParser(source: source, from: start, to: end, depth: depth + 1)
                // An empty interpolation is reported at its `\(`.
                let expression = try inner.parseWhole(
                    emptyError: source.error("expected expression in string interpolation", at: start - 2, length: 2),
                    leftover: { "unexpected \($0) in string interpolation" })
                result.append(.interpolation(expression))
            }
        }
        return result
    }

    mutating func parseParenthesised() throws(SyntaxError) -> Expr {
        let open = tokens[position].start
        advance()
        let saved = noTrailingClosure
        noTrailingClosure = false
        defer { noTrailingClosure = saved }
        var elements: [TupleElement] = []
        while !at(")") {
            let label = takeLabel()
            guard canStartHere else {
                throw elementError(label: label, closing: ")", what: "'('", open: open)
            }
            elements.append(TupleElement(label: label, value: try parseExpression()))
            if at(",") {
                advance()
            } else if !at(")") {
                throw separatorError(closing: ")", what: "'('", open: open)
            }
        }
        advance()
        if elements.count == 1 {
            guard elements[0].label == nil else { throw labelledSingleElementError(open) }
            return elements[0].value
        }
        return make(.tuple(elements), at: open, from: open)
    }

    func labelledSingleElementError(_ open: Int) -> SyntaxError {
        source.error("cannot create a single-element tuple with an element label", at: open)
    }

    mutating func parseArray() throws(SyntaxError) -> Expr {
        let open = tokens[position].start
        advance()
        let saved = noTrailingClosure
        noTrailingClosure = false
        defer { noTrailingClosure = saved }
        var elements: [Expr] = []
        if at(":") { return try parseDictionary(firstKey: nil, open: open) }
        while !at("]") {
            guard canStartHere else {
                throw elementError(label: nil, closing: "]", what: "array literal", open: open)
            }
            elements.append(try parseExpression())
            if elements.count == 1, at(":") { return try parseDictionary(firstKey: elements[0], open: open) }
            if at(",") {
                advance()
            } else if !at("]") {
                throw separatorError(closing: "]", what: "array literal", open: open)
            }
        }
        advance()
        return make(.array(elements), at: open, from: open)
    }

    func closeError(_ closing: String, _ what: String, _ open: Int) -> String {
        "expected '\(closing)' to close the \(what) opened at \(source.location(open))"
    }

    /// Where a list element should start but cannot.
    func elementError(label: String?, closing: String, what: String, open: Int) -> SyntaxError {
        if let label {
            let noun = what == "argument list" ? "an argument" : "expression"
            return error("expected \(noun) after '\(label):'", at: current)
        }
        if isAtEnd || current.newlineBefore {
            return error(closeError(closing, what, open), at: current)
        }
        return error(expectedExpression() + (what == "argument list" ? " in argument list" : ""), at: current)
    }

    /// After an element that is followed by neither `,` nor the closing bracket.
    func separatorError(closing: String, what: String, open: Int) -> SyntaxError {
        if what == "array literal" && at(":") {
            return error("expected ',' separator (a dictionary literal has ':' after every key)", at: current)
        }
        if canStartHere && !current.newlineBefore && !at("{") {
            return error("expected ',' separator", at: current)
        }
        return error(closeError(closing, what, open), at: current)
    }

    /// `label:` at the start of an argument or tuple element.
    mutating func takeLabel() -> String? {
        guard let name = current.identifier, peek().isPunctuation(":"), name != "_" else { return nil }
        advance()
        advance()
        return name
    }

    mutating func parseKeyPath() throws(SyntaxError) -> Expr {
        let backslash = current
        advance()
        var components: [String] = []
        while at("."), current.start == previousEnd {
            let dot = current
            advance()
            switch current.kind {
            case .identifier(let name) where name != "_" && current.start == dot.end:
                components.append(name)
            case .integer(let digits) where current.start == dot.end:
                components.append(digits)
            default:
                throw error("expected a member name after '.' in key path", at: current.start == dot.end && !isAtEnd ? current : dot)
            }
            advance()
        }
        guard !components.isEmpty else {
            throw error("expected '.' after '\\' (key paths are written \\.name)", at: current.start == backslash.end ? current : backslash)
        }
        return make(.keyPath(components), at: backslash.start, from: backslash.start)
    }

    // MARK: Postfix

    /// Member accesses, calls, trailing closures and generic arguments after a
    /// primary expression that started at index `start`.
    mutating func parsePostfix(_ primary: Expr, start: Int) throws(SyntaxError) -> Expr {
        var expression = primary
        // Whether a `?` of optional chaining was seen: the whole chain is then wrapped.
        var chained = false
        while true {
            let link = tokens[position]
            switch link.kind {
            case .punctuation("."):
                expression = try parseMember(of: expression, start: start)
            case .punctuation("(") where !link.newlineBefore:
                let arguments = try parseArguments() + parseTrailingClosures()
                expression = make(.call(callee: expression, arguments: arguments), at: start, from: start)
            case .punctuation("{") where !link.newlineBefore && !noTrailingClosure:
                let arguments = try parseTrailingClosures()
                expression = make(.call(callee: expression, arguments: arguments), at: start, from: start)
            case .punctuation("[") where !link.newlineBefore:
                expression = try parseSubscript(of: expression, start: start)
            case .op("!") where link.start == previousEnd:
                advance()
                expression = make(.forceUnwrap(expression), at: link.start, from: start)
            case .op("?") where link.start == previousEnd && (peek().isPunctuation(".") || peek().isPunctuation("[")) && peek().start == link.end:
                advance()
                expression = make(.bindOptional(expression), at: link.start, from: start)
                chained = true
            case .genericArguments(let arguments):
                advance()
                expression = make(.genericSpecialization(base: expression, arguments: arguments), at: start, from: start)
            default:
                return chained ? make(.optionalChain(expression), at: start, from: start) : expression
            }
            expression = try bounded(expression, at: link)
        }
    }

    /// `.name` or `.0` after `base`.
    mutating func parseMember(of base: Expr, start: Int) throws(SyntaxError) -> Expr {
        let dot = current
        advance()
        let nameToken = current
        let name: String
        switch nameToken.kind {
        case .identifier(let identifier) where identifier != "_" && !nameToken.newlineBefore:
            name = identifier
        case .integer(let digits) where !nameToken.newlineBefore:
            name = digits
        default:
            throw error("expected a member name after '.'", at: isAtEnd || nameToken.newlineBefore ? dot : nameToken)
        }
        advance()
        if name == "init" {
            // `Int.init(x)` is `Int(x)`; `Int.init` alone is the initialiser as a function.
            return at("(") && current.start == previousEnd ? base : initReference(base, nameToken: nameToken, start: start)
        }
        return make(.member(base: base, name: name), at: nameToken.start, from: start)
    }

    mutating func parseArguments() throws(SyntaxError) -> [Argument] {
        let open = tokens[position].start
        advance()
        let saved = noTrailingClosure
        noTrailingClosure = false
        defer { noTrailingClosure = saved }
        var arguments: [Argument] = []
        while !at(")") {
            let argumentStart = tokens[position].start
            let label = takeLabel()
            if let function = operatorFunction() {
                arguments.append(Argument(label: label, value: function, location: source.location(argumentStart)))
                if at(",") { advance() }
                continue
            }
            guard canStartHere else {
                throw elementError(label: label, closing: ")", what: "argument list", open: open)
            }
            let value = try parseExpression()
            arguments.append(Argument(label: label, value: value, location: source.location(argumentStart)))
            if at(",") {
                advance()
            } else if !at(")") {
                throw separatorError(closing: ")", what: "argument list", open: open)
            }
        }
        advance()
        return arguments
    }

    /// An operator passed as a function (`reduce(0, +)`, `sorted(by: >)`): the closure
    /// `{ $0 OP $1 }`, located at the operator; nil (nothing consumed) anywhere else.
    mutating func operatorFunction() -> Expr? {
        guard case .op(let op) = current.kind, Self.binaryOperator(op) != nil, !["...", "..<", "??"].contains(op),
              peek().isPunctuation(",") || peek().isPunctuation(")") else { return nil }
        let token = current
        advance()
        let at = location(token)
        let range = SourceRange(start: at, end: source.location(token.end))
        let operands = Expr(kind: .binary(op: op, lhs: Expr(kind: .identifier("$0"), location: at, range: range),
                                          rhs: Expr(kind: .identifier("$1"), location: at, range: range)), location: at, range: range)
        return Expr(kind: .closure(Closure(parameters: nil, body: [.expression(operands)])), location: at, range: range)
    }

    /// `{ … }` directly after a callee on the same line, then any `label: { … }`.
    mutating func parseTrailingClosures() throws(SyntaxError) -> [Argument] {
        guard at("{"), !current.newlineBefore, !noTrailingClosure else { return [] }
        let first = current
        var arguments = [Argument(label: nil, value: try parseClosure(), location: location(first))]
        while let label = current.identifier, peek().isPunctuation(":"), peek(2).isPunctuation("{"),
              !peek().newlineBefore, !peek(2).newlineBefore {
            let labelToken = current
            advance()
            advance()
            arguments.append(Argument(label: label, value: try parseClosure(), location: location(labelToken)))
        }
        return arguments
    }

    // MARK: Closures and statements

    mutating func parseClosure() throws(SyntaxError) -> Expr {
        let open = tokens[position].start
        try enter()
        defer { depth -= 1 }
        advance()
        let saved = noTrailingClosure
        noTrailingClosure = false
        defer { noTrailingClosure = saved }
        // `break` and `continue` cannot leave a closure.
        let savedTargets = jumpTargets
        jumpTargets = JumpTargets()
        defer { jumpTargets = savedTargets }
        let savedResult = resultType
        resultType = nil
        defer { resultType = savedResult }
        let parameters = closureParameters()
        let body = try parseStatements()
        guard at("}") else {
            throw error(closeError("}", "closure", open), at: current)
        }
        advance()
        return make(.closure(Closure(parameters: parameters, body: body)), at: open, from: open)
    }

    /// The parameter clause of a closure whose `{` was just consumed, ending with
    /// `in`; nil (and nothing consumed) when there is none.
    mutating func closureParameters() -> [String]? {
        let saved = position
        // A capture list such as `[weak self]` is skipped.
        if at("[") {
            var nesting = 0
            repeat {
                if at("[") { nesting += 1 }
                if at("]") { nesting -= 1 }
                advance()
            } while nesting > 0 && !isAtEnd && !at("}")
            if nesting != 0 {
                position = saved
                return nil
            }
        }
        var names: [String] = []
        if at("(") {
            advance()
            while !at(")") {
                guard let name = current.identifier, !expressionKeywords.contains(name) || name == "_" else {
                    position = saved
                    return nil
                }
                names.append(name)
                advance()
                if at(":") {
                    advance()
                    skipType(until: [",", ")"])
                }
                if at(",") {
                    advance()
                } else if !at(")") {
                    position = saved
                    return nil
                }
            }
            advance()
        } else {
            while let name = current.identifier, !expressionKeywords.contains(name) || name == "_" {
                names.append(name)
                advance()
                guard at(",") else { break }
                advance()
            }
            if names.isEmpty && !atIdentifier("in") {
                position = saved
                return nil
            }
        }
        if atIdentifier("throws") { advance() }
        if at("->") {
            advance()
            skipType(until: [])
        }
        guard atIdentifier("in") else {
            position = saved
            return nil
        }
        advance()
        return names
    }

    /// Skips a type annotation: tokens up to one of `stops` (or `in`, `{`, `}`) outside brackets.
    mutating func skipType(until stops: Set<String>) {
        var nesting = 0
        while !isAtEnd {
            if nesting == 0 {
                if case .punctuation(let p) = current.kind, stops.contains(p) { return }
                if atIdentifier("in") || at("{") || at("}") { return }
            }
            if at("(") || at("[") { nesting += 1 }
            if at(")") || at("]") {
                if nesting == 0 { return }
                nesting -= 1
            }
            advance()
        }
    }

    /// Statements up to (not including) a `}` or the end, separated by newlines or `;`.
    mutating func parseStatements() throws(SyntaxError) -> [ClosureStatement] {
        var statements: [ClosureStatement] = []
        while true {
            while at(";") { advance() }
            if at("}") || isAtEnd { return statements }
            statements.append(try parseStatement())
            if at(";") || at("}") || isAtEnd || current.newlineBefore { continue }
            throw error("consecutive statements on a line must be separated by ';'", at: current)
        }
    }

    mutating func parseStatement() throws(SyntaxError) -> ClosureStatement {
        switch tokens[position].kind {
        case .identifier("let"):
            return try parseLetStatement()
        case .identifier("var"):
            return try parseVarStatement()
        case .identifier("guard"):
            return try parseGuard()
        case .identifier("for"):
            return try parseFor()
        case .identifier("while"):
            return try parseWhile()
        case .identifier("repeat"):
            return try parseRepeat()
        case .identifier("break"), .identifier("continue"):
            return try parseJump()
        case .identifier("do"):
            return try parseDo()
        case .identifier("catch"):
            throw error("'catch' must follow a 'do' block", at: current, hint: "write: do { … } catch { … }")
        case .identifier("func"), .identifier("struct"), .identifier("enum"):
            let word = current.identifier ?? ""
            throw error("\(word == "func" ? "local functions are" : "local types are") not supported in closures of a .marble file yet", at: current,
                        hint: word == "func" ? "declare it at file level or in the test (func NAME(…) { … } on a line of its own), or bind a closure: let NAME = { (x: Int) -> Int in … }"
                                             : "declare it at file level or in the test: \(word) NAME { … } on a line of its own")
        case .identifier("return"):
            let location = location(current)
            advance()
            if at("}") || at(";") || isAtEnd || current.newlineBefore {
                return .returnStatement(nil, location)
            }
            guard canStartHere else { throw expectedAfter("return") }
            return .returnStatement(annotated(try parseExpression(), resultType, mode: .result), location)
        case .identifier(let label) where peek().isPunctuation(":") && ["for", "while", "repeat", "do", "switch", "if"].contains(peek(2).identifier ?? ""):
            throw source.error("labeled statements are not supported in closures of a .marble file yet", at: current.start, length: label.count + 1,
                               hint: "drop the label '\(label):' and leave the inner loop with a flag: var done = false … if done { break }")
        default:
            guard canStartHere else { throw error(expectedExpression(), at: current) }
            return try parseExpressionOrAssignment()
        }
    }

    /// `let NAME = EXPR` (with an optional, ignored, type annotation).
    mutating func parseLetStatement() throws(SyntaxError) -> ClosureStatement {
        let token = current
        advance()
        if at("(") { return try parsePatternBinding(keyword: token) }
        guard let name = current.identifier, !expressionKeywords.contains(name) || name == "_" else {
            throw error("expected a name after 'let'", at: current)
        }
        advance()
        let type = try parseAnnotation()
        guard atOperator("=") else {
            throw error("expected '=' after 'let \(name)'", at: current)
        }
        advance()
        guard canStartHere else { throw expectedAfter("=") }
        return .letBinding(name, annotated(try parseExpression(), type), location(token))
    }

    /// `: TYPE` after the name of a `let` or `var`, if written.
    mutating func parseAnnotation() throws(SyntaxError) -> TypeText? {
        guard at(":") else { return nil }
        advance()
        return try parseTypeText(after: "':'")
    }

    /// The value of `let x: TYPE = value`: a coercion to the written type, which decides the type
    /// of a literal as in Swift (`let total: Double = 0` is the Double 0.0).
    func annotated(_ value: Expr, _ type: TypeText?, mode: CastMode = .annotation) -> Expr {
        guard let type else { return value }
        return Expr(kind: .cast(value, type: type, mode: mode), location: value.location, range: value.range)
    }

    mutating func parseIf() throws(SyntaxError) -> Expr {
        let ifStart = tokens[position].start
        try enter()
        defer { depth -= 1 }
        advance()
        let conditions = try parseConditions(after: "if")
        let thenBody = try parseBlock(after: "'if' condition")
        var elseBody: [ClosureStatement]?
        if atIdentifier("else") {
            advance()
            if atIdentifier("if") {
                elseBody = [.expression(try parseIf())]
            } else {
                elseBody = try parseBlock(after: "'else'")
            }
        }
        return make(.ifExpression(IfExpression(conditions: conditions, thenBody: thenBody, elseBody: elseBody)),
                    at: ifStart, from: ifStart)
    }

    mutating func parseBlock(after what: String) throws(SyntaxError) -> [ClosureStatement] {
        let open = tokens[position].start
        guard at("{") else { throw blockError(after: what) }
        advance()
        let saved = noTrailingClosure
        noTrailingClosure = false
        defer { noTrailingClosure = saved }
        let body = try parseStatements()
        guard at("}") else {
            throw error(closeError("}", "block", open), at: current)
        }
        advance()
        return body
    }

    func blockError(after what: String) -> SyntaxError {
        error("expected '{' after \(what)", at: current)
    }
}
