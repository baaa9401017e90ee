// Loops and the statements that bind a pattern in closure bodies: `for … in … where …`, `while`,
// `repeat … while`, `break`, `continue`, and `let (a, b) = pair` / `var (a, b) = pair` — their
// syntax tree, then the parser's part for them.

/// `for PATTERN in SEQUENCE where CONDITION { BODY }`; `for case PATTERN in …` skips the elements
/// the pattern does not match.
public struct ForInStatement: Sendable {
    public var pattern: Pattern
    /// Written with `case`: a refutable pattern that filters the elements.
    public var isCasePattern: Bool
    public var sequence: Expr
    public var whereClause: Expr?
    public var body: [ClosureStatement]
    /// The `for` keyword.
    public var location: SourceLocation

    public init(pattern: Pattern, isCasePattern: Bool = false, sequence: Expr, whereClause: Expr?, body: [ClosureStatement], location: SourceLocation) {
        self.pattern = pattern
        self.isCasePattern = isCasePattern
        self.sequence = sequence
        self.whereClause = whereClause
        self.body = body
        self.location = location
    }
}

/// `while CONDITIONS { BODY }` (conditions as an `if`'s: `while let next = queue.first, …`), or
/// `repeat { BODY } while CONDITION`, whose body runs before the first test.
public struct WhileStatement: Sendable {
    public var conditions: [ConditionClause]
    public var body: [ClosureStatement]
    public var isRepeat: Bool
    /// The `while` or `repeat` keyword.
    public var location: SourceLocation

    public init(conditions: [ConditionClause], body: [ClosureStatement], isRepeat: Bool = false, location: SourceLocation) {
        self.conditions = conditions
        self.body = body
        self.isRepeat = isRepeat
        self.location = location
    }
}

/// `let (name, score) = pair`, `var (x, y) = point`: a pattern that always matches, whose names the
/// statements after it see (assignable when declared with `var`).
public struct PatternBinding: Sendable {
    public var pattern: Pattern
    public var value: Expr
    public var isVariable: Bool
    /// The `let` or `var` keyword.
    public var location: SourceLocation

    public init(pattern: Pattern, value: Expr, isVariable: Bool, location: SourceLocation) {
        self.pattern = pattern
        self.value = value
        self.isVariable = isVariable
        self.location = location
    }
}

// MARK: - Parsing

extension ExpressionParser {
    /// `for PATTERN in SEQUENCE (where CONDITION)? { … }`.
    mutating func parseFor() throws(SyntaxError) -> ClosureStatement {
        let token = current
        try enter()
        defer { depth -= 1 }
        advance()
        var isCase = false
        let pattern: Pattern
        if atIdentifier("case") {
            isCase = true
            advance()
            pattern = try parsePattern(binding: false)
        } else if atIdentifier("var") || atIdentifier("let") {
            // `for var x in …`: the name is a fresh variable each time round, as without `var`.
            advance()
            pattern = try parsePattern(binding: true)
        } else {
            guard current.identifier != nil || at("(") else {
                throw error("expected a pattern after 'for'", at: current, hint: "write: for item in items { … }")
            }
            pattern = try parsePattern(binding: true)
        }
        if at(":") {
            advance()
            skipType(until: [])
        }
        guard atIdentifier("in") else {
            throw error("expected 'in' after the pattern of a 'for' loop", at: current, hint: "write: for item in items { … }")
        }
        advance()
        let saved = noTrailingClosure
        noTrailingClosure = true
        defer { noTrailingClosure = saved }
        guard canStartHere, !at("{") else { throw error("expected a sequence after 'in'", at: current, hint: "for i in 0..<3 { … }, for item in items { … }") }
        let sequence = try parseExpression()
        var whereClause: Expr?
        if atIdentifier("where") {
            advance()
            guard canStartHere, !at("{") else { throw expectedAfter("where") }
            whereClause = try parseExpression()
        }
        let body = try parseLoopBody(after: "the 'for' sequence")
        return .forIn(ForInStatement(pattern: pattern, isCasePattern: isCase, sequence: sequence, whereClause: whereClause, body: body,
                                     location: location(token)))
    }

    /// `while CONDITIONS { … }`.
    mutating func parseWhile() throws(SyntaxError) -> ClosureStatement {
        let token = current
        try enter()
        defer { depth -= 1 }
        advance()
        let conditions = try parseConditions(after: "while")
        let body = try parseLoopBody(after: "'while' condition")
        return .whileLoop(WhileStatement(conditions: conditions, body: body, location: location(token)))
    }

    /// `repeat { … } while CONDITION`.
    mutating func parseRepeat() throws(SyntaxError) -> ClosureStatement {
        let token = current
        try enter()
        defer { depth -= 1 }
        advance()
        let body = try parseLoopBody(after: "'repeat'")
        guard atIdentifier("while") else {
            throw error("expected 'while' after the body of 'repeat'", at: current, hint: "write: repeat { … } while CONDITION")
        }
        advance()
        guard canStartHere, !at("{") else { throw error("expected a condition after 'while'", at: current) }
        let saved = noTrailingClosure
        noTrailingClosure = true
        defer { noTrailingClosure = saved }
        let condition = try parseExpression()
        return .whileLoop(WhileStatement(conditions: [.boolean(condition)], body: body, isRepeat: true, location: location(token)))
    }

    /// A loop's `{ … }`, where `break` and `continue` belong to the loop.
    private mutating func parseLoopBody(after what: String) throws(SyntaxError) -> [ClosureStatement] {
        let saved = jumpTargets
        jumpTargets.loops += 1
        defer { jumpTargets = saved }
        return try parseBlock(after: what)
    }

    /// `break` or `continue`, where a loop (or, for `break`, a `switch`) is there to leave.
    mutating func parseJump() throws(SyntaxError) -> ClosureStatement {
        let token = current
        let isBreak = token.isIdentifier("break")
        advance()
        if let label = current.identifier, !current.newlineBefore, !expressionKeywords.contains(label) {
            throw error("labeled '\(isBreak ? "break" : "continue")' is not supported in closures of a .marble file yet", at: current,
                        hint: "leave the inner loop with a flag: var done = false … if done { break }")
        }
        if isBreak {
            guard jumpTargets.loops > 0 || jumpTargets.switches > 0 else {
                throw error("'break' is only allowed inside a loop or a switch", at: token,
                            hint: "leave a closure with 'return'")
            }
            return .breakStatement(location(token))
        }
        guard jumpTargets.loops > 0 else {
            throw error("'continue' is only allowed inside a loop", at: token, hint: "leave a closure with 'return'")
        }
        return .continueStatement(location(token))
    }

    /// `let (a, b) = EXPR` / `var (a, b) = EXPR` (the current token is the `(` after the keyword).
    mutating func parsePatternBinding(keyword: Token) throws(SyntaxError) -> ClosureStatement {
        let isVariable = keyword.isIdentifier("var")
        let pattern = try parsePattern(binding: true)
        let type = try parseAnnotation()
        guard atOperator("=") else {
            throw error("expected '=' after the pattern of '\(isVariable ? "var" : "let")'", at: current,
                        hint: "write: \(isVariable ? "var" : "let") (name, score) = pair")
        }
        advance()
        guard canStartHere else { throw expectedAfter("=") }
        return .patternBinding(PatternBinding(pattern: pattern, value: annotated(try parseExpression(), type), isVariable: isVariable, location: location(keyword)))
    }
}

/// Which statements `break` and `continue` may leave from here: loops and `switch`es of the
/// closure being parsed (a closure's body starts with none, as in Swift).
struct JumpTargets {
    var loops = 0
    var switches = 0
}
