import MarbleNotation

// The syntax tree of a `.marble` file. Nothing here is evaluated: marble strings
// stay raw text, expressions stay trees, durations stay text.

/// A marble string as written: trailing whitespace and any `//` comment removed,
/// interior spaces kept. `location` is its first character.
public struct MarbleText: Hashable, Sendable {
    public var text: String
    public var location: SourceLocation
    /// The quote around the text, when it was written as a string (`'--a--|'`, in a file under
    /// an RxJS notation); `text` is then what stands between the quotes, `location` its first
    /// character.
    public var quote: Character?

    public init(text: String, location: SourceLocation, quote: Character? = nil) {
        self.text = text
        self.location = location
        self.quote = quote
    }
}

/// A whole `.marble` file.
public struct MarbleFileSyntax: Sendable {
    /// File-level statements before the first test (`frame`, `values`, declarations).
    public var statements: [Statement]
    public var tests: [TestSyntax]
    /// The declarations and `values` lines before the first test that did not parse (their
    /// errors are in the parser's errors too): each costs only the tests that use what it declares.
    public var unparsed: [UnparsedStatement] = []
    /// The errors (among the parser's) that break the file's structure — a `test` line that did
    /// not parse or repeats a name, a line before the first test that is neither a declaration
    /// nor a `values` line — so that which test a line belongs to, or what every test sees, is
    /// unknown: no test of such a file can run.
    public var structureErrors: [SyntaxError] = []

    public init(statements: [Statement] = [], tests: [TestSyntax] = []) {
        self.statements = statements
        self.tests = tests
    }
}

/// A statement that did not parse: left out of the tree, kept as what a reader of the rest of
/// the file needs to know about it.
public struct UnparsedStatement: Sendable, Hashable {
    /// The word the line starts with (`let`, `struct`, `@Published`, …).
    public var keyword: String
    /// The name after the keyword (after `@Published var`), when one could be read: what the
    /// statement would have defined, or the stream it names.
    public var name: Identifier?
    public var error: SyntaxError
    /// From the keyword to the end of the lines the statement spans.
    public var range: SourceRange

    public init(keyword: String, name: Identifier?, error: SyntaxError, range: SourceRange) {
        self.keyword = keyword
        self.name = name
        self.error = error
        self.range = range
    }
}

/// `test "NAME"` and the statements that follow it, up to the next test.
public struct TestSyntax: Sendable {
    public var name: String
    /// The `test` keyword.
    public var location: SourceLocation
    /// The opening quote of the name.
    public var nameLocation: SourceLocation
    public var statements: [Statement]
    /// The test's statements that did not parse (their errors are in the parser's errors too).
    public var unparsed: [UnparsedStatement] = []

    public init(name: String, location: SourceLocation, nameLocation: SourceLocation? = nil, statements: [Statement] = []) {
        self.name = name
        self.location = location
        self.nameLocation = nameLocation ?? location
        self.statements = statements
    }
}

/// One statement. A `let`/`subject`/`values` statement may span several lines
/// while its brackets are open; `range` covers all of it.
public struct Statement: Sendable {
    public var kind: StatementKind
    /// The statement keyword.
    public var location: SourceLocation
    /// The line the statement starts on (the keyword's line).
    public var sourceLine: Int
    /// From the keyword to just after the statement's last character (comments excluded).
    public var range: SourceRange

    public init(kind: StatementKind, location: SourceLocation, sourceLine: Int? = nil, range: SourceRange? = nil) {
        self.kind = kind
        self.location = location
        self.sourceLine = sourceLine ?? location.line
        self.range = range ?? SourceRange(start: location, end: location)
    }
}

public enum StatementKind: Sendable {
    /// `frame 100ms`
    case frame(DurationSyntax)
    /// `notation rxjs`: whose rules read the file's marble strings (file level only).
    case notation(NotationSyntax)
    /// `values A = ("a", 1), B = 12`
    case values([ValueBinding])
    /// `hot NAME MARBLES`
    case hot(name: Identifier, marbles: MarbleText)
    /// `cold NAME MARBLES`
    case cold(name: Identifier, marbles: MarbleText)
    /// `send NAME MARBLES`
    case send(name: Identifier, marbles: MarbleText)
    /// `subject NAME = PassthroughSubject()` / `CurrentValueSubject("idle")` / `PassthroughSubject<Int, Never>()`
    case subject(name: Identifier, value: Expr)
    /// `let NAME = EXPR`
    case binding(name: Identifier, value: Expr)
    /// `subscribe NAME MARBLES`
    case subscribe(name: Identifier, marbles: MarbleText)
    /// `demand NAME MARBLES`
    case demand(name: Identifier, marbles: MarbleText)
    /// `connect NAME MARBLES` — when `connect()` is called on a connectable publisher.
    case connect(name: Identifier, marbles: MarbleText)
    /// `expect NAME MARBLES` / `expect NAME.PROPERTY MARBLES` (e.g. `.subscriptions`).
    /// The property name is not checked here.
    case expect(name: Identifier, property: Identifier?, marbles: MarbleText)
    /// `struct`, `enum`, `typealias` or `extension` (file level or in a test).
    case declaration(TypeDeclaration)
    /// `@Published var NAME = VALUE` in a test: `NAME` is the property, `$NAME` its publisher.
    case published(name: Identifier, type: TypeText?, value: Expr)

