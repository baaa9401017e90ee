import MarbleSyntax
import Reactive
import Testing
@testable import MarbleSpec

/// Expressions of the language, checked through a one-value pipeline: `Just(0).map { EXPR }`.
@Suite struct InterpreterTests {
    /// Evaluates `expression` inside a map closure over a single input value and returns the
    /// literal of the result, or the error message.
    func evaluate(_ expression: String, input: String = "0") -> String {
        let report = runMarble("""
        test "expr"
          let    out = Just(\(input)).map { \(expression) }
          expect out   (x|)
        """)
        if let diagnostic = report.allDiagnostics.first { return "error: \(diagnostic.message)" }
        guard let test = report.tests.first else { return "no test" }
        if let error = test.error { return "error: \(error.message)" }
        guard let stream = test.streams.first(where: { $0.name == "out" }), let first = stream.observed?.first else { return "nothing" }
        if case .value(let text) = first.event { return text }
        return "\(first.event)"
    }

    @Test(arguments: [
        ("1 + 2 * 3", "7"),
        ("(1 + 2) * 3", "9"),
        ("7 / 2", "3"),
        ("7 % 3", "1"),
        ("-7 / 2", "{-3}"),
        ("7.0 / 2", "{3.5}"),
        ("Double($0) + 1.5", "{1.5}"),
        ("$0 * 2.5", "error: binary operator '*' cannot be applied to operands of type 'Int' and 'Double'"),
        ("\"a\" + \"b\"", "{\"ab\"}"),
        ("\"n=\\($0 + 1)\"", "{\"n=1\"}"),
        ("1 < 2 && 2 < 3", "{true}"),
        ("1 > 2 || !(1 == 1)", "{false}"),
        ("$0 > 9 ? \"many\" : String($0)", "{\"0\"}"),
        ("nil ?? 5", "5"),
        ("[1, 2, 3].count", "3"),
        ("\"hello\".uppercased()", "{\"HELLO\"}"),
        ("\"HeLLo\".lowercased()", "{\"hello\"}"),
        ("(\"a\", 1).1", "1"),
        ("[4, 5].first", "4"),
        ("[Int]().isEmpty", "{true}"),  // `[T]()` is an empty array of T
        ("\"abc\".contains(\"b\")", "{true}"),
        ("Int(\"42\")", "{42}"),
        ("Int(\"x\")", "{nil}"),
        ("String(42)", "{\"42\"}"),
        ("min(3, 1, 2)", "1"),
        ("max(3, 1, 2)", "3"),
        ("abs(-4)", "4"),
        ("if $0 == 0 { \"zero\" } else { \"other\" }", "{\"zero\"}"),
        ("if $0 > 0 { 1 } else if $0 == 0 { 2 } else { 3 }", "2"),
        ("42.description", "{\"42\"}"),
        ("[1, 2] + [3]", "{[1, 2, 3]}"),
    ])
    func expressions(_ expression: String, _ expected: String) {
        #expect(evaluate(expression) == expected)
    }

    @Test(arguments: [
        ("Int.max + $0 + 1", "arithmetic overflow in 9223372036854775807 + 1"),
        ("1 / $0", "division by zero in 1 / 0"),
        ("1 % $0", "division by zero in 1 % 0"),
    ])
    func runtimeErrorsAreReportedNotTrapped(_ expression: String, _ message: String) {
        #expect(evaluate(expression) == "error: \(message)")
    }

    /// On values of a known type these are found before the run (`TypeCheckTests`); on a
    /// stream of mixed kinds they are left to run time, where they are reported, not trapped.
    @Test(arguments: [
        ("$0 + \"a\"", "binary operator '+' cannot be applied to operands of type Int and String (1 + \"a\")"),
        ("$0.uppercased()", "value of type Int has no member 'uppercased'"),
        ("$0 ? 1 : 2", "a condition must be a Bool, not Int (1)"),
        ("$0.5", "Int (1) has no element .5"),
    ])
    func typeErrorsOnValuesOfMixedKindsAreRuntimeErrors(_ expression: String, _ message: String) {
        let report = runMarble("""
        test "expr"
          hot    a   -1-{"b"}-|
          let    out = a.map { \(expression) }
          expect out -x-|
        """)
        #expect(report.allDiagnostics.map(\.message) == [])
        #expect(report.tests.first?.error?.message == message)
    }

