import Testing
@testable import MarbleSyntax

/// `L:C message` of the errors of `statement` written as line 2 of a test.
func errorsInTest(_ statement: String) -> [String] {
    errorList("test \"t\"\n" + statement)
}

@Suite struct FileErrorTests {
    @Test func unknownStatementSuggestsTheNearestKeyword() throws {
        let error = try #require(onlyError("test \"t\"\n  expcet a  -a-|"))
        #expect(error.message == "unknown statement 'expcet'")
        #expect(error.location == loc(2, 3))
        #expect(error.length == 6)
        #expect(error.hint == "did you mean 'expect'?")
        #expect(error.description == "2:3: error: unknown statement 'expcet'\n  hint: did you mean 'expect'?")
    }

    @Test(arguments: [
        ("Expect a -a-|", "did you mean 'expect'?"),
        ("hto a -a-|", "did you mean 'hot'?"),
        ("subscibe a ^", "did you mean 'subscribe'?"),
        ("lte x = 1", "did you mean 'let'?"),
        ("var x = 1", "a test's names are constants: write 'let'; state for one subscription is a var inside Deferred { … }, and a source that behaves differently on each attempt is several 'cold NAME' lines (the nth plays to the nth subscription)"),
        ("const x = 1", "did you mean 'let'?"),
        ("banana x", "a statement starts with one of: frame, notation, test, hot, cold, subject, send, values, let, subscribe, demand, connect, expect"),
    ])
    func unknownStatementHints(line: String, hint: String) {
        let errors = MarbleFileParser.parse("test \"t\"\n  " + line).errors
        #expect(errors.count == 1)
        #expect(errors.first?.hint == hint)
    }

    @Test func lineNotStartingWithAWord() {
        #expect(errorsInTest("  -a-b-|") == ["2:3 expected a statement, found '-'"])
        #expect(errorsInTest("  \"x\"") == ["2:3 expected a statement, found '\"'"])
    }

