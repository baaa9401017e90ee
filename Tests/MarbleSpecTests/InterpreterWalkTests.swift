import Testing
import TestSupport
@testable import MarbleSpec
import MarbleSyntax
import Reactive

/// Chains of 100,000 links — far past what the parser builds (`ExpressionParser.maximumChainDepth`)
/// and past any thread's stack for a walk that recurses once per link — evaluated by the
/// interpreter and compiled by the closure compiler on an ordinary test thread, not the runner's
/// large stack. The trees are built directly, and taken apart without recursion (`release`).
@Suite(.enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.reason))) struct InterpreterWalkTests {
    static let links = 100_000

    // MARK: Operator chains

    /// `$0 + 2 * 1 - 1 + 2 * 1 - 1 …`: a left-associative chain mixing precedences.
    @Test func aLeftAssociativeChainMixingPrecedences() {
        var tree = name("$0")
        for index in 0..<Self.links {
            tree = index % 2 == 0 ? binary("+", tree, binary("*", int(2), int(1)), line: index + 1)
                : binary("-", tree, int(1), line: index + 1)
        }
        #expect(bothWays(tree, on: [.int(5)]) == .both("value 50005"))
        release(consume tree)
    }

    /// `$0 > 0 && … && $0 > 0 || $0 < 0 || …`: `&&` and `||` stop early, link by link.
    @Test func aChainOfAndsAndOrs() {
        var tree = binary(">", name("$0"), int(0))
        for index in 0..<Self.links {
            let op = index < Self.links / 2 ? "&&" : "||"
            tree = binary(op, tree, binary(op == "&&" ? ">" : "<", name("$0"), int(0)), line: index + 1)
        }
        #expect(bothWays(tree, on: [.int(3)]) == .both("value true"))
        #expect(bothWays(tree, on: [.int(-3)]) == .both("value true"))
        #expect(bothWays(tree, on: [.int(0)]) == .both("value false"))
        release(consume tree)
    }

    /// `nil ?? nil ?? … ?? $0`: right-associative, each `??` walked into through its right side.
    @Test func aNilCoalescingChain() {
        var tree = name("$0")
        for index in 0..<Self.links { tree = binary("??", nilLiteral(), tree, line: Self.links - index) }
        #expect(bothWays(tree, on: [.int(7)]) == .both("value 7"))
        #expect(bothWays(tree, on: [.null]) == .both("value nil"))
        release(consume tree)
    }

    /// `$0 == 0 ? 0 : $0 == 1 ? 1 : … : -1`, a ternary chain through its `else` sides.
    @Test func aTernaryChain() {
        var tree = int(-1)
        for index in (0..<Self.links).reversed() {
            tree = Expr(kind: .ternary(condition: binary("==", name("$0"), int(index)), then: int(index), else: tree), location: at(index + 1))
        }
        #expect(bothWays(tree, on: [.int(99_999)]) == .both("value 99999"))
        #expect(bothWays(tree, on: [.int(12)]) == .both("value 12"))
        #expect(bothWays(tree, on: [.int(100_000)]) == .both("value -1"))
        release(consume tree)
    }

    /// A ternary chain through its `then` sides: `$0 > 0 ? $0 > 1 ? … : 0 : 0`, walked the same way.
    @Test func aTernaryNestedThroughItsThenSides() {
        var tree = int(1)
        for index in (0..<Self.links).reversed() {
            tree = Expr(kind: .ternary(condition: binary(">", name("$0"), int(index)), then: tree, else: int(0)), location: at(index + 1))
        }
        #expect(bothWays(tree, on: [.int(Self.links)]) == .interpretedOnly("value 1"))
        #expect(bothWays(tree, on: [.int(500)]) == .interpretedOnly("value 0"))
        release(consume tree)
    }

    /// `if $0 == 0 { 0 } else if $0 == 1 { 1 } … else { -1 }`.
    @Test func anElseIfChain() {
        var tree = int(-1)
        for index in (0..<Self.links).reversed() {
            tree = Expr(kind: .ifExpression(IfExpression(condition: binary("==", name("$0"), int(index)), thenBody: [.expression(int(index))],
                                                         elseBody: [.expression(tree)])), location: at(index + 1))
        }
        #expect(bothWays(tree, on: [.int(99_999)]) == .both("value 99999"))
        #expect(bothWays(tree, on: [.int(-5)]) == .both("value -1"))
        release(consume tree)
    }

    // MARK: Postfix chains

    /// `$0.description.description …`: member accesses (left to the interpreter by the compiler).
    @Test func aMemberChain() {
        var tree = name("$0")
        for index in 0..<Self.links { tree = member(tree, "description", line: index + 1) }
        #expect(bothWays(tree, on: [.int(5)]) == .interpretedOnly("value \"5\""))
        release(consume tree)
    }

    /// `[1, 2].map { $0 + 1 }.map { $0 + 1 } …`: the method chain.
    @Test func aMethodChainWithClosures() {
        let increment = Expr(kind: .closure(Closure(parameters: nil, body: [.expression(binary("+", name("$0"), int(1)))])), location: at(1))
        var tree = Expr(kind: .array([int(1), int(2)]), location: at(1))
        for index in 0..<Self.links {
            tree = call(member(tree, "map", line: index + 1), [Argument(label: nil, value: increment, location: at(index + 1))], line: index + 1)
        }
        #expect(bothWays(tree, on: []) == .interpretedOnly("value [100001, 100002]"))
        release(consume tree)
    }

    /// `$0.description.uppercased().lowercased().uppercased() …`: calls of members of values.
    @Test func aMethodChainOfCalls() {
        var tree = member(name("$0"), "description", line: 1)
        for index in 0..<Self.links { tree = call(member(tree, index % 2 == 0 ? "uppercased" : "lowercased", line: index + 1), [], line: index + 1) }
        #expect(bothWays(tree, on: [.string("aB")]) == .interpretedOnly("value \"ab\""))
        release(consume tree)
    }

    /// `$0["z", default: $0]["z", default: $0] …["a"]`: subscripts, each missing key falling back.
    @Test func aSubscriptChain() {
        var tree = name("$0")
        for index in 0..<Self.links {
            tree = Expr(kind: .subscriptAccess(base: tree, index: string("z"), default: name("$0")), location: at(index + 1))
        }
        tree = Expr(kind: .subscriptAccess(base: tree, index: string("a"), default: nil), location: at(Self.links + 1))
        let dictionary = Value.dictionary(DictionaryValue([.string("a"): .int(1)]))
        #expect(bothWays(tree, on: [dictionary]) == .interpretedOnly("value 1"))
        release(consume tree)
    }

    /// `$0!!!…` and `$0?.description?.description …`: a nil at the start of an optional chain
    /// unwinds 100,000 links to the chain, which gives nil; a nil under `!` is reported at the `!`.
    @Test func unwrappingAndOptionalChains() {
        var unwrapped = name("$0")
        for index in 0..<Self.links { unwrapped = Expr(kind: .forceUnwrap(unwrapped), location: at(index + 1)) }
        #expect(bothWays(unwrapped, on: [.int(4)]) == .interpretedOnly("value 4"))
        #expect(bothWays(unwrapped, on: [.null]) == .interpretedOnly("fault 1:1 unexpectedly found nil while unwrapping an Optional value"))
        release(consume unwrapped)

        var chain = name("$0")
        for index in 0..<Self.links { chain = member(Expr(kind: .bindOptional(chain), location: at(index + 1)), "description", line: index + 1) }
        chain = Expr(kind: .optionalChain(chain), location: at(1))
        #expect(bothWays(chain, on: [.int(4)]) == .interpretedOnly("value \"4\""))
        #expect(bothWays(chain, on: [.null]) == .interpretedOnly("value nil"))
        release(consume chain)
    }

    // MARK: Errors in long chains

    /// A fault deep in a chain points at its link (the operator's line); nothing after it runs.
    @Test func anErrorInsideALongChainPointsAtItsLink() {
        var tree = name("$0")
        for index in 0..<Self.links { tree = binary("+", tree, index == 70_000 ? string("a") : int(1), line: index + 1) }
        let outcome = bothWays(tree, on: [.int(0)])
        #expect(outcome == .both("fault 70001:3 binary operator '+' cannot be applied to operands of type Int and String (70000 + \"a\")"))
        release(consume tree)

        // The condition of the 60,001st ternary is not a Bool: reported at its condition.
        var ternary = int(0)
        for index in (0..<Self.links).reversed() {
            let test = index == 60_000 ? binary("+", name("$0"), int(1), line: index + 1) : binary("<", name("$0"), int(-1), line: index + 1)
            ternary = Expr(kind: .ternary(condition: test, then: int(index), else: ternary), location: at(index + 1))
        }
        #expect(bothWays(ternary, on: [.int(0)]) == .both("fault 60001:3 a condition must be a Bool, not Int (1)"))
        release(consume ternary)
    }

    /// `nil ?? … ?? throw "boom" ?? …`: the throw ends the chain; the fault after it never runs.
    @Test func aThrowInTheMiddleOfAChain() {
        var tree = binary("+", int(1), string("never"), line: Self.links + 1)
        for index in (0..<Self.links).reversed() {
            let left = index == 80_000 ? Expr(kind: .throwExpression(string("boom")), location: at(index + 1)) : nilLiteral()
            tree = binary("??", left, tree, line: index + 1)
        }
        #expect(bothWays(tree, on: [.int(0)]) == .both("thrown boom"))
        release(consume tree)
    }

    /// The chain frames of a walk that failed are gone: the next evaluation starts clean.
    @Test func aFailedWalkLeavesNoFrames() throws {
        let interpreter = Interpreter(scheduler: VirtualTimeScheduler(), frameNanoseconds: 1_000_000, lines: LineTable(""))
        let env = Environment()
        let failing = try MarbleFileParser.parseExpression("[1].map { $0 + \"a\" }.count + 1", at: MarbleSyntax.SourceLocation(line: 1, column: 1))
        #expect(describe(Result { () throws(EvalError) in try interpreter.valueOf(interpreter.evaluate(failing, in: env), at: failing.location, purpose: "") })
            == "fault 1:14 binary operator '+' cannot be applied to operands of type Int and String (1 + \"a\")")
        #expect(interpreter.chainFrames.isEmpty)
        let fine = try MarbleFileParser.parseExpression("(nil ?? 2) * [3].map { $0 + 1 }.count", at: MarbleSyntax.SourceLocation(line: 1, column: 1))
        #expect(describe(Result { () throws(EvalError) in try interpreter.valueOf(interpreter.evaluate(fine, in: env), at: fine.location, purpose: "") }) == "value 2")
        #expect(interpreter.chainFrames.isEmpty)
    }

    // MARK: Nesting

    /// Nesting that is not a chain (`[[[…]]]`) recurses; past `Interpreter.maximumDepth` it is a
    /// precise fault at the level past the limit, not a stack overflow.
    /// It runs on the runner's thread, as files do: the guard keeps the recursion inside its
    /// 256 MB, while a thousand levels overflow an ordinary 8 MB thread under AddressSanitizer.
    @Test func nestingPastTheLimitIsAFault() {
        let outcome = MarbleRunner.onLargeStack { () -> BothWays in
            var tree = int(1)
            for index in (0..<Self.links).reversed() { tree = Expr(kind: .array([tree]), location: MarbleSyntax.SourceLocation(line: index + 1, column: 2)) }
            let outcome = bothWays(tree, on: [])
            release(consume tree)
            return outcome
        }
        #expect(outcome == .interpretedOnly("fault \(Interpreter.maximumDepth + 1):2 this expression is nested too deeply to evaluate (more than 1000 levels)"))
    }

    /// The spine helpers the walks use: outermost link first, the innermost node last.
    @Test func spinesAreCollectedOutermostFirst() throws {
        let expr = try MarbleFileParser.parseExpression("a.b(1)[2]! + c - d", at: MarbleSyntax.SourceLocation(line: 1, column: 1))
        let left = expr.spine(along: \.leftChainChild)
        #expect(left.links.count == 6)
        #expect({ if case .identifier("a") = left.innermost.kind { true } else { false } }())
        let right = try MarbleFileParser.parseExpression("a ?? b ?? c ? x : d ? y : z", at: MarbleSyntax.SourceLocation(line: 1, column: 1))
        let elses = right.spine(along: \.rightChainChild)
        #expect(elses.links.count == 2)
        #expect({ if case .identifier("z") = elses.innermost.kind { true } else { false } }())
        let coalescing = try MarbleFileParser.parseExpression("a ?? b ?? c", at: MarbleSyntax.SourceLocation(line: 1, column: 1)).spine(along: \.rightChainChild)
        #expect(coalescing.links.count == 2)
    }
}