    @Test func closuresTakeNamedParametersAndDestructureTuples() {
        let report = runMarble("""
        test "closures"
          hot    a     -1-2-|
          hot    b     --3-4|
          let    sum = a.combineLatest(b) { x, y in x * 10 + y }
          let    pair = a.combineLatest(b).map { $0 + $1 }
          let    total = a.scan(0) { acc, x in
                   let next = acc + x
                   return next
                 }
          values A = 13, B = 23, C = 24, D = 4, E = 5, F = 6
          expect sum   --ABC|
          expect pair  --DEF|
          expect total -1-3-|
        """)
        #expect(problems(report) == [])
    }

    @Test func aThrowInANonThrowingClosureIsAnErrorNamingTheOperator() {
        let report = runMarble("""
        test "throw in map"
          hot    a     -1-|
          let    out = a.map { if $0 == 1 { throw "no" } else { $0 } }
          expect out   -1-|
        """)
        #expect(report.allDiagnostics.map(\.message) == ["the closure of map can throw, but map cannot throw"])
        #expect(report.allDiagnostics.first.map { "\($0.line):\($0.column)" } == "3:37")
        #expect(report.allDiagnostics.first?.hint?.contains("tryMap") == true)
    }

    @Test func durationsConvertThroughTheFrame() {
        let report = runMarble("""
        frame 100ms
        test "durations"
          hot    a     -1---|
          let    d1 = a.delay(for: .milliseconds(200), scheduler: RunLoop.main)
          let    d2 = a.delay(for: .seconds(0.3), scheduler: DispatchQueue.main)
          let    d3 = a.delay(for: 1, scheduler: scheduler)
          expect d1    ---1---|
          expect d2    ----1---|
          expect d3    --1---|
        """)
        #expect(problems(report) == [])
    }

    @Test func aDurationThatIsNotAWholeNumberOfFramesIsAnError() {
        let report = runMarble("""
        frame 100ms
        test "bad duration"
          hot    a     -1-|
          let    d = a.delay(for: .milliseconds(150), scheduler: RunLoop.main)
          expect d     -1-|
        """)
        #expect(report.allDiagnostics.map(\.message) == [".milliseconds(150) is not a whole number of frames (1 frame = 100ms)"])
        #expect(report.allDiagnostics.first?.line == 4)
    }

    @Test func publishersFlowAsValues() {
        let report = runMarble("""
        test "higher order"
          hot    taps   -a--b---|
          cold   inner  -x|
          let    outer = taps.map { _ in inner }
          let    flat  = outer.flatMap { $0 }
          let    deferred = taps.flatMap { _ in Deferred { Just("d") } }
          let    merged = Publishers.MergeMany([inner, inner])
          expect flat      --x--x--|
          expect deferred  -d--d---|
          expect merged    -(xx)|
        """)
        #expect(problems(report) == [])
    }
}

@Suite struct FutureNotationTests {
    @Test func aFutureCanBeFulfilledLaterOnTheVirtualClock() {
        let report = runMarble("""
        frame 100ms
        test "later"
          let    f  = Future { promise in DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(300)) { promise(.success(7)) } }
          let    a  = f
          let    b  = f
          subscribe b -----^---
          expect a    ---(7|)--
          expect b    -----(7|)
        """)
        #expect(problems(report) == [])
    }
}

@Suite struct IntegerLiteralFastPathTests {
    @Test func plainIntegersAreReadDirectly() {
        #expect(TestSession.integerLiteral("0") == 0)
        #expect(TestSession.integerLiteral("42") == 42)
        #expect(TestSession.integerLiteral("-7") == -7)
        #expect(TestSession.integerLiteral("123456789012345678") == 123_456_789_012_345_678)
        #expect(TestSession.integerLiteral("-123456789012345678") == -123_456_789_012_345_678)
        #expect(TestSession.integerLiteral("-0") == 0)
    }