    @Test func statementsBeforeTheFirstTest() throws {
        let (file, errors) = MarbleFileParser.parse("""
        frame 10ms
        values A = 1
        hot a  -a-|
        let b = a
        test "t"
          hot c  -c-|
        """)
        #expect(errors.map { "\($0.location) \($0.message)" } == [
            "3:1 'hot' must be inside a test",
            "4:1 'let' must be inside a test",
        ])
        #expect(errors.first?.hint?.contains("test \"NAME\"") == true)
        #expect(file.statements.map(describe) == ["frame 10ms", "values A=1"])
        #expect(file.tests.first?.statements.map(describe) == ["hot c [-c-|]"])
    }

    @Test func testNames() {
        #expect(errorList("test checks") == ["1:6 expected a quoted test name after 'test'"])
        #expect(errorList("test") == ["1:5 expected a quoted test name after 'test'"])
        #expect(errorList("test\"x\"") == ["1:5 expected a quoted test name after 'test'"])
        #expect(errorList("test \"\"") == ["1:6 a test name cannot be empty"])
        #expect(errorList("test \"  \"") == ["1:6 a test name cannot be empty"])
        #expect(errorList("test \"a\" then") == ["1:10 unexpected 'then' after the test name"])
        #expect(errorList("test \"a\\(b)\"") == ["1:8 a test name cannot contain interpolation"])
        #expect(errorList("test \"unterminated") == ["1:6 unterminated string literal"])
        #expect(errorList("test \"bad \\q\"") == ["1:11 invalid escape sequence '\\q' in literal"])
    }

    @Test func duplicateTestNamesAreReportedAtTheSecond() throws {
        let (file, errors) = MarbleFileParser.parse("test \"same\"\n  hot a -a|\ntest \"other\"\ntest \"same\"\n  hot b -b|")
        #expect(errors.map { "\($0.location) \($0.message)" } == ["4:6 duplicate test name \"same\""])
        #expect(errors.first?.length == 6)
        #expect(errors.first?.hint == "test names must be unique within a file; the first is at line 1")
        // The duplicate still collects its statements, so they do not cascade into more errors.
        #expect(file.tests.map(\.statements.count) == [1, 0, 1])
    }

    @Test func streamNamesAndMarbles() {
        #expect(errorsInTest("  hot") == ["2:6 expected a stream name after 'hot'"])
        #expect(errorsInTest("  cold 1a -a-") == ["2:8 expected a stream name after 'cold'"])
        #expect(errorsInTest("  send -a-") == ["2:8 expected a stream name after 'send'"])
        #expect(errorsInTest("  subscribe // c") == ["2:13 expected a stream name after 'subscribe'"])
        #expect(errorsInTest("  demand a") == ["2:11 expected marbles after 'demand a'"])
        #expect(errorsInTest("  connect a   // later") == ["2:15 expected marbles after 'connect a'"])
        #expect(errorsInTest("  expect a.subscriptions") == ["2:25 expected marbles after 'expect a.subscriptions'"])
        #expect(errorsInTest("  hot a-b-c") == ["2:8 expected a space between 'a' and its marbles"])
        #expect(errorsInTest("  hot a.b  -a-") == ["2:8 only 'expect' lines can name a property such as '.subscriptions'"])
        #expect(errorsInTest("  expect a.  -a-") == ["2:12 expected a property name after '.'"])
        #expect(errorsInTest("  expect a.subscriptions-^-") == ["2:25 expected a space between 'a.subscriptions' and its marbles"])
        #expect(errorsInTest("  hot a = -a-") == ["2:9 unexpected '=' before the marbles"])
        #expect(errorsInTest("  hot nil -a-") == ["2:7 'nil' is a keyword and cannot be used as a name"])
        #expect(errorsInTest("  expect _ -a-") == ["2:10 '_' is a keyword and cannot be used as a name"])
    }

    @Test func letAndSubject() {
        #expect(errorsInTest("  let") == ["2:6 expected a name after 'let'"])
        #expect(errorsInTest("  let 2x = 1") == ["2:7 expected a name after 'let'"])
        #expect(errorsInTest("  let x") == ["2:8 expected '=' after 'let x'"])
        #expect(errorsInTest("  let x 1") == ["2:9 expected '=' after 'let x'"])
        #expect(errorsInTest("  let x: Int = 1") == ["2:8 expected '=' after 'let x'"])
        #expect(errorsInTest("  let x =") == ["2:10 expected expression after '='"])
        #expect(errorsInTest("  let x =   // nothing") == ["2:13 expected expression after '='"])
        #expect(errorsInTest("  subject") == ["2:10 expected a subject name after 'subject'"])
        #expect(errorsInTest("  subject s PassthroughSubject()") == ["2:13 expected '=' after 'subject s'"])
        #expect(errorsInTest("  subject s = ") == ["2:15 expected expression after '='"])
        #expect(errorsInTest("  let x = a b") == ["2:13 unexpected 'b' after the expression"])
    }

    @Test func frames() {
        #expect(errorList("frame") == ["1:6 expected a duration after 'frame'"])
        #expect(errorList("frame 100") == ["1:7 '100' is not a duration"])
        #expect(errorList("frame ms") == ["1:7 'ms' is not a duration"])
        #expect(errorList("frame 1.s") == ["1:7 '1.s' is not a duration"])
        #expect(errorList("frame -1ms") == ["1:7 '-1ms' is not a duration"])
        #expect(errorList("frame 10ms 20ms") == ["1:12 unexpected '20ms' after the duration"])
        #expect(errorList("frame 10ms // ok").isEmpty)
        #expect(errorList("frame 100") .count == 1)
        #expect(MarbleFileParser.parse("frame 100").errors.first?.hint == "write a number and a unit, such as 100ms, 1s or 1.5s")
    }

    @Test func values() throws {
        #expect(errorList("values") == ["1:7 expected a value binding after 'values'"])
        #expect(errorList("values // none") == ["1:8 expected a value binding after 'values'"])
        #expect(errorList("values A = 1, BC = 2") == ["1:15 value names are one character; 'BC' has 2"])
        #expect(errorList("values A 1") == ["1:10 expected '=' after value name 'A'"])
        #expect(errorList("values A =") == ["1:11 expected a literal after 'A ='"])
        #expect(errorList("values A = , B = 1") == ["1:12 expected a literal after 'A ='"])
        #expect(errorList("values A = 1,") == ["1:14 expected a value binding after ','"])
        #expect(errorList("values A = 1 B = 2") == ["1:14 expected ',' between value bindings, found 'B'"])
        #expect(errorList("values - = 1") == ["1:8 '-' cannot name a value"])
        #expect(errorList("values | = 1") == ["1:8 '|' cannot name a value"])
        #expect(errorList("values A = x") == ["1:12 expected a literal value"])
        #expect(errorList("values A = 1 + 2") == ["1:12 expected a literal value"])
        #expect(errorList("values A = [1, f()]") == ["1:16 expected a literal value"])
        #expect(errorList("values A = \"\\(x)\"") == ["1:15 expected a literal value"])
        #expect(errorList("values A = (1, 2\ntest \"t\"") == ["1:17 expected ')' to close the '(' opened at 1:12"])
        let error = try #require(MarbleFileParser.parse("values AB = 1").errors.first)
        #expect(error.length == 2)
        #expect(error.message.contains("value names are one character"))
    }

    @Test func oneErrorPerStatementAndNoCascade() {
        let errors = errorList("""
        test "t"
          hot a  -a-|
          let x = a.map(
          let y = x.filter { $0 > }
          expect x  -a-|
          expcet y  -a-|
          hot b -b-|
        test "u"
          let z = (1 +
          expect z  -|
        """)
        #expect(errors == [
            "3:17 expected ')' to close the argument list opened at 3:16",
            "4:27 expected expression after '>'",
            "6:3 unknown statement 'expcet'",
            "9:15 expected expression after '+'",
        ])
    }

    @Test func anUnclosedBracketStopsAtTheNextStatement() {
        let (file, errors) = MarbleFileParser.parse("""
        test "t"
          let x = a.map { v in
              let w = v
          hot b -b-|
          let y = b
        """)
        #expect(errors.map { "\($0.location) \($0.message)" } == ["3:16 expected '}' to close the closure opened at 2:17"])
        #expect(file.tests.first?.statements.map(describe) == ["hot b [-b-|]", "let y b"])
    }
}

