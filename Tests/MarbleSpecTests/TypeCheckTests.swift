import Foundation
import MarbleSyntax
import Testing
@testable import MarbleSpec

/// The load-time type check: mistakes in closures are errors before anything runs, whether or
/// not a value reaches them; valid code is never rejected; what only data can cause stays a
/// runtime error.
@Suite struct TypeCheckTests {
    /// One test with `lines` after `test "t"` (line 2 onwards); the diagnostics as
    /// `line:column: message | hint`.
    func diagnostics(_ lines: String) -> [String] {
        let report = runMarble("test \"t\"\n" + lines)
        return report.allDiagnostics.map { "\($0.line):\($0.column): \($0.message)" + ($0.hint.map { " | " + $0 } ?? "") }
    }

    @Test(arguments: [
        // Unknown members, with suggestions from what the interpreter supports for the type.
        ("  hot a ---|\n  let n = a.map { $0.lenght }\n  expect n ---|",
         "3:22: value of type 'String' has no member 'lenght' | did you mean 'count'?"),
        ("  hot a -a-|\n  let n = a.map { $0.uppercase() }\n  expect n ---|",
         "3:22: value of type 'String' has no member 'uppercase' | did you mean 'uppercased'?"),
        ("  hot a -1-|\n  let n = a.map { $0.uppercased() }\n  expect n ---|",
         "3:22: value of type 'Int' has no member 'uppercased'"),
        ("  hot a -{1.5}-|\n  let n = a.map { $0.isNan }\n  expect n ---|",
         "3:22: value of type 'Double' has no member 'isNan' | did you mean 'isNaN'?"),
        ("  hot a -1-|\n  hot b -a-|\n  let n = a.zip(b).map { $0.2 }\n  expect n ---|",
         "4:29: value of tuple type '(Int, String)' has no member '2'"),
        ("  hot a -a-|\n  let n = a.map { [$0].frist }\n  expect n ---|",
         "3:24: value of type '[String]' has no member 'frist' | did you mean 'first'?"),
        // Argument labels, which the interpreter does not look at but Swift does.
        ("  hot a -1-|\n  let n = a.map { $0.isMultiple(by: 2) }\n  expect n ---|",
         "3:33: incorrect argument label in call (have 'by:', expected 'of:') | write isMultiple(of:)"),
        ("  hot a -1-|\n  let n = a.map { $0.isMultiple(2) }\n  expect n ---|",
         "3:33: missing argument label 'of:' in call | write isMultiple(of:)"),
        ("  hot a -a-|\n  let n = a.map { $0.uppercased(1) }\n  expect n ---|",
         "3:33: argument passed to call that takes no arguments | uppercased() takes 0 arguments"),
        // Operators on types they cannot take, in Swift's words.
        ("  hot a -a-|\n  let n = a.map { $0 + 1 }\n  expect n ---|",
         "3:22: binary operator '+' cannot be applied to operands of type 'String' and 'Int'"),
        ("  hot a -1-|\n  let n = a.map { $0 * 2.5 }\n  expect n ---|",
         "3:22: binary operator '*' cannot be applied to operands of type 'Int' and 'Double' | Swift does not mix Int and Double: convert one side, e.g. Double(x), or write the literal as 2.0"),
        ("  hot a -a-|\n  let n = a.map { $0 - $0 }\n  expect n ---|",
         "3:22: binary operator '-' cannot be applied to two 'String' operands"),
        ("  hot a -a-|\n  let n = a.map { -$0 }\n  expect n ---|",
         "3:19: unary operator '-' cannot be applied to an operand of type 'String'"),
        ("  hot a -1-|\n  let n = a.map { $0 == \"1\" }\n  expect n ---|",
         "3:22: binary operator '==' cannot be applied to operands of type 'Int' and 'String'"),
        ("  hot a -1-|\n  let n = a.map { $0 ? 1 : 2 }\n  expect n ---|",
         "3:19: type 'Int' cannot be used as a boolean; test for '!= 0' instead"),
        // Closures returning the wrong type, or throwing where nothing catches.
        ("  hot a -1-|\n  let n = a.filter { $0 + 1 }\n  expect n ---|",
         "3:22: cannot convert value of type 'Int' to closure result type 'Bool'"),
        ("  hot a -1-|\n  let n = a.tryFirst(where: { $0 })\n  expect n ---|",
         "3:31: cannot convert value of type 'Int' to closure result type 'Bool'"),
        ("  hot a -1-|\n  let n = a.scan(\"\") { acc, x in x }\n  expect n ---|",
         "3:34: cannot convert value of type 'Int' to closure result type 'String' | the closure's result is the next accumulator: it must have the initial value's type"),
        ("  hot a -1-|\n  let n = a.flatMap { $0 * 2 }\n  expect n ---|",
         "3:23: instance method 'flatMap(maxPublishers:_:)' requires that 'Int' conform to 'Publisher'"),
        ("  hot a -1-|\n  let n = a.map { if $0 == 1 { throw \"no\" } else { $0 } }\n  expect n ---|",
         "3:32: the closure of map can throw, but map cannot throw | use tryMap to turn a throw into a failure"),
        ("  let n = Future { promise in throw \"no\" }\n  expect n ---|",
         "2:31: the closure of Future can throw, but Future cannot throw | fail the Future with promise(.failure(error))"),
        ("  hot a -1-|\n  let n = a.handleEvents(receiveOutput: { _ in throw \"no\" })\n  expect n ---|",
         "3:48: the closure of handleEvents can throw, but handleEvents cannot throw | only the try- operators (tryMap, tryFilter, …) turn a throw into a failure"),
        ("  hot a -1-|\n  let n = a.map { x, y in x }\n  expect n ---|",
         "3:17: contextual closure type expects 1 argument, but 2 were used in closure body"),
        // Operators applied to a stream of the wrong type.
        ("  hot a -{true}-|\n  let n = a.max()\n  expect n ---|",
         "3:13: referencing instance method 'max()' on 'Publisher' requires that 'Bool' conform to 'Comparable' | use max(by:) with a closure that orders the values"),
        ("  hot a -1-|\n  let n = a.switchToLatest()\n  expect n ---|",
         "3:13: instance method 'switchToLatest()' requires that 'Int' conform to 'Publisher'"),
        ("  hot a -a-|\n  let n = a.replaceNil(with: \"x\")\n  expect n ---|",
         "3:13: referencing instance method 'replaceNil(with:)' on 'Publisher' requires that 'String' be an Optional type | no value of this stream is nil: replaceNil changes nothing here"),
        // Inside closures, operators and constructors are checked as at the top level.
        ("  hot a -1-|\n  let n = a.flatMap { x in Just(x).mapp { $0 } }\n  expect n ---|",
         "3:36: unknown operator 'mapp' | did you mean 'map(_:)'?"),
        ("  hot a -1-|\n  let n = a.flatMap { x in Just(x).map { $0.uppercased() } }\n  expect n ---|",
         "3:45: value of type 'Int' has no member 'uppercased'"),
    ])
    func mistakesAreFoundBeforeAnythingRuns(_ lines: String, _ expected: String) {
        #expect(diagnostics(lines) == [expected])
    }