    @Test func everythingElseGoesThroughTheInterpreter() {
        for text in ["", "-", "007", "1_000", "+5", "1.5", "\"1\"", "1e3", "0x10", "1234567890123456789", " 4", "4 ", "--4",
                     "00", "-007", "4-", "-", "1-2", "٣"] {
            #expect(TestSession.integerLiteral(text) == nil, "\(text)")
        }
    }

    @Test func literalTimelinesMatchTheInterpretedValues() {
        // The same values written as integer literals (fast path), as expressions (interpreter)
        // and as names: all compare equal, and a wrong one is still reported.
        let report = runMarble("""
        test "literals"
          hot    source  -{1}{-2}{30}{2.5}|
          let    out   = source
          values t = 30
          expect out     -{1}{-2}t{2.5}|

        test "a wrong literal is reported"
          hot    source  -{1}{2}|
          expect source  -{1}{3}|
        """)
        #expect(problems(report) == ["source frame 2: expected 3, got 2"])
    }
}

/// The closure compiler (the fast path operators use per value) gives exactly what the
/// interpreter gives: the same values, the same errors.
@Suite struct ClosureCompilerTests {
    static let closures = [
        "{ $0 * 2 }", "{ $0 % 3 != 0 }", "{ $0 + $1 }", "{ x in x - 1 }", "{ acc, x in acc + x }", "{ $0 > 2 ? \"big\" : \"small\" }",
        "{ if $0 == 0 { throw \"zero\" } else { 12 / $0 } }", "{ $0 == 1 || $0 == 3 }", "{ !($0 < 2) && true }", "{ nil ?? $0 }",
        "{ \"n=\\($0)\" }", "{ ($0, $0 * 10).1 }", "{ -$0 }", "{ $0 / 0 }", "{ Int.max * $0 }", "{ $0 + \"a\" }", "{ $0 ? 1 : 2 }",
        "{ (a, b) in a * b }", "{ _ in 7 }", "{ $0 * 2.5 }", "{ Double($0) * 2.5 }", "{ $0.0 }",
        // The direct shapes: argument with literal, argument with argument, expression with literal.
        "{ $0 % 0 }", "{ $1 - 1 }", "{ $0 - $1 }", "{ $1 * $0 }", "{ $2 + $0 }", "{ a, b in b % a }", "{ ($0 + 1) * 3 }", "{ $0 * 2 == 4 }",
        "{ $0 < 3 }", "{ $0 >= $1 }",
        // Chains longer than `ClosureCompiler.longestNestedChain`: one closure looping over the links.
        "{ $0 + 1 - 2 * 3 + $0 * $0 - 4 / 2 + 5 % 3 - $0 + 7 + 8 }", "{ $0 * 2 * 2 * 2 * 2 * 2 * 2 * 2 * 2 * 2 * 2 }",
        "{ 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + $0 }", "{ Int.max - 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + $0 }",
        "{ $0 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + \"a\" }", "{ $0 / 1 / 1 / 1 / 1 / 1 / 1 / 1 / 1 / 0 }",
        "{ $0 > 0 && $0 > 1 && $0 > 2 && $0 > 3 && $0 > 4 && $0 > 5 && $0 > 6 && $0 > 7 && $0 < 9 }",
        "{ $0 == 0 || $0 == 1 || $0 == 2 || $0 == 3 || $0 == 4 || $0 == 5 || $0 == 6 || $0 == 7 || $0 == 8 || $0 }",
        "{ $0 > 1 && $0 < 9 || $0 == 0 && true || false || $0 == 5 || $0 == 6 && $0 != 7 || $0 == 9 || $0 == -3 }",
        "{ nil ?? nil ?? nil ?? nil ?? nil ?? nil ?? nil ?? nil ?? nil ?? $0 }", "{ nil ?? nil ?? nil ?? nil ?? nil ?? nil ?? nil ?? nil ?? $0 ?? 1 }",
        "{ (((((((((nil ?? nil) ?? nil) ?? nil) ?? nil) ?? nil) ?? nil) ?? nil) ?? nil) ?? $0) ?? 3 }",
        "{ $0 == 0 ? \"a\" : $0 == 1 ? \"b\" : $0 == 2 ? \"c\" : $0 == 3 ? \"d\" : $0 == 4 ? \"e\" : $0 == 5 ? \"f\" : $0 == 6 ? \"g\" : $0 == 7 ? \"h\" : $0 == 8 ? \"i\" : \"z\" }",
        "{ $0 == 0 ? 0 : $0 == 1 ? 1 : $0 == 2 ? 2 : $0 == 3 ? 3 : $0 == 4 ? 4 : $0 == 5 ? 5 : $0 == 6 ? 6 : $0 == 7 ? 7 : $0 == 8 ? 8 : $0 + 1 }",
        "{ $0 == 0 ? 0 : $0 == 1 ? 1 : $0 == 2 ? 2 : $0 == 3 ? 3 : $0 == 4 ? 4 : $0 == 5 ? throw \"five\" : $0 == 6 ? 6 : $0 == 7 ? 7 : $0 == 8 ? 8 : $0 * 0 }",
        "{ if $0 == 0 { 0 } else if $0 == 1 { 1 } else if $0 == 2 { 2 } else if $0 == 3 { 3 } else if $0 == 4 { 4 } else if $0 == 5 { 5 } else if $0 == 6 { 6 } else if $0 == 7 { 7 } else if $0 == 8 { 8 } else { -1 } }",
        "{ if $0 == 0 { 0 } else if $0 == 1 { 1 } else if $0 == 2 { 2 } else if $0 == 3 { 3 } else if $0 == 4 { 4 } else if $0 == 5 { 5 } else if $0 == 6 { 6 } else if $0 == 7 { 7 } else if $0 == 8 { 8 } }",
        "{ x in x + 1 + x + 1 + x + 1 + x + 1 + x + 1 + x }", "{ a, b in a - b - a - b - a - b - a - b - a - b - a }",
    ]