    /// The statement keyword, as written in a file.
    public var keyword: String {
        switch self {
        case .frame: "frame"
        case .notation: "notation"
        case .values: "values"
        case .hot: "hot"
        case .cold: "cold"
        case .send: "send"
        case .subject: "subject"
        case .binding: "let"
        case .subscribe: "subscribe"
        case .demand: "demand"
        case .connect: "connect"
        case .expect: "expect"
        case .declaration(let declaration): declaration.keyword
        case .published: "@Published"
        }
    }
}

/// A name and where it is written.
public struct Identifier: Hashable, Sendable {
    public var name: String
    public var location: SourceLocation

    public init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

/// One `NAME = LITERAL` entry of a `values` line. The parser has checked that
/// `value` is a literal: numbers, strings without interpolation, `true`/`false`,
/// `nil`, and arrays and tuples of those.
public struct ValueBinding: Sendable {
    public var name: Character
    public var nameLocation: SourceLocation
    public var value: Expr

    public init(name: Character, nameLocation: SourceLocation, value: Expr) {
        self.name = name
        self.nameLocation = nameLocation
        self.value = value
    }
}

/// A `notation` line: the dialect it names and where the name is written.
public struct NotationSyntax: Hashable, Sendable {
    public var dialect: MarbleDialect
    public var location: SourceLocation

    public init(dialect: MarbleDialect, location: SourceLocation) {
        self.dialect = dialect
        self.location = location
    }
}

extension MarbleFileSyntax {
    /// The dialect the file's `notation` line names (native without one).
    public var dialect: MarbleDialect { Self.dialect(of: statements) }

    /// The dialect a `notation` line among `statements` (a file's) names; native without one.
    public static func dialect(of statements: [Statement]) -> MarbleDialect {
        for statement in statements { if case .notation(let notation) = statement.kind { return notation.dialect } }
        return .native
    }
}

/// A duration as written, e.g. `100ms`, `1s`, `1.5s`: digits, an optional
/// fraction, then letters (the unit). The unit is not checked here.
public struct DurationSyntax: Hashable, Sendable {
    public var text: String
    public var location: SourceLocation

    public init(text: String, location: SourceLocation) {
        self.text = text
        self.location = location
    }
}

/// An expression.
///
/// `location` is where a diagnostic about this node should point:
/// - `.binary`: the operator;
/// - `.member`: the member's name (after the dot);
/// - everything else: the expression's first character.
///
/// `range` always covers the whole expression, from its first character to
/// just after its last.
public struct Expr: Sendable {
    public var kind: ExprKind
    public var location: SourceLocation
    public var range: SourceRange
    /// The number of nodes on the longest path from this one to a leaf (a literal or a name is
    /// 1, `a + b` is 2, `a.map { $0 }` is 3), as built by `init`. The parser bounds it
    /// (`ExpressionParser.maximumChainDepth`): operator and method chains deepen the tree as much
    /// as brackets do.
    public let depth: Int

