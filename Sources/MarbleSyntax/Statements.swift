// The statements and patterns of closure bodies beyond `let`, `return` and `if`: `var` and
// assignment, `guard`, `if let` / `if case`, `switch` with patterns, dictionaries, subscripts,
// `!` and optional chaining — their syntax tree, then the parser's part for them.

/// `KEY: VALUE` in a dictionary literal.
public struct DictionaryEntry: Sendable {
    public var key: Expr
    public var value: Expr

    public init(key: Expr, value: Expr) {
        self.key = key
        self.value = value
    }
}

/// One condition of an `if` or `guard`, separated from the next by `,`.
public enum ConditionClause: Sendable {
    /// A Boolean expression.
    case boolean(Expr)
    /// `let NAME = EXPR` (or `let NAME`, the shorthand for `let NAME = NAME`): true when the
    /// optional holds a value, which NAME is then bound to.
    case optionalBinding(name: String, value: Expr, location: SourceLocation)
    /// `case PATTERN = EXPR`.
    case patternMatch(Pattern, Expr)

    /// The expression tested.
    public var expression: Expr {
        switch self {
        case .boolean(let expr), .optionalBinding(_, let expr, _), .patternMatch(_, let expr): expr
        }
    }

    public var depth: Int {
        switch self {
        case .boolean(let expr), .optionalBinding(_, let expr, _): expr.depth
        case .patternMatch(let pattern, let expr): max(pattern.depth, expr.depth)
        }
    }
}

/// A pattern of a `switch` case or an `if case`/`guard case` condition.
public indirect enum Pattern: Sendable {
    /// `_`
    case wildcard(SourceLocation)
    /// `let x` (or a name inside `let (x, y)`): matches anything and binds it.
    case binding(String, SourceLocation)
    /// `1`, `"a"`, `nil`, `1...5`, `0..<10`, `-1`: equal to the value, or a range holding it.
    case expression(Expr)
    /// `(let x, 0)`, `(_, "a")`
    case tuple([Pattern], SourceLocation)
    /// `.some(let x)`, `.none`, `.success(let v)`, `Result.failure(_)`, `.loaded(let items)`;
    /// `payload` is nil when no parentheses follow the name. `type` is the name before the dot.
    case enumCase(type: String?, name: String, payload: [Pattern]?, location: SourceLocation)
    /// `let x?`: an optional holding a value that matches the inner pattern.
    case optional(Pattern)
    /// `is APIError`: a value of that type.
    case isType(TypeText)
    /// `let e as APIError`: a value of that type, matched by the inner pattern.
    case cast(Pattern, TypeText)

    /// Where a message about the pattern points.
    public var location: SourceLocation {
        switch self {
        case .wildcard(let location), .binding(_, let location), .tuple(_, let location), .enumCase(_, _, _, let location): location
        case .expression(let expr): expr.location
        case .optional(let inner), .cast(let inner, _): inner.location
        case .isType(let type): type.location
        }
    }

    /// The names the pattern binds, in order.
    public var boundNames: [String] {
        switch self {
        case .binding(let name, _): [name]
        case .tuple(let items, _): items.flatMap(\.boundNames)
        case .enumCase(_, _, let payload, _): (payload ?? []).flatMap(\.boundNames)
        case .optional(let inner), .cast(let inner, _): inner.boundNames
        case .wildcard, .expression, .isType: []
        }
    }

    /// The expressions inside (values compared against, range bounds).
    public var expressions: [Expr] {
        switch self {
        case .expression(let expr): [expr]
        case .tuple(let items, _): items.flatMap(\.expressions)
        case .enumCase(_, _, let payload, _): (payload ?? []).flatMap(\.expressions)
        case .optional(let inner), .cast(let inner, _): inner.expressions
        case .wildcard, .binding, .isType: []
        }
    }

    public var depth: Int {
        switch self {
        case .wildcard, .binding: 1
        case .expression(let expr): expr.depth
        case .tuple(let items, _): 1 + items.reduce(0) { max($0, $1.depth) }
        case .enumCase(_, _, let payload, _): 1 + (payload ?? []).reduce(0) { max($0, $1.depth) }
        case .optional(let inner), .cast(let inner, _): 1 + inner.depth
        case .isType: 1
        }
    }
}