    /// The rarer mistakes, each with its message and place (the `let` line is line 3).
    @Test(arguments: [
        ("hot a -a-|", "a.map { $0.uppercased }",
         "3:19: expected a value for the result of map's closure, found the method uppercased | call it: uppercased()"),
        ("hot a -a-|", "a.map { $0.count() }",
         "3:22: cannot call value of non-function type 'Int' | 'count' is a property: write .count without parentheses"),
        ("hot a -{1.5}-|", "a.map { $0 % 2.0 }",
         "3:22: '%' is unavailable for Double | use x.truncatingRemainder(dividingBy: y)"),
        ("hot a -{1.5}-|", "a.map { $0.truncatingRemainder(dividingBy: 2) }",
         "3:42: cannot convert value of type 'Int' to expected argument type 'Double' | the interpreter does not convert an Int literal here: write 2.0"),
        ("hot a -a-|", "a.map { $0.contains(1) }",
         "3:31: cannot convert value of type 'Int' to expected argument type 'String'"),
        ("hot a -a-|", "a.map { [$0].contains(1) }",
         "3:33: cannot convert value of type 'Int' to expected argument type 'String'"),
        ("hot a -{true}-|", "a.map { [$0].sorted() }",
         "3:24: referencing instance method 'sorted()' on 'Array' requires that 'Bool' conform to 'Comparable'"),
        ("hot a -{true}-|", "a.map { [$0].max() }",
         "3:24: referencing instance method 'max()' on 'Array' requires that 'Bool' conform to 'Comparable'"),
        // A key path is the closure that reads it, as in Swift: the member it names is checked.
        ("hot a -1-|", "a.map { [$0].map(\\.count) }",
         "3:28: value of type 'Int' has no member 'count'"),
        ("hot a -1-|", "a.map { $0.isMultiple() }",
         "3:22: missing argument for parameter 'of' in call | write isMultiple(of:)"),
        ("hot a -1-|", "a.map { $0.isMultiple(of: 2, 3) }",
         "3:40: extra argument in call | isMultiple(of:) takes 1 argument"),
        ("hot a -a-|", "a.map { $0.hasPrefix(of: \"a\") }",
         "3:32: extraneous argument label 'of:' in call | write hasPrefix(_:)"),
        ("hot a -a-|", "a.map { min($0, 1) }",
         "3:27: global function 'min' requires that the arguments have one Comparable type; 'String' and 'Int' differ"),
        ("hot a -a-|", "a.map { abs($0) }",
         "3:19: abs(_:) needs a number, not 'String'"),
        ("hot a -{true}-|", "a.map { Int($0) }",
         "3:19: Int(_:) cannot convert a value of type 'Bool'"),
        ("hot a -1-|", "a.map { Bool($0) }",
         "3:19: Bool(_:) cannot convert a value of type 'Int'"),
        ("hot a -1-|", "a.map { Int($0, 2) }",
         "3:19: cannot call 'Int' with 2 arguments"),
        ("hot a -1-|", "a.map { $0(2) }",
         "3:19: cannot call value of non-function type 'Int'"),
        ("hot a -1-|", "a.map { _ in $1 }",
         "3:24: anonymous closure argument '$1' is not available here | '$0' only exists inside a closure without named parameters; this closure is called with fewer arguments"),
        ("hot a -1-|", "a.map { $0 + Int.maximum }",
         "3:28: type 'Int' has no member 'maximum'"),
        ("hot a -1-|", "a.map { \"\\(RunLoop.main)\" }",
         "3:30: expected a value for string interpolation, found a scheduler"),
        ("hot a -1-|", "a.map { $0 ... 2.5 }",
         "3:22: binary operator '...' cannot be applied to operands of type 'Int' and 'Double' | Swift does not mix Int and Double: convert one side, e.g. Double(x), or write the literal as 2.0"),
        ("hot a -1-|", "a.flatMap { _ in Future { promise in promise(1) } }",
         "3:48: call the promise with .success(value) or .failure(error)"),
        ("hot a -1-|", "a.flatMap { _ in Future { promise in DispatchQueue.main.asyncAfter(deadline: .now() + 3) { promise(.success(1)) } } }",
         "3:97: a deadline is .now() + a duration such as .milliseconds(300)"),
        ("hot a -1-|", "a.flatMap { _ in Future { promise in DispatchQueue.main.asyncAfter(deadline: 3) { promise(.success(1)) } } }",
         "3:78: a deadline is .now() + a duration such as .milliseconds(300)"),
        ("hot a -1-|", "a.flatMap { _ in Future { promise in DispatchQueue.main.asyncAfter { promise(.success(1)) } } }",
         "3:67: asyncAfter needs deadline: .now() + a duration"),
        ("hot a -1-|", "a.flatMap { _ in Future { promise in DispatchQueue.main.schedule { promise(.success(1)) } } }",
         "3:67: 'schedule' on a scheduler is not supported | run work later with DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(300)) { … }"),
        ("hot a -1-|", "a.flatMap { x in Just(x).delay(for: \"x\", scheduler: RunLoop.main) }",
         "3:42: delay(for:tolerance:scheduler:options:) needs a duration here (e.g. .milliseconds(300), or a number of frames), not a value of type 'String'"),
        ("hot a -1-|", "a.flatMap { x in Just(x).delay(for: 1, scheduler: 2) }",
         "3:50: delay(for:tolerance:scheduler:options:) needs a scheduler here (RunLoop.main, DispatchQueue.main, scheduler, …), not a value of type 'Int'"),
        ("hot a -1-|", "a.flatMap { x in Just(x).flatMap(maxPublishers: \"x\") { Just($0) } }",
         "3:44: flatMap(maxPublishers:_:) needs a demand here (.unlimited or .max(n)), not a value of type 'String'"),
        ("hot a -1-|", "a.flatMap { x in Just(x).merge(with: x) }",
         "3:42: merge(with:) needs a publisher here, not a value of type 'Int'"),
        ("hot a -1-|", "a.flatMap { x in Publishers.MergeMany([x, 2]) }",
         "3:49: Publishers.MergeMany(_:) needs publishers here, not an array of 'Int'"),
        ("hot a -1-|", "a.flatMap { x in Record(output: x) }",
         "3:35: Record(output:) needs an array of values, not a value of type 'Int'"),
        ("hot a -1-|", "a.flatMap { x in Just(x).delay(for: .milliseconds(\"x\"), scheduler: RunLoop.main) }",
         "3:48: .milliseconds(_:) takes a number, not 'String'"),
        ("hot a -1-|", "a.flatMap { x in Just(x).flatMap(maxPublishers: .max(\"x\")) { Just($0) } }",
         "3:60: .max(_:) takes a non-negative Int"),
        ("hot a -1-|", "a.flatMap { x in Just(x).mapp(by: 1) }",
         "3:36: unknown operator 'mapp' | did you mean 'map(_:)'?"),
        ("hot a -1-|", "a.flatMap { x in Just(x).map(by: { $0 }) }",
         "3:36: no version of 'map' takes the arguments map(by:) | did you mean 'map(_:)'?"),
        ("hot a -1-|", "a.map { [1, 2].map(3) }",
         "3:26: map needs a closure"),
        ("hot a -1-|", "a.map { [RunLoop.main] }",
         "3:28: expected a value for an array element, found a scheduler"),
        ("hot a -1-|", "a.map { .max(1).x }",
         "3:27: a demand has no member 'x'"),
        ("hot a -1-|", "a.flatMap { x in x }",
         "3:28: instance method 'flatMap(maxPublishers:_:)' requires that 'Int' conform to 'Publisher'"),
        ("hot a -1-|", "a.flatMap { _ in Deferred { 1 } }",
         "3:39: generic struct 'Deferred' requires that 'Int' conform to 'Publisher'"),
        ("hot a -1-|", "a.flatMap { _ in Deferred(createPublisher: \\.count) }",
         "3:37: Deferred(createPublisher:) needs a closure here, not a key path"),
    ])
    func lessCommonMistakesAreFoundBeforeAnythingRuns(_ source: String, _ expression: String, _ expected: String) {
        #expect(diagnostics("  \(source)\n  let n = \(expression)\n  expect n ---|") == [expected])
    }