@Suite struct ExpressionErrorTests {
    @Test(arguments: [
        ("f(1, 2", "1:7 expected ')' to close the argument list opened at 1:2"),
        ("f(1 2)", "1:5 expected ',' separator"),
        ("f(", "1:3 expected ')' to close the argument list opened at 1:2"),
        ("f(x:)", "1:5 expected an argument after 'x:'"),
        ("f(,)", "1:3 expected expression, found ',' in argument list"),
        ("1 +", "1:4 expected expression after '+'"),
        ("1 + )", "1:5 expected expression after '+'"),
        ("(1 + 2", "1:7 expected ')' to close the '(' opened at 1:1"),
        ("(1 2)", "1:4 expected ',' separator"),
        ("[1, 2", "1:6 expected ']' to close the array literal opened at 1:1"),
        ("[1 2]", "1:4 expected ',' separator"),
        ("x.map { $0", "1:11 expected '}' to close the closure opened at 1:7"),
        ("{ 1 2 }", "1:5 consecutive statements on a line must be separated by ';'"),
        ("\"abc", "1:1 unterminated string literal"),
        ("f(\"abc)", "1:3 unterminated string literal"),
        ("\"a\\(b\"", "1:1 unterminated string literal"),
        ("\"\\q\"", "1:2 invalid escape sequence '\\q' in literal"),
        ("\"\\u{zz}\"", "1:2 expected hexadecimal code in braces after unicode escape"),
        ("\"\\u{110000}\"", "1:2 invalid unicode scalar '\\u{110000}'"),
        ("\"\\()\"", "1:2 expected expression in string interpolation"),
        ("\"\\(1 2)\"", "1:6 unexpected '2' in string interpolation"),
        ("\"\"\"", "1:1 multi-line string literals are not supported"),
        ("1 < 2 < 3", "1:7 adjacent operators are in non-associative precedence group 'ComparisonPrecedence'"),
        ("a == b != c", "1:8 adjacent operators are in non-associative precedence group 'ComparisonPrecedence'"),
        ("1 ... 2 ..< 3", "1:9 adjacent operators are in non-associative precedence group 'RangeFormationPrecedence'"),
        ("a ? b", "1:6 expected ':' after '? …' in ternary expression (the '?' is at 1:3)"),
        ("a ? : c", "1:5 expected expression after '?' in ternary expression"),
        ("a ? b :", "1:8 expected expression after ':' in ternary expression"),
        ("99999999999999999999", "1:1 integer literal '99999999999999999999' overflows when stored into 'Int'"),
        ("-9223372036854775809", "1:1 integer literal '-9223372036854775809' overflows when stored into 'Int'"),
        ("1e999", "1:1 floating-point literal '1e999' cannot be represented as a 'Double'"),
        ("100ms", "1:4 'm' is not a valid digit in integer literal"),
        ("1.5x", "1:4 'x' is not a valid digit in floating-point literal"),
        ("a += 1", "1:3 unexpected '+=' after the expression"),
        ("a === b", "1:3 unknown operator '==='"),
        ("a & b", "1:3 unknown operator '&'"),
        ("a..b", "1:2 unknown operator '..'"),
        ("a @ b", "1:3 unexpected character '@' in expression"),
        ("x[]", "1:3 expected an index inside '[]'"),
        ("_", "1:1 '_' can only appear in a pattern, such as a closure parameter"),
        ("f(_)", "1:3 '_' can only appear in a pattern, such as a closure parameter"),
        (".", "1:1 expected a member name after '.'"),
        (". x", "1:1 expected a member name after '.'"),
        ("x.", "1:2 expected a member name after '.'"),
        ("x.(", "1:3 expected a member name after '.'"),
        ("\\count", "1:2 expected '.' after '\\' (key paths are written \\.name)"),
        ("\\.", "1:2 expected a member name after '.' in key path"),
        ("-", "1:2 expected expression after '-'"),
        ("!", "1:2 expected expression after '!'"),
        ("throw", "1:6 expected expression after 'throw'"),
        ("try", "1:4 expected expression after 'try'"),
        ("$!", "1:1 expected a number after '$' (closure parameters are $0, $1, …)"),
        ("`x", "1:1 expected an identifier between backticks"),
        ("(x: 1)", "1:1 cannot create a single-element tuple with an element label"),
        ("[a: 1, 2]", "1:9 expected ':' after the key in a dictionary literal"),
        ("[a, b: 1]", "1:6 expected ',' separator (a dictionary literal has ':' after every key)"),
        ("if x { 1 } els { 2 }", "1:12 unexpected 'els' after the expression"),
        ("if x 1", "1:6 expected '{' after 'if' condition"),
        ("if x { 1", "1:9 expected '}' to close the block opened at 1:6"),
        ("if x { 1 } else 2", "1:17 expected '{' after 'else'"),
        ("if let { 1 }", "1:8 expected a name after 'let' in a condition"),
        ("if { 1 }", "1:4 expected a condition after 'if'"),
        ("{ let }", "1:7 expected a name after 'let'"),
        ("{ let x 1 }", "1:9 expected '=' after 'let x'"),
        ("{ let x = }", "1:11 expected expression after '='"),
        ("{ var x }", "1:9 'var x' needs a starting value"),
        ("{ return 1 2 }", "1:12 consecutive statements on a line must be separated by ';'"),
        ("{ return ) }", "1:10 expected expression after 'return'"),
        ("let", "1:1 expected expression, found keyword 'let'"),
        (")", "1:1 expected expression, found ')'"),
        ("a /* open", "1:3 unterminated '/*' comment"),
        ("await x", "1:1 'await' is not supported in marble expressions"),
        ("f(1) \"x\"", "1:6 unexpected string literal after the expression"),
        // A lexing error is reported only once the parser gets there, so errors come in source order.
        ("f(1 2) + \"abc", "1:5 expected ',' separator"),
        ("f(1, 2) + \"abc", "1:11 unterminated string literal"),
    ])
    func expressionErrors(source: String, expected: String) {
        let error = expressionError(source)
        #expect(error.map { "\($0.location) \($0.message)" } == expected)
    }