/// `switch SUBJECT { case …: … }`.
public struct SwitchExpression: Sendable {
    public var subject: Expr
    public var cases: [SwitchCase]
    /// The `switch` keyword.
    public var location: SourceLocation

    public init(subject: Expr, cases: [SwitchCase], location: SourceLocation) {
        self.subject = subject
        self.cases = cases
        self.location = location
    }

    var depth: Int {
        cases.reduce(subject.depth) { deepest, switchCase in
            max(deepest, ExprKind.depth(of: switchCase.body),
                switchCase.items.reduce(0) { max($0, $1.pattern.depth, $1.guardExpression?.depth ?? 0) })
        }
    }
}

/// One `case P1, P2 where C:` (or `default:`) and its statements.
public struct SwitchCase: Sendable {
    /// Empty for `default`.
    public var items: [CaseItem]
    public var body: [ClosureStatement]
    /// The `case` or `default` keyword.
    public var location: SourceLocation

    public init(items: [CaseItem], body: [ClosureStatement], location: SourceLocation) {
        self.items = items
        self.body = body
        self.location = location
    }

    public var isDefault: Bool { items.isEmpty }
}

/// One pattern of a case, with its own `where` clause.
public struct CaseItem: Sendable {
    public var pattern: Pattern
    public var guardExpression: Expr?

    public init(pattern: Pattern, guardExpression: Expr?) {
        self.pattern = pattern
        self.guardExpression = guardExpression
    }
}

/// `guard CONDITIONS else { BODY }`: the body must leave the closure (`return` or `throw`), and
/// the names the conditions bind are seen by the statements after the guard.
public struct GuardStatement: Sendable {
    public var conditions: [ConditionClause]
    public var elseBody: [ClosureStatement]
    /// The `guard` keyword.
    public var location: SourceLocation

    public init(conditions: [ConditionClause], elseBody: [ClosureStatement], location: SourceLocation) {
        self.conditions = conditions
        self.elseBody = elseBody
        self.location = location
    }
}

/// `TARGET = VALUE` or `TARGET op= VALUE`; the target is a name, or a path into one
/// (`next.count`, `counts[key]`: `Expr.assignmentPath`).
public struct Assignment: Sendable {
    public var target: Expr
    /// `=`, `+=`, `-=`, `*=`, `/=`, `%=`.
    public var op: String
    public var value: Expr
    /// The operator.
    public var location: SourceLocation

    public init(target: Expr, op: String, value: Expr, location: SourceLocation) {
        self.target = target
        self.op = op
        self.value = value
        self.location = location
    }

    /// The binary operator of a compound assignment (`+` for `+=`); nil for `=`.
    public var binaryOperator: String? { op == "=" ? nil : String(op.dropLast()) }
}

// MARK: - Parsing

extension ExpressionParser {
    static let assignmentOperators: Set<String> = ["=", "+=", "-=", "*=", "/=", "%="]

    /// `var NAME = EXPR`.
    mutating func parseVarStatement() throws(SyntaxError) -> ClosureStatement {
        let token = current
        advance()
        if at("(") { return try parsePatternBinding(keyword: token) }
        guard let name = current.identifier, !expressionKeywords.contains(name), name != "_" else {
            throw error("expected a name after 'var'", at: current)
        }
        advance()
        let type = try parseAnnotation()
        guard atOperator("=") else {
            throw error("'var \(name)' needs a starting value", at: current,
                        hint: type.map { "write 'var \(name): \($0.text) = …'" } ?? "write 'var \(name) = 0' (the marble language infers its type)")
        }
        advance()
        guard canStartHere else { throw expectedAfter("=") }
        return .variable(name, annotated(try parseExpression(), type), location(token))
    }

    /// An expression statement, or an assignment if an assignment operator follows it.
    mutating func parseExpressionOrAssignment() throws(SyntaxError) -> ClosureStatement {
        let target = try parseExpression()
        guard case .op(let op) = current.kind, Self.assignmentOperators.contains(op) else { return .expression(target) }
        let opToken = current
        guard target.assignmentPath != nil else {
            throw error("cannot assign to this expression", at: opToken,
                        hint: "assign to a 'var' (n = 1), a property of one (next.count = 1) or an element of one (counts[key] = 1)")
        }
        advance()
        guard canStartHere else { throw expectedAfter(op) }
        let value = try parseExpression()
        return .assignment(Assignment(target: target, op: op, value: value, location: location(opToken)))
    }