// MARK: Helpers

/// What running a closure body gave, compiled and interpreted.
enum BothWays: Equatable, CustomStringConvertible {
    /// Compiled and interpreted alike.
    case both(String)
    /// The compiler left it to the interpreter.
    case interpretedOnly(String)
    case differing(compiled: String, interpreted: String)

    var description: String {
        switch self {
        case .both(let outcome): "both: \(outcome)"
        case .interpretedOnly(let outcome): "interpreted only: \(outcome)"
        case .differing(let compiled, let interpreted): "compiled: \(compiled), interpreted: \(interpreted)"
        }
    }
}

/// Runs `body` as the body of a closure without parameters clause (`{ body }`) on `input`: compiled by
/// `ClosureCompiler` and called through the interpreter. Nothing that holds the tree outlives the call.
func bothWays(_ body: Expr, on input: [Value]) -> BothWays {
    // Every closure call counts against the work at one frame; a 100,000-link chain of `map`s
    // over an array makes more calls than the runner's budget, and the walk is what is tested.
    let scheduler = VirtualTimeScheduler(limits: .init(maxActionsPerInstant: 10_000_000))
    let interpreter = Interpreter(scheduler: scheduler, frameNanoseconds: 1_000_000, lines: LineTable(""))
    let syntax = Closure(parameters: nil, body: [.expression(body)])
    // No body here uses `$1` (and finding that out would walk the whole tree again).
    let closure = ClosureValue(syntax: syntax, environment: Environment(), location: MarbleSyntax.SourceLocation(line: 1, column: 1),
                               usesSecondAnonymousArgument: false)
    let interpreted = describe(interpreter.outcome(of: closure, input, purpose: "test"))
    #expect(interpreter.chainFrames.isEmpty)
    guard let compiled = ClosureCompiler.compile(closure) else { return .interpretedOnly(interpreted) }
    let fast = describe(Result { () throws(EvalError) -> Value in try compiled.run(input) })
    return fast == interpreted ? .both(fast) : .differing(compiled: fast, interpreted: interpreted)
}