    public init(kind: ExprKind, location: SourceLocation, range: SourceRange? = nil) {
        self.kind = kind
        self.location = location
        self.range = range ?? SourceRange(start: location, end: location)
        depth = 1 + kind.childDepth
    }
}

extension ExprKind {
    /// The depth of the deepest child expression; 0 for a leaf.
    var childDepth: Int {
        switch self {
        case .int, .double, .bool, .nilLiteral, .identifier, .wildcard, .keyPath: 0
        case .string(let parts):
            parts.reduce(0) { deepest, part in
                if case .interpolation(let inner) = part { max(deepest, inner.depth) } else { deepest }
            }
        case .array(let items): items.reduce(0) { max($0, $1.depth) }
        case .tuple(let elements): elements.reduce(0) { max($0, $1.value.depth) }
        case .member(let base, _): base?.depth ?? 0
        case .call(let callee, let arguments): arguments.reduce(callee.depth) { max($0, $1.value.depth) }
        case .genericSpecialization(let base, _): base.depth
        case .closure(let closure): Self.depth(of: closure.body)
        case .unary(_, let operand), .throwExpression(let operand), .cast(let operand, _, _), .tryExpression(let operand, _): operand.depth
        case .binary(_, let lhs, let rhs): max(lhs.depth, rhs.depth)
        case .ternary(let condition, let then, let otherwise): max(condition.depth, then.depth, otherwise.depth)
        case .ifExpression(let ifExpression):
            max(ifExpression.conditions.reduce(0) { max($0, $1.depth) }, Self.depth(of: ifExpression.thenBody), Self.depth(of: ifExpression.elseBody ?? []))
        case .dictionary(let entries): entries.reduce(0) { max($0, $1.key.depth, $1.value.depth) }
        case .subscriptAccess(let base, let index, let fallback): max(base.depth, index.depth, fallback?.depth ?? 0)
        case .forceUnwrap(let operand), .bindOptional(let operand), .optionalChain(let operand): operand.depth
        case .switchExpression(let switchExpression): switchExpression.depth
        }
    }

    static func depth(of body: [ClosureStatement]) -> Int {
        body.reduce(0) { deepest, statement in
            switch statement {
            case .expression(let expr), .letBinding(_, let expr, _): max(deepest, expr.depth)
            case .returnStatement(let expr, _): max(deepest, expr?.depth ?? 0)
            case .variable(_, let expr, _): max(deepest, expr.depth)
            case .assignment(let assignment): max(deepest, assignment.target.depth, assignment.value.depth)
            case .guardStatement(let guardStatement):
                max(deepest, guardStatement.conditions.reduce(0) { max($0, $1.depth) }, depth(of: guardStatement.elseBody))
            case .forIn(let loop):
                max(deepest, loop.pattern.depth, loop.sequence.depth, loop.whereClause?.depth ?? 0, depth(of: loop.body))
            case .whileLoop(let loop):
                max(deepest, loop.conditions.reduce(0) { max($0, $1.depth) }, depth(of: loop.body))
            case .breakStatement, .continueStatement: deepest
            case .patternBinding(let binding): max(deepest, binding.pattern.depth, binding.value.depth)
            case .doCatch(let statement):
                statement.clauses.reduce(max(deepest, depth(of: statement.body))) { deepest, clause in
                    max(deepest, clause.pattern?.depth ?? 0, clause.guardExpression?.depth ?? 0, depth(of: clause.body))
                }
            }
        }
    }
}

public indirect enum ExprKind: Sendable {
    case int(Int)
    case double(Double)
    case bool(Bool)
    case nilLiteral
    /// `"a\(x)b"`; escapes are decoded; empty literal segments are dropped, so `""` is `.string([])`.
    case string([StringPart])
    /// Names, `$0`, `$1`, `Int`, `String`, `Just`, `Publishers`, `self`, ...
    case identifier(String)
    /// `_` where an expression is expected. The parser reports this as an error, so
    /// a successfully parsed tree never contains it.
    case wildcard
    case array([Expr])
    /// `(a, b)`, `(x: 1, y: 2)`, `()`. A parenthesised single expression is that expression.
    case tuple([TupleElement])
    /// `a.b`, `a.0`; `base` is nil for an implicit member (`.max(1)`, `.unlimited`).
    case member(base: Expr?, name: String)
    /// Arguments in order; trailing closures appended (the first unlabelled, later ones labelled).
    case call(callee: Expr, arguments: [Argument])
    /// `PassthroughSubject<Int, Never>`; each type argument as written (trimmed).
    case genericSpecialization(base: Expr, arguments: [String])
    case closure(Closure)
    /// `-x`, `!x`. A `-` written directly before a number literal is folded into the literal.
    case unary(op: String, operand: Expr)
    /// `+ - * / % == != < <= > >= && || ?? ... ..<`
    case binary(op: String, lhs: Expr, rhs: Expr)
    case ternary(condition: Expr, then: Expr, else: Expr)
    case ifExpression(IfExpression)
    case throwExpression(Expr)
    /// `\.count`, `\.0`, `\.a.b`
    case keyPath([String])
    /// `[1: "a"]`, `[:]`.
    case dictionary([DictionaryEntry])
    /// `items[0]`, `counts["a"]`, `counts["a", default: 0]`.
    case subscriptAccess(base: Expr, index: Expr, default: Expr?)
    /// `x!`: the value an optional holds; a `nil` is a runtime error.
    case forceUnwrap(Expr)
    /// `x?` inside an optional chain: a `nil` here makes the whole chain `nil`.
    case bindOptional(Expr)
    /// A postfix chain holding a `?` (`a?.b.c`): `nil` when any `?` in it found `nil`.
    case optionalChain(Expr)
    /// `switch x { case …: … default: … }`, as a statement or an expression.
    case switchExpression(SwitchExpression)
    /// `x as Double`, `x as? User`, `x as! Int`.
    case cast(Expr, type: TypeText, mode: CastMode)
    /// `try? x` (nil when `x` throws), `try! x` (a runtime error then); `ErrorHandling.swift`.
    case tryExpression(Expr, TryMode)
}

/// How `as` converts: `as` (a coercion Swift checks), `as?` (nil when the value is of another
/// type), `as!` (a runtime error then).
public enum CastMode: String, Sendable {
    case coerce = "as"
    case conditional = "as?"
    case forced = "as!"
    /// The type annotation of `let x: Double = 0` / `var xs: [Int] = []`: a coercion, as `as`.
    case annotation = ":"
    /// A `func`'s declared result, on each value it returns: an annotation of that type.
    case result = "->"
}

/// A piece of a string literal.
public enum StringPart: Sendable {
    case literal(String)
    case interpolation(Expr)
}

public struct TupleElement: Sendable {
    public var label: String?
    public var value: Expr