    /// `guard CONDITIONS else { … }`; the body must end in `return` or `throw`.
    mutating func parseGuard() throws(SyntaxError) -> ClosureStatement {
        let token = current
        try enter()
        defer { depth -= 1 }
        advance()
        let conditions = try parseConditions(after: "guard")
        guard atIdentifier("else") else {
            throw error("expected 'else' after 'guard' condition", at: current)
        }
        advance()
        let body = try parseBlock(after: "'else'")
        if !Self.leavesScope(body) {
            throw source.error("'guard' body must not fall through, consider using a 'return' or 'throw' to exit the scope",
                               at: token.start, length: 5)
        }
        return .guardStatement(GuardStatement(conditions: conditions, elseBody: body, location: location(token)))
    }

    /// Whether a block always leaves the scope it is in: it ends in `return` or `throw` (or, in a
    /// loop, `break` or `continue`), or in an `if`/`else` or `switch` all of whose branches do. A
    /// `break` in a `switch` (`insideSwitch`) leaves only the switch.
    static func leavesScope(_ body: [ClosureStatement], insideSwitch: Bool = false) -> Bool {
        switch body.last {
        case .returnStatement?, .continueStatement?: return true
        case .breakStatement?: return !insideSwitch
        case .expression(let expr)?:
            switch expr.kind {
            case .throwExpression: return true
            case .ifExpression(let ifExpression):
                guard let elseBody = ifExpression.elseBody else { return false }
                return leavesScope(ifExpression.thenBody, insideSwitch: insideSwitch) && leavesScope(elseBody, insideSwitch: insideSwitch)
            case .switchExpression(let switchExpression):
                return switchExpression.cases.allSatisfy { leavesScope($0.body, insideSwitch: true) }
            default: return false
            }
        default: return false
        }
    }

    /// The comma-separated conditions of an `if` or `guard`, up to its `{` or `else`.
    mutating func parseConditions(after keyword: String) throws(SyntaxError) -> [ConditionClause] {
        let saved = noTrailingClosure
        noTrailingClosure = true
        defer { noTrailingClosure = saved }
        var conditions: [ConditionClause] = []
        repeat {
            if !conditions.isEmpty { advance() }
            conditions.append(try parseCondition(after: keyword))
        } while at(",")
        return conditions
    }

    mutating func parseCondition(after keyword: String) throws(SyntaxError) -> ConditionClause {
        if atIdentifier("let") || atIdentifier("var") {
            let token = current
            advance()
            guard let name = current.identifier, !expressionKeywords.contains(name), name != "_" else {
                throw error("expected a name after '\(token.identifier ?? "let")' in a condition", at: current,
                            hint: "write '\(keyword) let value = optional', or '\(keyword) case PATTERN = value' to match a pattern")
            }
            let nameToken = current
            advance()
            if at(":") {
                advance()
                skipType(until: [","])
                while atOperator("?") || atOperator("!") { advance() }
            }
            guard atOperator("=") else {
                // `if let x`: shorthand for `if let x = x`.
                let value = Expr(kind: .identifier(name), location: location(nameToken),
                                 range: SourceRange(start: location(nameToken), end: source.location(nameToken.end)))
                return .optionalBinding(name: name, value: value, location: location(token))
            }
            advance()
            guard canStartHere else { throw expectedAfter("=") }
            return .optionalBinding(name: name, value: try parseExpression(), location: location(token))
        }
        if atIdentifier("case") {
            advance()
            let pattern = try parsePattern(binding: false)
            guard atOperator("=") else {
                throw error("expected '=' and the value to match after the pattern of '\(keyword) case'", at: current)
            }
            advance()
            guard canStartHere else { throw expectedAfter("=") }
            return .patternMatch(pattern, try parseExpression())
        }
        guard canStartHere, !at("{") else {
            throw error("expected a condition after '\(keyword)'", at: current)
        }
        return .boolean(try parseExpression())
    }