    @Test func theIssuesTypoInAClosureIsAnErrorThoughNoValueReachesIt() {
        let report = runMarble("""
        test "typo in a closure"
          hot    a  ---|
          let    n = a.map { $0.lenght }
          expect n  ---|
        """)
        #expect(report.tests.map(\.checks.isEmpty) == [true], "the test does not run")
        #expect(report.allDiagnostics.count == 1)
        let diagnostic = report.allDiagnostics.first
        #expect(diagnostic?.message == "value of type 'String' has no member 'lenght'")
        #expect(diagnostic?.hint == "did you mean 'count'?")
        #expect(diagnostic?.line == 3)
        #expect(diagnostic?.column == 25)
        #expect(diagnostic?.length == 6)
    }

    @Test func typesFlowFromValuesTablesLiteralsSubjectsAndConstants() {
        #expect(diagnostics("  values A = (\"a\", 1)\n  hot a -A-|\n  let n = a.map { $0.0 * 2 }\n  expect n ---|")
            == ["4:24: binary operator '*' cannot be applied to operands of type 'String' and 'Int'"])
        #expect(diagnostics("  hot a -{[1, 2]}-|\n  let n = a.map { $0.uppercased() }\n  expect n ---|")
            == ["3:22: value of type '[Int]' has no member 'uppercased'"])
        #expect(diagnostics("  subject s = PassthroughSubject()\n  send s -a-|\n  let n = s.map { $0 * 2 }\n  expect n ---|")
            == ["4:22: binary operator '*' cannot be applied to operands of type 'String' and 'Int'"])
        #expect(diagnostics("  subject s = CurrentValueSubject(1)\n  let n = s.map { $0.count }\n  expect n ---|")
            == ["3:22: value of type 'Int' has no member 'count'"])
        #expect(diagnostics("  hot a -1-|\n  let k = \"x\"\n  let n = a.map { $0 * k }\n  expect n ---|")
            == ["4:22: binary operator '*' cannot be applied to operands of type 'Int' and 'String'"])
        #expect(diagnostics("  hot a -#{42}-\n  let n = a.catch { Just($0.uppercased()) }\n  expect n ---|")
            == ["3:29: value of type 'Int' has no member 'uppercased'"])
    }

    @Test func typesFlowThroughOperators() {
        let cases: [(String, String)] = [
            ("a.collect().map { $0.uppercased() }", "value of type '[Int]' has no member 'uppercased'"),
            ("a.measureInterval(using: RunLoop.main).map { $0.count }", "value of type 'Int' has no member 'count'"),
            ("a.map { \"\\($0)\" }.map { $0 * 2 }", "binary operator '*' cannot be applied to operands of type 'String' and 'Int'"),
            ("a.scan(0) { $0 + $1 }.map { $0.count }", "value of type 'Int' has no member 'count'"),
            ("a.zip(b).map { $0 + $1 }", "binary operator '+' cannot be applied to operands of type 'Int' and 'String'"),
            ("a.combineLatest(b) { x, y in y }.map { $0 * 2 }", "binary operator '*' cannot be applied to operands of type 'String' and 'Int'"),
            ("a.flatMap { _ in b }.map { $0 * 2 }", "binary operator '*' cannot be applied to operands of type 'String' and 'Int'"),
            ("a.map { _ in b }.switchToLatest().map { $0 * 2 }", "binary operator '*' cannot be applied to operands of type 'String' and 'Int'"),
            ("a.count().map { $0.isEmpty }", "value of type 'Int' has no member 'isEmpty'"),
            ("a.contains(1).map { $0 + 1 }", "binary operator '+' cannot be applied to operands of type 'Bool' and 'Int'"),
            ("Timer.publish(every: 1, on: RunLoop.main, in: .common).autoconnect().map { $0.count }", "value of type 'Int' has no member 'count'"),
            ("Future { promise in promise(.success(\"x\")) }.map { $0 * 2 }", "binary operator '*' cannot be applied to operands of type 'String' and 'Int'"),
            ("a.compactMap { Int(\"\\($0)\") }.map { $0.count }", "value of type 'Int' has no member 'count'"),
            ("Record(output: [\"a\"], completion: .finished).map { $0 * 2 }", "binary operator '*' cannot be applied to operands of type 'String' and 'Int'"),
        ]
        for (expression, message) in cases {
            let found = diagnostics("  hot a -1-|\n  hot b -a-|\n  let n = \(expression)\n  expect n ---|").map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? $0 }
            #expect(found == [message], "\(expression)")
        }
    }

    @Test(arguments: [
        // A line mixing kinds is Any: everything is accepted and left to run time.
        "hot a -a-1-|\n  let n = a.map { $0 + 1 }",
        // A number literal takes the other operand's type, as in Swift.
        "hot a -{1.5}-|\n  let n = a.map { $0 * 2 }",
        // Optionals: a nil is a runtime error only the data can cause.
        "hot a -{\"4\"}-|\n  let n = a.map { Int($0) + 1 }",
        "hot a -{\"4\"}-|\n  let n = a.map { (Int($0) ?? 0) + 1 }",
        "hot a -a-|\n  let n = a.map { Int($0) == nil }",
        "hot a -a-{nil}-|\n  let n = a.replaceNil(with: \"z\")",
        // A line with no values takes its type from its uses.
        "hot a ---|\n  let n = a.map { $0 * 2 }.filter { $0 > 3 }",
        "hot a ---|\n  let n = a.map { $0.uppercased() }",
        "cold a -|\n  let n = a.filter { $0 }",
        // Closures, statements and expressions the language has.
        "hot a -1-|\n  let n = a.map { x in\n    let y = x * 2\n    return \"\\(y)\"\n  }",
        "hot a -1-|\n  let n = a.map { if $0 > 0 { \"pos\" } else { \"neg\" } }",
        "hot a -1-|\n  let n = a.map { [$0, 2].map { $0 * 2 }.filter { $0 > 2 }.reduce(0) { $0 + $1 } }",
        "hot a -1-|\n  let n = a.map { [\"b\", \"a\"].sorted().joined(separator: \",\") }",
        "hot a -1-|\n  let n = a.map { max(min($0, 3), abs(-2)) }",
        "hot a -1-|\n  let n = a.tryMap { x -> Int in if x > 5 { throw \"big\" }; return x }",
        "hot a -1-0-|\n  let n = a.flatMap { x in x == 0 ? Fail(error: \"zero\") : Just(x) }",
        "hot a -a-|\n  let n = a.map(\\.count)",
        "values A = (\"a\", 1)\n  hot a -A-|\n  let n = a.max(by: { $0.0 < $1.0 })",
        "hot a -1-|\n  hot b -a-|\n  let n = a.zip(b).map { x, y in \"\\(x)\\(y)\" }",
        "hot a -1-|\n  hot b -a-|\n  let n = a.merge(with: b).map { \"\\($0)\" }",
        "hot a -#{\"boom\"}\n  let n = a.catch { Just($0.uppercased()) }",
        "subject s = PassthroughSubject<Int, Never>()\n  send s -1-|\n  let n = s.map { $0 + 1 }",
        "hot a -1-|\n  let k = 3\n  let n = a.map { $0 * k }",
        "hot a -1-|\n  let n = a.flatMap { n in [n, n * 10].publisher }",
        "hot a -1-|\n  let n = a.handleEvents(receiveOutput: { print(\"value \\($0)\") }, receiveCompletion: { print(\"c \\($0)\") })",
        "hot a -1-|\n  let n = a.map { _ in later }\n  hot later -a-|",
    ])
    func validCodeIsNeverRejected(_ lines: String) {
        #expect(diagnostics("  " + lines + "\n  expect n -") == [])
    }

    @Test func whatOnlyDataCanCauseStaysARuntimeError() {
        // A stream of mixed kinds: the type check cannot know, the run reports it at its frame.
        let mixed = runMarble("test \"t\"\n  hot a -1-a-|\n  let n = a.map { $0 + 1 }\n  expect n -2-|")
        #expect(mixed.allDiagnostics.isEmpty)
        #expect(mixed.tests.first?.error?.message == "binary operator '+' cannot be applied to operands of type String and Int (\"a\" + 1)")
        #expect(mixed.tests.first?.error?.frame == 3)
        let division = runMarble("test \"t\"\n  hot a -0-|\n  let n = a.map { 1 / $0 }\n  expect n -|")
        #expect(division.allDiagnostics.isEmpty)
        #expect(division.tests.first?.error?.message == "division by zero in 1 / 0")
        // A nil where a number is needed fails only for the values that are not numbers.
        let parsed = runMarble("test \"t\"\n  hot a -{\"4\"}-{\"x\"}-|\n  let n = a.map { Int($0) + 1 }\n  expect n -5-|")
        #expect(parsed.allDiagnostics.isEmpty)
        #expect(parsed.tests.first?.error?.message == "binary operator '+' cannot be applied to operands of type Optional and Int (nil + 1)")
    }

    @Test func everyCatalogueEntryHasATypingRule() {
        let selectors = Catalogue.entries.map(\.signature.selector)
        #expect(Set(selectors).count == selectors.count, "two entries share a selector, so a typing rule cannot tell them apart")
        #expect(selectors.filter { OperatorTypes.rules[$0] == nil } == [])
        #expect(Set(OperatorTypes.rules.keys).subtracting(selectors).sorted() == [], "typing rules for no entry")
    }

    @Test func everyCatalogueGuideAndExampleFileTypeChecks() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var checked = 0
        for folder in ["marbles/operators", "marbles/guides", "marbles/examples"] {
            let url = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasSuffix(".marble") {
                let report = MarbleRunner.run(path: url.appendingPathComponent(name).path)
                #expect(report.allDiagnostics.map { "\($0.line):\($0.column): \($0.message)" } == [String](), "\(folder)/\(name)")
                checked += 1
            }
        }
        #expect(checked > 70)
    }

    /// A closure handed to itself (`g(g)`) would recurse without end at run time; the checker
    /// checks it once and stops. (Checked without running: the run would not end.)
    @Test func aClosureCallingItselfIsCheckedOnce() {
        let (file, errors) = MarbleFileParser.parse("""
        test "t"
          let n = Just(1).map { x in
            let g = { h in h(h) }
            return g(g)
          }
        """)
        #expect(errors.isEmpty)
        #expect(TypeChecker().check(file.tests.first?.statements ?? []).map(\.message) == [])
    }
}