    static let inputs: [[Value]] = [[.int(0)], [.int(2)], [.int(5)], [.int(-3)], [.int(1), .int(2)], [.tuple([.int(3), .int(4)])], [.string("s")],
                                    [.int(Int.max)], [.int(Int.min), .int(-1)], [.double(1.5)], [.int(7), .string("x")]]

    @Test(arguments: closures)
    func compiledClosuresBehaveLikeInterpretedOnes(_ source: String) throws {
        let interpreter = Interpreter(scheduler: VirtualTimeScheduler(), frameNanoseconds: 1_000_000, lines: LineTable(""))
        let expr = try MarbleFileParser.parseExpression(source, at: SourceLocation(line: 1, column: 1))
        guard case .closure(let syntax) = expr.kind else { Issue.record("not a closure"); return }
        let closure = ClosureValue(syntax: syntax, environment: Environment(), location: expr.location,
                                   usesSecondAnonymousArgument: syntax.parameters == nil && NameCheck.mentions("$1", in: syntax.body))
        let compiled = ClosureCompiler.compile(closure)
        // Calls, tuple literals and type members stay with the interpreter.
        let interpretedOnly = ["{ Double($0) * 2.5 }", "{ ($0, $0 * 10).1 }", "{ Int.max * $0 }",
                               "{ Int.max - 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + $0 }"]
        #expect((compiled == nil) == interpretedOnly.contains(source), "\(source)")
        for input in Self.inputs {
            let fast = compiled.map { compiled in Result { () throws(EvalError) -> Value in try compiled.run(input) } }
                ?? interpreter.outcome(of: closure, input, purpose: "test")
            let slow = interpreter.outcome(of: closure, input, purpose: "test")
            #expect(describe(fast) == describe(slow), "\(source) on \(input)")
        }
    }

