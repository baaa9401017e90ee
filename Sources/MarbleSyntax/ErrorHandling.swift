// Error handling in closure bodies: `do { … } catch PATTERN where CONDITION { … }`, `try?` and
// `try!` — their syntax tree, then the parser's part for them. (A plain `try` marks a call that
// can throw and changes nothing: the parser drops it.)

/// `do { BODY } catch … { … } …`: an error thrown in the body goes to the first clause whose
/// pattern matches it; one that no clause matches goes on to the enclosing closure.
public struct DoStatement: Sendable {
    public var body: [ClosureStatement]
    public var clauses: [CatchClause]
    /// The `do` keyword.
    public var location: SourceLocation

    public init(body: [ClosureStatement], clauses: [CatchClause], location: SourceLocation) {
        self.body = body
        self.clauses = clauses
        self.location = location
    }
}

/// `catch PATTERN where CONDITION { BODY }`; without a pattern it catches every error, which the
/// body sees as `error`.
public struct CatchClause: Sendable {
    public var pattern: Pattern?
    public var guardExpression: Expr?
    public var body: [ClosureStatement]
    /// The `catch` keyword.
    public var location: SourceLocation

    public init(pattern: Pattern?, guardExpression: Expr?, body: [ClosureStatement], location: SourceLocation) {
        self.pattern = pattern
        self.guardExpression = guardExpression
        self.body = body
        self.location = location
    }

    /// The names the body sees: the pattern's, or `error` when there is no pattern.
    public var boundNames: [String] { pattern?.boundNames ?? ["error"] }
}

/// `try?` (nil when the expression throws) and `try!` (a runtime error then).
public enum TryMode: String, Sendable {
    case optional = "try?"
    case forced = "try!"
}

// MARK: - Parsing

extension ExpressionParser {
    /// `do { … }` and its `catch` clauses.
    mutating func parseDo() throws(SyntaxError) -> ClosureStatement {
        let token = current
        try enter()
        defer { depth -= 1 }
        advance()
        let body = try parseBlock(after: "'do'")
        var clauses: [CatchClause] = []
        while atIdentifier("catch") {
            let catchToken = current
            advance()
            let saved = noTrailingClosure
            noTrailingClosure = true
            var pattern: Pattern?
            if !at("{"), !atIdentifier("where") {
                pattern = try parsePattern(binding: false)
                if at(",") {
                    throw error("a 'catch' with several patterns is not supported in closures of a .marble file yet", at: current,
                                hint: "write one 'catch' for each pattern")
                }
            }
            var guardExpression: Expr?
            if atIdentifier("where") {
                advance()
                guard canStartHere, !at("{") else { throw expectedAfter("where") }
                guardExpression = try parseExpression()
            }
            noTrailingClosure = saved
            let clauseBody = try parseBlock(after: pattern == nil ? "'catch'" : "the 'catch' pattern")
            clauses.append(CatchClause(pattern: pattern, guardExpression: guardExpression, body: clauseBody, location: location(catchToken)))
        }
        return .doCatch(DoStatement(body: body, clauses: clauses, location: location(token)))
    }

    /// `try?` or `try!` and the expression after it, which it covers to its end (`try? a ?? b` is
    /// `try? (a ?? b)`), as in Swift; the current token is the `?` or `!`.
    mutating func parseTryMode(_ keyword: Token) throws(SyntaxError) -> Expr {
        let mode: TryMode = atOperator("?") ? .optional : .forced
        advance()
        guard canStartHere else { throw expectedAfter(mode.rawValue) }
        try enter()
        defer { depth -= 1 }
        let operand = try parseExpression()
        return make(.tryExpression(operand, mode), at: keyword.start, from: keyword.start)
    }

    /// The type after `as`, `as?`, `as!` or `is` (`x as? User`, `catch let e as APIError`, `case is
    /// String:`): a name, `A.B`, brackets, generic arguments, and a `?` written against it.
    mutating func parseWrittenType(after keyword: String) throws(SyntaxError) -> TypeText {
        let typeStart = current
        guard current.identifier != nil || at("[") || at("(") else {
            throw error("expected a type after '\(keyword)'", at: current)
        }
        var nesting = 0
        repeat {
            if at("(") || at("[") { nesting += 1 }
            if at(")") || at("]") { nesting -= 1 }
            try checkTypeNestingHere(outer: nesting)
            advance()
        } while nesting > 0 && !isAtEnd
        // `A.B`, generic arguments, and a trailing `?` written against the type.
        while at("."), peek().identifier != nil, current.start == previousEnd {
            advance()
            advance()
        }
        if case .genericArguments = current.kind { advance() }
        if atOperator("?"), current.start == previousEnd { advance() }
        return TypeText(text: source.text(typeStart.start, previousEnd), location: location(typeStart))
    }
}
