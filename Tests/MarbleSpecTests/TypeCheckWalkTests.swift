import Foundation
import MarbleSyntax
import Testing
import TestSupport
@testable import MarbleSpec

/// The type checker walks chains in loops (issue 17): operator chains, `??` and `?:` chains,
/// postfix chains and `else if` chains of 100,000 links, far past what the parser builds (256)
/// and past any thread's stack for a walk that recurses once per link, are checked on an
/// ordinary test thread with the type and the diagnostics a short chain has.
@Suite(.enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.reason))) struct TypeCheckWalkTests {
    /// A tree kept alive until the runner's large stack lets it go: releasing a deep tree recurses
    /// once per level (the check itself runs on the test's own thread).
    final class DeepTree: @unchecked Sendable {
        var expr: Expr?
    }

    /// The type `build()`'s expression checks to (as Swift writes it) and its diagnostics as
    /// `line:column: message`, checked on this thread with `names` in scope.
    func check(_ names: [String: SpecType], _ build: @escaping @Sendable () -> Expr) -> (type: String, diagnostics: [String]) {
        let tree = DeepTree()
        _ = MarbleRunner.onLargeStack { () -> Int in
            tree.expr = build()
            return 0
        }
        let outcome = checkOnThisThread(tree, names)
        _ = MarbleRunner.onLargeStack { () -> Int in
            tree.expr = nil
            return 0
        }
        return outcome
    }

    private func checkOnThisThread(_ tree: DeepTree, _ names: [String: SpecType]) -> (type: String, diagnostics: [String]) {
        guard let expr = tree.expr else { return ("", ["no tree"]) }
        let checker = ExpressionChecker()
        let env = TypeEnvironment()
        for (name, type) in names { env[name] = .value(type) }
        let checked = checker.check(expr, in: env)
        let type = if case .value(let type) = checked { checker.name(type) } else { checked.kindDescription }
        return (type, checker.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" })
    }

    /// `build()`'s expression checks to `type` with no diagnostic.
    func expectType(_ type: String, _ names: [String: SpecType], sourceLocation: Testing.SourceLocation = #_sourceLocation,
                    _ build: @escaping @Sendable () -> Expr) {
        let outcome = check(names, build)
        #expect(outcome.type == type, sourceLocation: sourceLocation)
        #expect(outcome.diagnostics == [], sourceLocation: sourceLocation)
    }

    static let links = 100_000

    /// `links` links around `innermost`, link 0 the innermost; right-deep (`a ?? b ?? …`, link 0
    /// outermost, as the parser builds a right-associative chain) when `fromTheRight`.
    static func chain(around innermost: Expr, fromTheRight: Bool = false, _ link: (Expr, Int) -> Expr) -> Expr {
        var expr = innermost
        for index in 0..<links { expr = link(expr, fromTheRight ? links - 1 - index : index) }
        return expr
    }

    /// Link `index` of a chain is written on line `index + 2` (the chain's start is line 1).
    static func at(_ index: Int, column: Int = 1) -> MarbleSyntax.SourceLocation { SourceLocation(line: index + 2, column: column) }
    static func int(_ value: Int, _ index: Int) -> Expr { Expr(kind: .int(value), location: at(index, column: 5)) }
    static func string(_ text: String, _ location: MarbleSyntax.SourceLocation) -> Expr { Expr(kind: .string([.literal(text)]), location: location) }
    static func name(_ name: String, _ location: MarbleSyntax.SourceLocation) -> Expr { Expr(kind: .identifier(name), location: location) }
    static let start = SourceLocation(line: 1, column: 1)

    /// `{ BODY }` as a trailing closure argument.
    static func closure(_ body: Expr, _ index: Int) -> Argument {
        Argument(label: nil, value: Expr(kind: .closure(Closure(parameters: nil, body: [.expression(body)])), location: at(index, column: 10)), location: at(index, column: 10))
    }

    /// `$0 + 1 * 2 - 3 / 4 …`, built left-deep as the parser builds a left-associative chain, its
    /// right sides alternating a literal and a tighter `*` (mixed precedences); `bad` puts a
    /// `String` on the right of one link.
    static func arithmetic(bad: Int? = nil) -> Expr {
        let ops = ["+", "-", "*", "/", "%"]
        return chain(around: name("$0", start)) { expr, index in
            var rhs = index.isMultiple(of: 2) ? int(3, index) : Expr(kind: .binary(op: "*", lhs: int(2, index), rhs: int(7, index)), location: at(index, column: 7))
            if index == bad { rhs = string("x", at(index, column: 5)) }
            return Expr(kind: .binary(op: ops[index % ops.count], lhs: expr, rhs: rhs), location: at(index, column: 3))
        }
    }

    @Test func aLeftAssociativeOperatorChain() {
        expectType("Int", ["$0": .int]) { Self.arithmetic() }
    }

    /// `$0 > 1 && $0 < 9 || …`: each side a condition.
    @Test func aChainOfConditions() {
        expectType("Bool", ["$0": .int]) {
            Self.chain(around: Expr(kind: .bool(true), location: Self.start)) { expr, index in
                let comparison = Expr(kind: .binary(op: index.isMultiple(of: 2) ? ">" : "<", lhs: Self.name("$0", Self.at(index, column: 5)), rhs: Self.int(index, index)),
                                      location: Self.at(index, column: 8))
                return Expr(kind: .binary(op: index.isMultiple(of: 3) ? "||" : "&&", lhs: expr, rhs: comparison), location: Self.at(index, column: 3))
            }
        }
    }

    /// `o ?? o ?? … ?? 0`, right-deep.
    @Test func aNilCoalescingChain() {
        expectType("Int", ["o": .optional(.int)]) {
            Self.chain(around: Self.int(0, Self.links), fromTheRight: true) { expr, index in
                Expr(kind: .binary(op: "??", lhs: Self.name("o", Self.at(index)), rhs: expr), location: Self.at(index, column: 3))
            }
        }
    }

    /// `$0 == 0 ? "a" : $0 == 1 ? "b" : … : "z"`, right-deep.
    @Test func aTernaryChain() {
        expectType("String", ["$0": .int]) {
            Self.chain(around: Self.string("z", Self.at(Self.links)), fromTheRight: true) { expr, index in
                let test = Expr(kind: .binary(op: "==", lhs: Self.name("$0", Self.at(index)), rhs: Self.int(index, index)), location: Self.at(index, column: 3))
                return Expr(kind: .ternary(condition: test, then: Self.string("a", Self.at(index, column: 9)), else: expr), location: Self.at(index))
            }
        }
    }

    /// `$0.description.description…`
    @Test func aMemberChain() {
        expectType("String", ["$0": .int]) {
            Self.chain(around: Self.name("$0", Self.start)) { expr, index in
                Expr(kind: .member(base: expr, name: "description"), location: Self.at(index, column: 2))
            }
        }
    }

    /// `a.map { $0 + 1 }.filter { $0 > 0 }.map { … }…`: a pipeline, each link typed by its operator's rule.
    static func pipeline(bad: Int? = nil) -> Expr {
        chain(around: name("a", start)) { expr, index in
            let filters = index % 3 == 1
            let operand = index == bad ? Expr(kind: .member(base: name("$0", at(index, column: 12)), name: "nope"), location: at(index, column: 15))
                : name("$0", at(index, column: 12))
            let body = Expr(kind: .binary(op: filters ? ">" : "+", lhs: operand, rhs: int(1, index)), location: at(index, column: 14))
            let callee = Expr(kind: .member(base: expr, name: filters ? "filter" : "map"), location: at(index, column: 2))
            return Expr(kind: .call(callee: callee, arguments: [closure(body, index)]), location: start)
        }
    }

    @Test func aPipelineOfOperators() {
        expectType("AnyPublisher<Int, Error>", ["a": .publisher(output: .int, failure: .string)]) { Self.pipeline() }
    }

    /// `s.split(separator: " ")[0].split(separator: " ")[0]…`: method calls and subscripts.
    @Test func aChainOfCallsAndSubscripts() {
        expectType("String", ["s": .string]) {
            Self.chain(around: Self.name("s", Self.start)) { expr, index in
                let callee = Expr(kind: .member(base: expr, name: "split"), location: Self.at(index, column: 2))
                let separator = Argument(label: "separator", value: Self.string(" ", Self.at(index, column: 19)), location: Self.at(index, column: 8))
                let call = Expr(kind: .call(callee: callee, arguments: [separator]), location: Self.start)
                return Expr(kind: .subscriptAccess(base: call, index: Self.int(0, index), default: nil), location: Self.at(index, column: 22))
            }
        }
    }

    /// `s.first!.uppercased().first!.uppercased()…` and `s?.first?.uppercased().first?.uppercased()…` (one
    /// optional chain around the whole postfix chain). A String's `first` is a Character, as in
    /// Swift, so each link goes back to a String through `uppercased()`.
    @Test func chainsOfUnwrapsAndOptionalChaining() {
        expectType("String", ["s": .string]) {
            Self.chain(around: Self.name("s", Self.start)) { expr, index in
                Self.uppercased(Expr(kind: .forceUnwrap(Expr(kind: .member(base: expr, name: "first"), location: Self.at(index, column: 2))), location: Self.at(index, column: 7)), index)
            }
        }
        expectType("String?", ["s": .optional(.string)]) {
            let links = Self.chain(around: Expr(kind: .bindOptional(Self.name("s", Self.start)), location: Self.start)) { expr, index in
                Self.uppercased(Expr(kind: .bindOptional(Expr(kind: .member(base: expr, name: "first"), location: Self.at(index, column: 3))), location: Self.at(index, column: 8)), index)
            }
            return Expr(kind: .optionalChain(links), location: Self.start)
        }
    }

    /// `character.uppercased()`, a link's way back from a Character to a String.
    static func uppercased(_ character: Expr, _ index: Int) -> Expr {
        let callee = Expr(kind: .member(base: character, name: "uppercased"), location: at(index, column: 9))
        return Expr(kind: .call(callee: callee, arguments: []), location: at(index, column: 19))
    }

    /// `x as Int as Any as Int …` (`as` is left-associative in the parser's loop).
    @Test func aChainOfCasts() {
        expectType("Any", ["x": .int]) {
            Self.chain(around: Self.name("x", Self.start)) { expr, index in
                Expr(kind: .cast(expr, type: TypeText(text: index.isMultiple(of: 2) ? "Int" : "Any", location: Self.at(index, column: 6)), mode: .coerce), location: Self.start)
            }
        }
    }

    /// `if $0 == 0 { "a" } else if let y = o { y } else if … else { "z" }`, simple and
    /// conditional `if`s in turn.
    @Test func anElseIfChain() {
        expectType("String", ["$0": .int, "o": .optional(.string)]) {
            Self.chain(around: Self.string("z", Self.at(Self.links)), fromTheRight: true) { expr, index in
                let conditional = IfExpression(conditions: [.optionalBinding(name: "y", value: Self.name("o", Self.at(index, column: 12)), location: Self.at(index, column: 8))],
                                               thenBody: [.expression(Self.name("y", Self.at(index, column: 16)))], elseBody: [.expression(expr)])
                let simple = IfExpression(condition: Expr(kind: .binary(op: "==", lhs: Self.name("$0", Self.at(index, column: 4)), rhs: Self.int(index, index)), location: Self.at(index, column: 7)),
                                          thenBody: [.expression(Self.string("a", Self.at(index, column: 14)))], elseBody: [.expression(expr)])
                return Expr(kind: .ifExpression(index.isMultiple(of: 2) ? simple : conditional), location: Self.at(index))
            }
        }
    }

    /// A mistake deep inside a long chain is reported once, at its link; the links past it
    /// (given `Any`) report nothing more.
    @Test func aMistakeDeepInAChainPointsAtItsLink() {
        let arithmetic = check(["$0": .int]) { Self.arithmetic(bad: 60_000) }
        // Link 60,000 is a '+' (60,000 % 5 == 0), on line 60,002.
        #expect(arithmetic.diagnostics == ["60002:3: binary operator '+' cannot be applied to operands of type 'Int' and 'String'"])
        let pipeline = check(["a": .publisher(output: .int, failure: .never)]) { Self.pipeline(bad: 70_000) }
        #expect(pipeline.diagnostics == ["70002:15: value of type 'Int' has no member 'nope'"])
        #expect(pipeline.type == "AnyPublisher<Int, Never>")
        let members = check(["$0": .int]) {
            Self.chain(around: Self.name("$0", Self.start)) { expr, index in
                Expr(kind: .member(base: expr, name: index == 99_998 ? "cout" : "description"), location: Self.at(index, column: 2))
            }
        }
        #expect(members.diagnostics == ["100000:2: value of type 'String' has no member 'cout'"])
    }

    /// Nesting proper (here arrays in arrays) still recurses, so it is still bounded: past
    /// `maximumDepth` levels the checker stops with one diagnostic (the parser stops at 32).
    @Test func nestingPastTheLimitIsReportedOnce() {
        let outcome = check([:]) {
            var expr = Expr(kind: .int(1), location: Self.start)
            for index in 0..<2_000 { expr = Expr(kind: .array([expr]), location: Self.at(index)) }
            return expr
        }
        #expect(outcome.diagnostics == ["1401:1: this expression is nested too deeply to check its types (more than \(ExpressionChecker.maximumDepth) levels of brackets, closures and blocks)"])
    }

    /// Diagnostics in several links of one expression come in the order a recursive walk found
    /// them (a report sorts them, the checker does not): each link's arguments before the links
    /// inside it, what a link does with its inner value after them.
    @Test func diagnosticsAlongAChainKeepTheirOrder() throws {
        let lines = [
            #"a.map { $0.nope }.filter { $0 + "x" }.map { [$0.bad, 1 + true] }.scan(0, { $0 + "y" })"#,
            #"a.map { $0 ?? 1 + "z" ?? 2 }.map { $0 > 0 ? $0.q : $0 < 0 ? $0.r : true + 1 }"#,
            #"a.map { if $0 > 0 { $0.s } else if $0 < 0 { $0.t } else { 1 + false } }.map { ($0 as String).u! }"#,
            #"a.flatMap { x in Just(x).map { $0.v }.scan(x + "w") { _, _ in [x][x + nil] }.map { $0.z(x - true) } }"#,
            #"a.map { x in (x + "p").count + x.k + -x.l - (x.m ?? 1) * x[0] && !x.n || x.o as Int }"#,
        ]
        var found: [String] = []
        for (index, line) in lines.enumerated() {
            let expr = try MarbleFileParser.parseExpression(line, at: SourceLocation(line: index + 1, column: 1))
            let checker = ExpressionChecker()
            let env = TypeEnvironment()
            env["a"] = .value(.publisher(output: .int, failure: .never))
            _ = checker.check(expr, in: env)
            found += checker.diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
        }
        #expect(found == [
            "1:12: value of type 'Int' has no member 'nope'",
            "1:56: binary operator '+' cannot be applied to operands of type 'Int' and 'Bool'",
            "1:79: binary operator '+' cannot be applied to operands of type 'Int' and 'String'",
            "2:17: binary operator '+' cannot be applied to operands of type 'Int' and 'String'",
            "2:48: value of type 'Int' has no member 'q'",
            "2:64: value of type 'Int' has no member 'r'",
            "2:73: binary operator '+' cannot be applied to operands of type 'Bool' and 'Int'",
            "3:24: value of type 'Int' has no member 's'",
            "3:48: value of type 'Int' has no member 't'",
            "3:61: binary operator '+' cannot be applied to operands of type 'Int' and 'Bool'",
            "3:94: value of type 'String' has no member 'u'",
            "4:46: binary operator '+' cannot be applied to operands of type 'Int' and 'String'",
            "4:35: value of type 'Int' has no member 'v'",
            "4:69: binary operator '+' cannot be applied to operands of type 'Int' and 'Optional<Any>'",
            "4:91: binary operator '-' cannot be applied to operands of type 'Int' and 'Bool'",
            "5:17: binary operator '+' cannot be applied to operands of type 'Int' and 'String'",
            "5:34: value of type 'Int' has no member 'k'",
            "5:41: value of type 'Int' has no member 'l'",
            "5:48: value of type 'Int' has no member 'm'",
            "5:59: value of type 'Int' has no subscripts",
            "5:69: value of type 'Int' has no member 'n'",
            "5:76: value of type 'Int' has no member 'o'",
            "5:74: type 'Int' cannot be used as a boolean; test for '!= 0' instead",
        ])
    }

    /// Closures that each call the one before twice would take the checker time exponential in
    /// their number (2^30 checks here): past `maximumClosureChecks` it stops with one diagnostic.
    @Test func closuresCallingEachOtherMultiplyOnlyUpToTheLimit() {
        let closures = (1...30).map { "    let f\($0) = { (y: Int) in f\($0 - 1)(y) + f\($0 - 1)(y) }\n" }.joined()
        let report = runMarble("test \"t\"\n  hot a -|\n  let b = a.map { x in\n    let f0 = { (y: Int) in y + 1 }\n" + closures + "    return f30(x)\n  }\n  expect b -|\n")
        #expect(report.tests.map(\.checks.isEmpty) == [true], "the test does not run")
        #expect(report.allDiagnostics.map { "\($0.line):\($0.column): \($0.message)" } == [
            // At `f1`'s body (line 5), whose check is the 100,001st; nothing runs.
            "5:14: the closures of this test call each other too many times to check their types (more than 100000 checks of a closure's body)",
        ])
    }
}