    @Test func errorsCarryLengthsAndHints() throws {
        let overflow = try #require(expressionError("f(99999999999999999999)"))
        #expect(overflow.length == 20)
        let unknown = try #require(expressionError("a === b"))
        #expect(unknown.length == 3)
        #expect(unknown.hint == "did you mean '=='?")
        #expect(expressionError("a & b")?.hint == "did you mean '&&'?")
        #expect(expressionError("a += b")?.hint == "assign inside a closure, to a 'var' declared there: { var n = 0; n += 1; … }")
        #expect(expressionError("100ms")?.hint?.contains(".milliseconds(300)") == true)
        let escape = try #require(expressionError("\"\\q\""))
        #expect(escape.length == 2)
    }

    @Test func errorLocationsAreFileLocations() throws {
        let errors = MarbleFileParser.parse("""
        test "t"
          let x = a.map { v in
              v +
          }
        """).errors
        #expect(errors.map { "\($0.location) \($0.message)" } == ["4:3 expected expression after '+'"])
        do {
            _ = try MarbleFileParser.parseExpression("f(1\n  2", at: loc(7, 30))
            Issue.record("expected an error")
        } catch {
            #expect(error.location == loc(8, 3))
            #expect(error.message == "expected ')' to close the argument list opened at 7:31")
        }
    }