    // MARK: switch

    mutating func parseSwitch() throws(SyntaxError) -> Expr {
        let token = current
        try enter()
        defer { depth -= 1 }
        advance()
        guard canStartHere, !at("{") else { throw error("expected an expression after 'switch'", at: current) }
        let saved = noTrailingClosure
        noTrailingClosure = true
        let subject = try parseExpression()
        noTrailingClosure = saved
        let open = current.start
        guard at("{") else { throw error("expected '{' after 'switch' subject", at: current) }
        advance()
        var cases: [SwitchCase] = []
        let savedTargets = jumpTargets
        jumpTargets.switches += 1
        defer { jumpTargets = savedTargets }
        while !at("}") {
            while at(";") { advance() }
            if at("}") { break }
            if atIdentifier("case") || atIdentifier("default") {
                cases.append(try parseSwitchCase())
            } else if isAtEnd {
                throw error(closeError("}", "switch", open), at: current)
            } else {
                throw error("all statements inside a switch must be covered by a 'case' or 'default'", at: current)
            }
        }
        advance()
        guard !cases.isEmpty else {
            throw source.error("'switch' statement body must have at least one 'case' or 'default' block", at: token.start, length: 6)
        }
        return make(.switchExpression(SwitchExpression(subject: subject, cases: cases, location: location(token))), at: token.start, from: token.start)
    }

    mutating func parseSwitchCase() throws(SyntaxError) -> SwitchCase {
        let token = current
        var items: [CaseItem] = []
        advance()
        if token.isIdentifier("case") {
            repeat {
                if !items.isEmpty { advance() }
                let pattern = try parsePattern(binding: false)
                var guardExpression: Expr?
                if atIdentifier("where") {
                    advance()
                    guard canStartHere else { throw expectedAfter("where") }
                    guardExpression = try parseExpression()
                }
                items.append(CaseItem(pattern: pattern, guardExpression: guardExpression))
            } while at(",")
        }
        guard at(":") else {
            throw error("expected ':' after '\(token.isIdentifier("case") ? "case" : "default")'", at: current)
        }
        let colon = current
        advance()
        var body: [ClosureStatement] = []
        while true {
            while at(";") { advance() }
            if at("}") || isAtEnd || atIdentifier("case") || atIdentifier("default") { break }
            if atIdentifier("fallthrough") {
                throw error("'fallthrough' is not supported in marble expressions", at: current, hint: "list both patterns in one case: case 1, 2:")
            }
            body.append(try parseStatement())
            if at(";") || at("}") || isAtEnd || current.newlineBefore { continue }
            throw error("consecutive statements on a line must be separated by ';'", at: current)
        }
        guard !body.isEmpty else {
            throw error("'\(token.isIdentifier("case") ? "case" : "default")' label in a 'switch' must have at least one executable statement",
                        at: colon, hint: "write 'break' for a case that does nothing")
        }
        return SwitchCase(items: items, body: body, location: location(token))
    }

    // MARK: Patterns