    /// An operator passed as a function (`reduce(0, +)`, `sorted(by: >)`) is the closure
    /// `{ $0 OP $1 }`: compiled, it gives what the interpreter gives, errors included.
    @Test(arguments: ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||"])
    func operatorFunctionsCompileLikeTheirClosures(_ op: String) throws {
        let interpreter = Interpreter(scheduler: VirtualTimeScheduler(), frameNanoseconds: 1_000_000, lines: LineTable(""))
        let expr = try MarbleFileParser.parseExpression("f(0, \(op))", at: SourceLocation(line: 1, column: 1))
        guard case .call(_, let arguments) = expr.kind, case .closure(let syntax) = arguments[1].value.kind else { Issue.record("not a closure"); return }
        let closure = ClosureValue(syntax: syntax, environment: Environment(), location: arguments[1].value.location,
                                   usesSecondAnonymousArgument: NameCheck.mentions("$1", in: syntax.body))
        let compiled = try #require(ClosureCompiler.compile(closure))
        let inputs: [[Value]] = [[.int(6), .int(4)], [.int(Int.max), .int(1)], [.int(3), .int(0)], [.double(1.5), .double(0.5)],
                                 [.string("a"), .string("b")], [.bool(true), .bool(false)], [.tuple([.int(1), .int(2)])], [.int(1)]]
        for input in inputs {
            let fast = Result { () throws(EvalError) -> Value in try compiled.run(input) }
            #expect(describe(fast) == describe(interpreter.outcome(of: closure, input, purpose: "test")), "\(op) on \(input)")
        }
    }

    func describe(_ result: Result<Value, EvalError>) -> String {
        switch result {
        case .success(let value): return "value \(value.literal)"
        case .failure(.thrown(let error)): return "thrown \(error.message)"
        case .failure(.fault(let diagnostic)): return "fault \(diagnostic.message)"
        case .failure(.returning): return "returning"
        case .failure(.nilInChain): return "nil in chain"
        case .failure(.jump(let jump)): return "jump \(jump)"
        }
    }
}

/// A closure kept in the very scope it captures (`let g = { … }` in a closure body or at test
/// level) must not keep that scope alive: the scope and the closure would hold each other.
@Suite struct ScopeLifetimeTests {
    @Test func aClosureDefinedInTheScopeItCapturesLetsTheScopeGo() {
        weak var released: Environment?
        do {
            let scope = Environment(parent: Environment())
            let syntax = Closure(parameters: ["x"], body: [])
            scope["g"] = .closure(ClosureValue(syntax: syntax, environment: scope, location: SourceLocation(line: 2, column: 11),
                                               usesSecondAnonymousArgument: true))
            // Read back (here and through a child scope, as a call of `g` inside `g` does), the
            // closure has its scope again.
            for reader in [scope, Environment(parent: scope)] {
                guard case .closure(let read) = reader["g"] else {
                    Issue.record("g is not a closure")
                    return
                }
                #expect(read.environment === scope)
                #expect(read.location == SourceLocation(line: 2, column: 11))
                #expect(read.usesSecondAnonymousArgument)
                #expect(read.syntax.parameters == ["x"])
            }
            #expect(scope.assign("g", .closure(ClosureValue(syntax: syntax, environment: scope, location: SourceLocation(line: 3, column: 1)))))
            released = scope
        }
        #expect(released == nil)
    }

    /// A closure of another scope is kept as it is (it holds that scope, which does not hold it).
    @Test func aClosureOfAnEnclosingScopeIsKeptWithItsScope() {
        let outer = Environment()
        let inner = Environment(parent: outer)
        inner["f"] = .closure(ClosureValue(syntax: Closure(parameters: nil, body: []), environment: outer, location: SourceLocation(line: 1, column: 1)))
        guard case .closure(let read) = inner["f"] else {
            Issue.record("f is not a closure")
            return
        }
        #expect(read.environment === outer)
    }

    /// End to end: a closure body that defines a closure and calls it (the name read back from
    /// the scope it captures).
    @Test func aLocalClosureIsCalledWithItsScope() {
        let report = runMarble("""
        test "t"
          let out = Just(4).map { n in
            let twice = { (k: Int) in k * 2 + n - n }
            return twice(n)
          }
          expect out (8|)
        """)
        #expect(report.allDiagnostics.map(\.message) == [])
        #expect(report.tests.first?.outcome == .passed)
    }
}