/// The checker's scopes, as the interpreter's: a closure kept in the scope it captures does not
/// keep that scope alive (`let g = { h in h(h) }` in a body).
@Suite struct TypeScopeLifetimeTests {
    @Test func aClosureDefinedInTheScopeItCapturesLetsTheScopeGo() {
        weak var released: TypeEnvironment?
        do {
            let scope = TypeEnvironment(parent: TypeEnvironment())
            let reference = ClosureReference(syntax: Closure(parameters: ["h"], body: []), environment: scope,
                                             location: SourceLocation(line: 3, column: 13), usesSecondAnonymousArgument: false)
            scope["g"] = .closure(reference)
            scope.declareVariable("v", .closure(reference))
            scope.update("v", .closure(reference))
            for name in ["g", "v"] {
                guard case .closure(let read) = readThroughChild(scope, name) else {
                    Issue.record("\(name) is not a closure")
                    return
                }
                #expect(read.environment === scope)
                #expect(read.location == SourceLocation(line: 3, column: 13))
                #expect(read.syntax.parameters == ["h"])
            }
            released = scope
        }
        #expect(released == nil)
    }

    /// Read through a child scope, as the body of a call does.
    private func readThroughChild(_ scope: TypeEnvironment, _ name: String) -> Checked? { TypeEnvironment(parent: scope)[name] }
}