    /// A pattern; `binding` is true inside `let`/`var`, where a bare name binds.
    mutating func parsePattern(binding: Bool) throws(SyntaxError) -> Pattern {
        try enter()
        defer { depth -= 1 }
        let token = current
        var pattern: Pattern
        switch token.kind {
        case .identifier("let"), .identifier("var"):
            if binding {
                throw error("'\(token.identifier ?? "let")' cannot appear nested inside another 'var' or 'let' pattern", at: token)
            }
            advance()
            return try parsePattern(binding: true)
        case .identifier("_"):
            advance()
            pattern = .wildcard(location(token))
        case .identifier("is"):
            advance()
            return .isType(try parseWrittenType(after: "is"))
        case .punctuation("("):
            advance()
            var items: [Pattern] = []
            while !at(")") {
                _ = takeLabel()
                items.append(try parsePattern(binding: binding))
                if at(",") { advance() } else if !at(")") {
                    throw error(isAtEnd ? closeError(")", "tuple pattern", token.start) : "expected ',' separator", at: current)
                }
            }
            advance()
            pattern = items.count == 1 ? items[0] : .tuple(items, location(token))
        case .punctuation(".") where peek().identifier != nil && peek().start == token.end:
            advance()
            let name = current
            advance()
            pattern = try parseEnumCasePattern(type: nil, name: name, binding: binding)
        // `Result.success(…)`, `APIError.offline`; `Int.min` and the like are values (`case Int.min..<0:`).
        case .identifier(let name) where name.first?.isUppercase == true && !Self.valueTypeNames.contains(name)
            && (peek().isPunctuation(".") || isGenericThenDot):
            advance()
            if case .genericArguments = current.kind { advance() }
            advance()
            guard current.identifier != nil else { throw error("expected a case name after '\(name).'", at: current) }
            let caseName = current
            advance()
            pattern = try parseEnumCasePattern(type: name, name: caseName, binding: binding)
        case .identifier(let name) where binding && !["true", "false", "nil"].contains(name) && !expressionKeywords.contains(name):
            advance()
            pattern = .binding(name, location(token))
        default:
            guard canStartHere else { throw error("expected a pattern", at: current) }
            pattern = .expression(try parseBinary(minimumPrecedence: 1))
        }
        if atOperator("?"), current.start == previousEnd {
            advance()
            pattern = .optional(pattern)
        }
        if atIdentifier("as") {
            advance()
            pattern = .cast(pattern, try parseWrittenType(after: "as"))
        }
        return pattern
    }

    /// Types whose static members in a pattern are values to compare, not enum cases.
    static let valueTypeNames: Set<String> = ["Int", "Double", "String", "Bool", "Character"]

    private var isGenericThenDot: Bool {
        if case .genericArguments = peek().kind { return peek(2).isPunctuation(".") }
        return false
    }

    /// The payload of `.name(…)` after its name.
    private mutating func parseEnumCasePattern(type: String?, name: Token, binding: Bool) throws(SyntaxError) -> Pattern {
        guard let caseName = name.identifier else { throw error("expected a case name after '.'", at: name) }
        var payload: [Pattern]?
        if at("("), current.start == name.end {
            let open = current.start
            advance()
            var items: [Pattern] = []
            while !at(")") {
                _ = takeLabel()
                items.append(try parsePattern(binding: binding))
                if at(",") { advance() } else if !at(")") {
                    throw error(isAtEnd ? closeError(")", "pattern", open) : "expected ',' separator", at: current)
                }
            }
            advance()
            payload = items
        }
        return .enumCase(type: type, name: caseName, payload: payload, location: location(name))
    }

    // MARK: Dictionaries, subscripts, `!`, `?.`

    /// `[:]`, or the rest of `[KEY: VALUE, …]` after its first key (the current token is the `:`).
    mutating func parseDictionary(firstKey: Expr?, open: Int) throws(SyntaxError) -> Expr {
        var entries: [DictionaryEntry] = []
        if firstKey == nil {
            advance()  // `:` of `[:]`
            guard at("]") else { throw error("expected ']' after '[:' (an empty dictionary is written [:])", at: current) }
            advance()
            return make(.dictionary([]), at: open, from: open)
        }
        var key = firstKey
        while let entryKey = key {
            guard at(":") else { throw error("expected ':' after the key in a dictionary literal", at: current) }
            advance()
            guard canStartHere else { throw elementError(label: nil, closing: "]", what: "dictionary literal", open: open) }
            entries.append(DictionaryEntry(key: entryKey, value: try parseExpression()))
            key = nil
            if at(",") {
                advance()
                if at("]") { break }
                guard canStartHere else { throw elementError(label: nil, closing: "]", what: "dictionary literal", open: open) }
                key = try parseExpression()
            } else if !at("]") {
                throw separatorError(closing: "]", what: "dictionary literal", open: open)
            }
        }
        advance()
        return make(.dictionary(entries), at: open, from: open)
    }