    public init(label: String?, value: Expr) {
        self.label = label
        self.value = value
    }
}

public struct Argument: Sendable {
    public var label: String?
    public var value: Expr
    /// The label if there is one, else the value's first character (`{` for a trailing closure).
    public var location: SourceLocation

    public init(label: String?, value: Expr, location: SourceLocation) {
        self.label = label
        self.value = value
        self.location = location
    }
}

/// `{ x in … }`. `parameters` is nil for a closure without a parameter clause
/// (one that uses `$0`, `$1`, … or none); `_` is kept as `"_"`. Type annotations,
/// `throws` and `-> T` are accepted and dropped; a capture list is skipped.
public struct Closure: Sendable {
    public var parameters: [String]?
    public var body: [ClosureStatement]

    public init(parameters: [String]?, body: [ClosureStatement]) {
        self.parameters = parameters
        self.body = body
    }
}

public enum ClosureStatement: Sendable {
    case expression(Expr)
    /// `let NAME = EXPR` (location of `let`).
    case letBinding(String, Expr, SourceLocation)
    /// `return` / `return EXPR` (location of `return`).
    case returnStatement(Expr?, SourceLocation)
    /// `var NAME = EXPR` (location of `var`): a name the closure's later statements may assign.
    case variable(String, Expr, SourceLocation)
    /// `x = EXPR`, `x += EXPR`, `counts[k] = EXPR`.
    case assignment(Assignment)
    /// `guard CONDITIONS else { … }`.
    case guardStatement(GuardStatement)
    /// `for PATTERN in SEQUENCE where C { … }` (`Loops.swift`).
    case forIn(ForInStatement)
    /// `while C { … }` and `repeat { … } while C`.
    case whileLoop(WhileStatement)
    /// `break`: leaves the innermost loop or `switch`.
    case breakStatement(SourceLocation)
    /// `continue`: the innermost loop's next round.
    case continueStatement(SourceLocation)
    /// `let (a, b) = EXPR`, `var (a, b) = EXPR`.
    case patternBinding(PatternBinding)
    /// `do { … } catch … { … }` (`ErrorHandling.swift`).
    case doCatch(DoStatement)
}

/// `if C { … } else if D { … } else { … }`; an `else if` is an `elseBody` holding
/// one `.expression` whose kind is `.ifExpression`. `if let x = a, x > 0, case .some(let y) = b`
/// has several conditions, tried in order (names bound by one are seen by the next and the body).
public struct IfExpression: Sendable {
    public var conditions: [ConditionClause]
    public var thenBody: [ClosureStatement]
    public var elseBody: [ClosureStatement]?

    public init(condition: Expr, thenBody: [ClosureStatement], elseBody: [ClosureStatement]?) {
        self.init(conditions: [.boolean(condition)], thenBody: thenBody, elseBody: elseBody)
    }

    public init(conditions: [ConditionClause], thenBody: [ClosureStatement], elseBody: [ClosureStatement]?) {
        self.conditions = conditions
        self.thenBody = thenBody
        self.elseBody = elseBody
    }

    /// The condition of an `if` with one Boolean condition (nil for `if let`, `if case`, or several).
    public var simpleCondition: Expr? {
        if conditions.count == 1, case .boolean(let expr) = conditions[0] { return expr }
        return nil
    }

    /// The first condition's expression (where a message about the whole condition points).
    public var condition: Expr { conditions[0].expression }
}