    /// Operator and method chains are parsed in loops, but build trees as deep as they are long,
    /// which every later walk recurses through: their depth is bounded too, at the link that
    /// passes the limit.
    @Test func longChainsAreAnErrorAtTheLinkPastTheLimit() throws {
        let tooDeep = "expression is too deep: more than 256 levels of operators, calls and member accesses"
        // `$0 + 1 + …`: 256 terms make a tree of depth 256 (255 additions over a leaf); the 256th '+' passes it.
        let sum = try #require(expressionError("$0" + String(repeating: " + 1", count: 50_000)))
        #expect(sum.message == tooDeep)
        #expect(sum.location == loc(1, 3 + 4 * 255 + 1))
        #expect(sum.hint == "split the chain over several 'let' lines")
        #expect(expressionError("$0" + String(repeating: " + 1", count: 255)) == nil)
        // A method-chain link is a member and a call: two levels.
        let maps = try #require(expressionError("a" + String(repeating: ".map { $0 }", count: 20_000)))
        #expect(maps.message == tooDeep)
        #expect(maps.location == loc(1, 2 + 11 * 127 + 5))
        #expect(expressionError("a" + String(repeating: ".map { $0 }", count: 127)) == nil)
        let members = try #require(expressionError("$0" + String(repeating: ".description", count: 10_000)))
        #expect(members.message == tooDeep)
        #expect(members.location == loc(1, 3 + 12 * 255))
        // Nesting adds to a chain's depth: a chain inside brackets counts from the outside.
        let inner = "(" + "1" + String(repeating: " + 1", count: 250) + ")"
        #expect(expressionError("[[[[[[" + inner + "]]]]]]")?.message == tooDeep)
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let depth = 10_000
        for (open, close) in [("(", ")"), ("[", "]"), ("{", "}"), ("f(", ")"), ("- ", ""), ("!", ""), ("try ", ""), ("\"\\(", ")\"")] {
            let text = String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)
            #expect(expressionError(text)?.message.contains("nested too deeply") == true, "\(open)")
        }
        let chain = Array(repeating: "a", count: 5000).joined(separator: " ?? ")
        let nested = "expression is nested too deeply (more than 32 levels of brackets, closures and prefix operators)"
        #expect(expressionError(chain)?.message == nested)
        let ternaries = String(repeating: "a ? b : ", count: 5000) + "c"
        #expect(expressionError(ternaries)?.message == nested)
        // Moderate nesting is fine.
        let fine = String(repeating: "(", count: 30) + "1" + String(repeating: ")", count: 30)
        #expect(sx(fine) == "1")
        // Long flat chains are not nesting, but are bounded too (longChainsAreAnErrorAtTheLinkPastTheLimit).
    }
}