    /// `[INDEX]` after `base`.
    mutating func parseSubscript(of base: Expr, start: Int) throws(SyntaxError) -> Expr {
        let open = current.start
        try enter()
        defer { depth -= 1 }
        advance()
        let saved = noTrailingClosure
        noTrailingClosure = false
        defer { noTrailingClosure = saved }
        guard canStartHere else { throw error(at("]") ? "expected an index inside '[]'" : expectedExpression(), at: current) }
        let index = try parseExpression()
        var fallback: Expr?
        if at(","), peek().isIdentifier("default"), peek(2).isPunctuation(":") {
            advance()
            advance()
            advance()
            guard canStartHere else { throw expectedAfter("default:") }
            fallback = try parseExpression()
        }
        guard at("]") else {
            throw error(at(",") ? "a subscript takes one index (and a dictionary's 'default:')" : closeError("]", "subscript", open), at: current)
        }
        advance()
        return Expr(kind: .subscriptAccess(base: base, index: index, default: fallback), location: source.location(open), range: range(from: start))
    }

    /// `Type.init` not followed by a call: the initialiser as a function, `{ Type($0) }`.
    func initReference(_ base: Expr, nameToken: Token, start: Int) -> Expr {
        let at = location(nameToken)
        let argument = Expr(kind: .identifier("$0"), location: at)
        let call = Expr(kind: .call(callee: base, arguments: [Argument(label: nil, value: argument, location: at)]), location: at, range: range(from: start))
        return make(.closure(Closure(parameters: nil, body: [.expression(call)])), at: nameToken.start, from: start)
    }
}

// MARK: - Walking

extension ConditionClause {
    /// The expression tested and those inside its pattern.
    public var expressions: [Expr] {
        switch self {
        case .boolean(let expr), .optionalBinding(_, let expr, _): [expr]
        case .patternMatch(let pattern, let expr): [expr] + pattern.expressions
        }
    }

    /// The names the condition binds when it holds.
    public var boundNames: [String] {
        switch self {
        case .boolean: []
        case .optionalBinding(let name, _, _): [name]
        case .patternMatch(let pattern, _): pattern.boundNames
        }
    }
}

extension ClosureStatement {
    /// The expressions of this statement, and of the statements of a `guard`'s or a loop's body.
    public var expressions: [Expr] {
        switch self {
        case .expression(let expr), .letBinding(_, let expr, _), .variable(_, let expr, _): [expr]
        case .returnStatement(let expr, _): expr.map { [$0] } ?? []
        case .assignment(let assignment): [assignment.target, assignment.value]
        case .guardStatement(let guardStatement):
            guardStatement.conditions.flatMap(\.expressions) + guardStatement.elseBody.flatMap(\.expressions)
        case .forIn(let loop):
            [loop.sequence] + loop.pattern.expressions + (loop.whereClause.map { [$0] } ?? []) + loop.body.flatMap(\.expressions)
        case .whileLoop(let loop):
            loop.conditions.flatMap(\.expressions) + loop.body.flatMap(\.expressions)
        case .breakStatement, .continueStatement: []
        case .patternBinding(let binding): [binding.value] + binding.pattern.expressions
        case .doCatch(let statement):
            statement.body.flatMap(\.expressions) + statement.clauses.flatMap { clause in
                (clause.pattern?.expressions ?? []) + (clause.guardExpression.map { [$0] } ?? []) + clause.body.flatMap(\.expressions)
            }
        }
    }
}

extension ExprKind {
    /// The expressions directly inside a dictionary, subscript, `!`, `?`, optional chain, `if`
    /// or `switch` (their bodies' statements included); empty for every other kind.
    public var statementChildren: [Expr] {
        switch self {
        case .dictionary(let entries): entries.flatMap { [$0.key, $0.value] }
        case .subscriptAccess(let base, let index, let fallback): [base, index] + (fallback.map { [$0] } ?? [])
        case .forceUnwrap(let operand), .bindOptional(let operand), .optionalChain(let operand): [operand]
        case .ifExpression(let ifExpression):
            ifExpression.conditions.flatMap(\.expressions) + ifExpression.thenBody.flatMap(\.expressions)
                + (ifExpression.elseBody ?? []).flatMap(\.expressions)
        case .switchExpression(let switchExpression):
            [switchExpression.subject] + switchExpression.cases.flatMap { switchCase in
                switchCase.items.flatMap { $0.pattern.expressions + ($0.guardExpression.map { [$0] } ?? []) }
                    + switchCase.body.flatMap(\.expressions)
            }
        default: []
        }
    }
}