func describe(_ result: Result<Value, EvalError>) -> String {
    switch result {
    case .success(let value): "value \(value.literal)"
    case .failure(.thrown(let error)): "thrown \(error.message)"
    case .failure(.fault(let diagnostic)): "fault \(diagnostic.location.line):\(diagnostic.location.column) \(diagnostic.message)"
    case .failure(.returning): "returning"
    case .failure(.nilInChain): "nil in chain"
    case .failure(.jump(let jump)): "jump \(jump)"
    }
}

/// Releases a tree without recursion (releasing an indirect enum frees its children from inside
/// the parent's release, once per level): each node's children are held while it goes.
func release(_ tree: consuming Expr) {
    var pending = [consume tree]
    while let next = pending.popLast() {
        switch next.kind {
        case .closure(let closure): pending += closure.body.flatMap(\.expressions)
        default: pending += next.kind.children
        }
    }
}

private func at(_ line: Int, _ column: Int = 1) -> MarbleSyntax.SourceLocation { MarbleSyntax.SourceLocation(line: line, column: column) }
private func int(_ value: Int) -> Expr { Expr(kind: .int(value), location: at(1)) }
private func string(_ text: String) -> Expr { Expr(kind: .string([.literal(text)]), location: at(1)) }
private func name(_ name: String) -> Expr { Expr(kind: .identifier(name), location: at(1)) }
private func nilLiteral() -> Expr { Expr(kind: .nilLiteral, location: at(1)) }
/// An operator at column 3 of `line` (where a message about it points).
private func binary(_ op: String, _ lhs: Expr, _ rhs: Expr, line: Int = 1) -> Expr {
    Expr(kind: .binary(op: op, lhs: lhs, rhs: rhs), location: at(line, 3))
}
private func member(_ base: Expr, _ name: String, line: Int) -> Expr { Expr(kind: .member(base: base, name: name), location: at(line, 2)) }
private func call(_ callee: Expr, _ arguments: [Argument], line: Int) -> Expr { Expr(kind: .call(callee: callee, arguments: arguments), location: at(line)) }
