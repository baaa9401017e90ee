import Testing
@testable import MarbleSyntax

@Suite struct ExpressionTests {
    @Test(arguments: [
        ("42", "42"),
        ("1_000_000", "1000000"),
        ("-7", "-7"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("1.5", "1.5"),
        ("-1.5", "-1.5"),
        ("1e3", "1000.0"),
        ("2.5e-1", "0.25"),
        ("1_000.25", "1000.25"),
        ("true", "true"),
        ("false", "false"),
        ("nil", "nil"),
        ("\"hello\"", "\"hello\""),
        ("\"\"", "\"\""),
        ("\"a\\nb\\t\\\"q\\\" \\\\ \\u{1F600} \\u{e9}\\0\"", "\"a\\nb\t\\\"q\\\" \\\\ 😀 é\0\""),
        ("[1, 2, 3]", "[1 2 3]"),
        ("[]", "[]"),
        ("[1, 2,]", "[1 2]"),
        ("[[1], [2, 3]]", "[[1] [2 3]]"),
        ("(\"a\", 1)", "(tuple \"a\" 1)"),
        ("(x: 1, y: -2.5)", "(tuple x:1 y:-2.5)"),
        ("()", "(tuple)"),
        ("((1))", "1"),
        ("(1, (2, 3))", "(tuple 1 (tuple 2 3))"),
    ])
    func literals(source: String, expected: String) {
        #expect(sx(source) == expected)
    }

    @Test func integerValues() throws {
        let expression = try MarbleFileParser.parseExpression("-12", at: loc(3, 5))
        guard case .int(let value) = expression.kind else {
            Issue.record("not an int: \(sexp(expression))")
            return
        }
        #expect(value == -12)
        #expect(expression.location == loc(3, 5))
        #expect(expression.range == SourceRange(start: loc(3, 5), end: loc(3, 8)))
    }

    @Test(arguments: [
        ("\"a\\(x)b\"", "(string \"a\" x \"b\")"),
        ("\"\\(x + 1)\"", "(string (+ x 1))"),
        ("\"n = \\(String($0)) and \\(\"inner \\(y)\")\"", "(string \"n = \" (call String $0) \" and \" (string \"inner \" y))"),
        ("\"\\(f(\"(\"))\"", "(string (call f \"(\"))"),
    ])
    func interpolation(source: String, expected: String) {
        #expect(sx(source) == expected)
    }

    @Test func interpolationLocations() throws {
        let expression = try MarbleFileParser.parseExpression("\"ab\\(x + 1)\"", at: loc(2, 10))
        guard case .string(let parts) = expression.kind, parts.count == 2, case .interpolation(let inner) = parts[1] else {
            Issue.record("unexpected \(sexp(expression))")
            return
        }
        #expect(inner.location == loc(2, 17))  // the '+'
        #expect(inner.range.start == loc(2, 15))
    }

    @Test(arguments: [
        ("x", "x"),
        ("$0", "$0"),
        ("$12", "$12"),
        ("`default`", "default"),
        ("a.b.c", "(. (. a b) c)"),
        ("pair.0", "(. pair 0)"),
        ("nested.0.1", "(. (. nested 0) 1)"),
        ("Error.self", "(. Error self)"),
        (".unlimited", "(. unlimited)"),
        (".max(1)", "(call (. max) 1)"),
        (".byTime(scheduler, 3)", "(call (. byTime) scheduler 3)"),
        ("f()", "(call f)"),
        ("f(1, x: 2, y: z)", "(call f 1 x:2 y:z)"),
        ("f(1,)", "(call f 1)"),
        ("a.debounce(for: .milliseconds(300), scheduler: RunLoop.main)",
         "(call (. a debounce) for:(call (. milliseconds) 300) scheduler:(. RunLoop main))"),
        ("[1, 2, 3].publisher", "(. [1 2 3] publisher)"),
        ("Publishers.Merge(a, b)", "(call (. Publishers Merge) a b)"),
        ("\"abc\".uppercased().count", "(. (call (. \"abc\" uppercased)) count)"),
        ("\\.count", "(keypath count)"),
        ("\\.0", "(keypath 0)"),
        ("\\.a.b.1", "(keypath a b 1)"),
        ("xs.map(\\.count)", "(call (. xs map) (keypath count))"),
        ("try foo()", "(call foo)"),
        ("try a.b(c)", "(call (. a b) c)"),
        ("-1.description", "(. -1 description)"),
    ])
    func namesMembersAndCalls(source: String, expected: String) {
        #expect(sx(source) == expected)
    }

    @Test(arguments: [
        ("PassthroughSubject<Int, Never>()", "(call (generic PassthroughSubject <Int> <Never>))"),
        ("PassthroughSubject<String, Never>()", "(call (generic PassthroughSubject <String> <Never>))"),
        ("Empty<Int, Never>()", "(call (generic Empty <Int> <Never>))"),
        ("Just<[Int]>([1])", "(call (generic Just <[Int]>) [1])"),
        ("Result<Int, Error>.success(1)", "(call (. (generic Result <Int> <Error>) success) 1)"),
        ("Foo<Bar<Int>, [String: Int]>()", "(call (generic Foo <Bar<Int>> <[String: Int]>))"),
        ("A < B", "(< A B)"),
        ("A<B", "(< A B)"),
        ("a<b>(c)", "error: adjacent operators are in non-associative precedence group 'ComparisonPrecedence' @1:4"),
    ])
    func genericArguments(source: String, expected: String) {
        #expect(sx(source) == expected)
    }

    @Test(arguments: [
        ("{ $0 + $1 }", "(closure (+ $0 $1))"),
        ("{ x in x * 2 }", "(closure (params x) (* x 2))"),
        ("{ acc, x in acc + x }", "(closure (params acc x) (+ acc x))"),
        ("{ (acc, x) in acc + x }", "(closure (params acc x) (+ acc x))"),
        ("{ _ in other }", "(closure (params _) other)"),
        ("{ _, _ in 0 }", "(closure (params _ _) 0)"),
        ("{ (x: Int) -> Int in x }", "(closure (params x) x)"),
        ("{ (acc: [String: Int], x: (Int, Int)) -> [String: Int] in acc }", "(closure (params acc x) acc)"),
        ("{ x -> Int in x }", "(closure (params x) x)"),
        ("{ x throws -> Int in x }", "(closure (params x) x)"),
        ("{ [weak self] x in x }", "(closure (params x) x)"),
        ("{ () in 1 }", "(closure (params) 1)"),
        ("{ (a, b) }", "(closure (tuple a b))"),
        ("{ }", "(closure)"),
        ("{ 1; 2 }", "(closure 1 2)"),
        ("{ let y = $0 * 2; return y + 1 }", "(closure (let y (* $0 2)) (return (+ y 1)))"),
        ("{ let y: Int = $0; return }", "(closure (let y (: $0 Int)) (return))"),
        ("{ x in\n  let y = x + 1\n  return y\n}", "(closure (params x) (let y (+ x 1)) (return y))"),
        ("{ x in\n  x\n  -1\n}", "(closure (params x) x -1)"),
        ("{ x in\n  x\n  - 1\n}", "(closure (params x) (- x 1))"),
        ("{ Just($0) }", "(closure (call Just $0))"),
        ("Deferred { Just(1) }", "(call Deferred (closure (call Just 1)))"),
        ("Deferred() { Just(1) }", "(call Deferred (closure (call Just 1)))"),
        ("Future { promise in promise(.success(1)) }", "(call Future (closure (params promise) (call promise (call (. success) 1))))"),
    ])
    func closures(source: String, expected: String) {
        #expect(sx(source) == expected)
    }

    @Test(arguments: [
        ("x.map { $0 }", "(call (. x map) (closure $0))"),
        ("x.flatMap(maxPublishers: .max(1)) { q in search }",
         "(call (. x flatMap) maxPublishers:(call (. max) 1) (closure (params q) search))"),
        ("x.sink { c in c } receiveValue: { v in v }",
         "(call (. x sink) (closure (params c) c) receiveValue:(closure (params v) v))"),
        ("x.sink { c in c }\n  receiveValue: { v in v }",
         "(call (. x sink) (closure (params c) c) receiveValue:(closure (params v) v))"),
        ("x.map { $0 }.filter { $0 > 1 }", "(call (. (call (. x map) (closure $0)) filter) (closure (> $0 1)))"),
        ("x\n  .map { $0 }\n  .filter { $0 > 1 }", "(call (. (call (. x map) (closure $0)) filter) (closure (> $0 1)))"),
        ("f(x.map { $0 })", "(call f (call (. x map) (closure $0)))"),
    ])
    func trailingClosures(source: String, expected: String) {
        #expect(sx(source) == expected)
    }

    @Test(arguments: [
        // Multiplicative over additive, left associative.
        ("1 + 2 * 3", "(+ 1 (* 2 3))"),
        ("1 * 2 + 3", "(+ (* 1 2) 3)"),
        ("1 - 2 - 3", "(- (- 1 2) 3)"),
        ("8 / 4 / 2", "(/ (/ 8 4) 2)"),
        ("7 % 3 * 2", "(* (% 7 3) 2)"),
        ("2-1", "(- 2 1)"),
        ("2 - -1", "(- 2 -1)"),
        ("1 -1", "(- 1 1)"),
        // Range below additive, above ??.
        ("0 ..< n + 1", "(..< 0 (+ n 1))"),
        ("1...5", "(... 1 5)"),
        ("a ?? 0...1", "(?? a (... 0 1))"),
        // ?? right associative, above comparison.
        ("a ?? b ?? c", "(?? a (?? b c))"),
        ("a ?? b == c", "(== (?? a b) c)"),
        // Comparison over &&, && over ||.
        ("a < b && c >= d", "(&& (< a b) (>= c d))"),
        ("a || b && c", "(|| a (&& b c))"),
        ("a && b || c && d", "(|| (&& a b) (&& c d))"),
        ("a || b || c", "(|| (|| a b) c)"),
        ("a != b", "(!= a b)"),
        ("a <= b", "(<= a b)"),
        ("a > b", "(> a b)"),
        // Ternary lowest, right associative.
        ("a ? b : c", "(? a b c)"),
        ("a || b ? 1 + 2 : 3", "(? (|| a b) (+ 1 2) 3)"),
        ("a ? b : c ? d : e", "(? a b (? c d e))"),
        ("a ? b ? c : d : e", "(? a (? b c d) e)"),
        ("$0 > 9 ? \"many\" : String($0)", "(? (> $0 9) \"many\" (call String $0))"),
        // Prefix operators.
        ("-x", "(- x)"),
        ("!x", "(! x)"),
        ("!!x", "(! (! x))"),
        ("-x * 2", "(* (- x) 2)"),
        ("!a.isEmpty", "(! (. a isEmpty))"),
        ("-(1 + 2)", "(- (+ 1 2))"),
        ("!a && b", "(&& (! a) b)"),
        // Parentheses.
        ("(1 + 2) * 3", "(* (+ 1 2) 3)"),
        ("1 + (2 + 3)", "(+ 1 (+ 2 3))"),
        // Multi-line binary expressions inside brackets.
        ("(1 +\n 2)", "(+ 1 2)"),
        ("f(a,\n  b)", "(call f a b)"),
    ])
    func precedence(source: String, expected: String) {
        #expect(sx(source) == expected)
    }

    @Test(arguments: [
        ("if x { 1 } else { 2 }", "(if x (then 1) (else 2))"),
        ("if x { 1 }", "(if x (then 1))"),
        ("if a { 1 } else if b { 2 } else { 3 }", "(if a (then 1) (else (if b (then 2) (else 3))))"),
        ("if $0 < 0 { throw \"negative\" } else { $0 * 2 }", "(if (< $0 0) (then (throw \"negative\")) (else (* $0 2)))"),
        ("if xs.isEmpty { 0 } else { 1 }", "(if (. xs isEmpty) (then 0) (else 1))"),
        ("if xs.contains(where: { $0 > 1 }) { 0 } else { 1 }",
         "(if (call (. xs contains) where:(closure (> $0 1))) (then 0) (else 1))"),
        ("if x {\n  let y = 1\n  y\n}\nelse {\n  2\n}", "(if x (then (let y 1) y) (else 2))"),
        ("throw \"boom\"", "(throw \"boom\")"),
        ("throw \"a\" + b", "(throw (+ \"a\" b))"),
        ("x.tryMap { if $0 == 0 { throw \"zero\" }; return 12 / $0 }",
         "(call (. x tryMap) (closure (if (== $0 0) (then (throw \"zero\"))) (return (/ 12 $0))))"),
    ])
    func ifAndThrow(source: String, expected: String) {
        #expect(sx(source) == expected)
    }

    @Test func locationsPointAtTheRightPlaces() throws {
        let expression = try MarbleFileParser.parseExpression("a.map { $0 + 1 }.filter(x: .max(2))", at: loc(1, 1))
        guard case .call(let outerCallee, let outerArguments) = expression.kind,
              case .member(let mapCall?, "filter") = outerCallee.kind,
              case .call(let mapCallee, let mapArguments) = mapCall.kind,
              case .closure(let closure) = mapArguments[0].value.kind,
              case .expression(let sum) = closure.body[0],
              case .call(let implicitCallee, _) = outerArguments[0].value.kind else {
            Issue.record("unexpected shape: \(sexp(expression))")
            return
        }
        #expect(expression.location == loc(1, 1))
        #expect(expression.range == SourceRange(start: loc(1, 1), end: loc(1, 36)))
        #expect(outerCallee.location == loc(1, 18))   // "filter"
        #expect(mapCallee.location == loc(1, 3))      // "map"
        #expect(mapArguments[0].location == loc(1, 7))
        #expect(sum.location == loc(1, 12))           // "+"
        #expect(sum.range == SourceRange(start: loc(1, 9), end: loc(1, 15)))
        #expect(outerArguments[0].location == loc(1, 25))  // "x"
        #expect(outerArguments[0].value.location == loc(1, 28))
        #expect(implicitCallee.location == loc(1, 29))  // "max"
        #expect(implicitCallee.range.start == loc(1, 28))  // "."
    }

    @Test func closureStatementLocations() throws {
        let expression = try MarbleFileParser.parseExpression("{ x in\n  let y = x\n  return y\n}", at: loc(10, 20))
        guard case .closure(let closure) = expression.kind,
              case .letBinding("y", let value, let letLocation) = closure.body[0],
              case .returnStatement(_?, let returnLocation) = closure.body[1] else {
            Issue.record("unexpected shape: \(sexp(expression))")
            return
        }
        #expect(letLocation == loc(11, 3))
        #expect(value.location == loc(11, 11))
        #expect(returnLocation == loc(12, 3))
        #expect(expression.range == SourceRange(start: loc(10, 20), end: loc(13, 2)))
    }

    @Test func commentsInsideExpressions() {
        #expect(sx("f(1, // first\n  2) // done") == "(call f 1 2)")
        #expect(sx("\"http://x\" + y // a comment") == "(+ \"http://x\" y)")
        #expect(sx("a /* inline */ + b") == "(+ a b)")
        #expect(sx("a /* outer /* nested */ still */ + b") == "(+ a b)")
    }

    @Test func literalParsing() throws {
        #expect(throws: Never.self) { try MarbleFileParser.parseLiteral("[(\"a\", 1), (\"b\", -2.5)]", at: loc(1, 1)) }
        #expect(throws: Never.self) { try MarbleFileParser.parseLiteral("nil", at: loc(1, 1)) }
        #expect(throws: Never.self) { try MarbleFileParser.parseLiteral("- 1", at: loc(1, 1)) }
        do {
            _ = try MarbleFileParser.parseLiteral("(1, x)", at: loc(4, 8))
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "expected a literal value")
            #expect(error.location == loc(4, 12))
        }
        do {
            _ = try MarbleFileParser.parseLiteral("\"a\\(b)\"", at: loc(1, 1))
            Issue.record("expected an error")
        } catch {
            #expect(error.location == loc(1, 5))
        }
    }
}
