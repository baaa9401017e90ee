import Testing
@testable import MarbleSpec

/// The statements and expressions app closures use (issue 12, part 3): what they give, the
/// mistakes refused before anything runs (message, line, column, hint), and the runtime errors
/// only data can cause (a nil behind `!`, an index out of range), reported with their place.
@Suite struct AppStatementTests {
    // MARK: What they give

    @Test(arguments: [
        // if let / guard let / if case, with later conditions seeing earlier bindings.
        ("-a-b-|", #"{ s -> Int in if let n = Int(s), n > 1 { return n } else { return 0 } }"#, "-x-y-|", #"a = "5", b = "z", x = 5, y = 0"#),
        ("-a-b-|", #"{ s -> Int in guard let n = Int(s) else { return -1 }; return n * 2 }"#, "-x-y-|", #"a = "5", b = "z", x = 10, y = -1"#),
        ("-a-b-|", "{ v -> String in if case .some(let n) = v { return \"\\(n)\" }; return \"nil\" }", "-x-y-|", #"a = 3, b = nil, x = "3", y = "nil""#),
        ("-a-b-|", "{ v in if let v { v + 1 } else { 0 } }", "-x-y-|", "a = 3, b = nil, x = 4, y = 0"),
        // switch: literals, ranges, where, several patterns, tuples, bindings, optionals.
        ("-1-2-5-9-|", #"{ switch $0 { case 1, 2: "low"; case 3..<6 where $0 != 4: "mid"; default: "high" } }"#, "-l-l-m-h-|", #"l = "low", m = "mid", h = "high""#),
        ("-a-b-c-|", #"{ switch $0 { case (0, let y): "y\(y)"; case (let x, 0): "x\(x)"; case let (x, y): "\(x + y)" } }"#, "-x-y-z-|", #"a = (0, 7), b = (4, 0), c = (1, 2), x = "y7", y = "x4", z = "3""#),
        ("-a-b-|", #"{ switch $0 { case Int.min..<0: "negative"; default: "not" } }"#, "-x-y-|", #"a = -2, b = 3, x = "negative", y = "not""#),
        // One-sided ranges: up to, through, from.
        ("-a-b-c-d-|", #"{ switch $0 { case ..<0: "neg"; case ...9: "small"; case 10..<50: "mid"; case 50...: "big"; default: "?" } }"#, "-w-x-y-z-|",
         #"a = -3, b = 9, c = 10, d = 50, w = "neg", x = "small", y = "mid", z = "big""#),
        ("-a-b-|", #"{ switch $0 { case let n?: n; case nil: -1 } }"#, "-x-y-|", "a = 2, b = nil, x = 2, y = -1"),
        ("-a-b-|", #"{ switch $0 { case .some(let n): n; case .none: -1 } }"#, "-x-y-|", "a = 2, b = nil, x = 2, y = -1"),
        ("-a-b-|", #"{ switch $0 { case "+": 1; case "-": -1; default: 0 } }"#, "-x-y-|", #"a = "+", b = "?", x = 1, y = 0"#),
        // Result: built, switched over, get().
        ("-1-2-|", #"{ n -> String in let r: Result<Int, Error> = n > 1 ? .success(n) : .failure("small"); switch r { case .success(let v): return "ok \(v)"; case .failure(let e): return "\(e)" } }"#, "-x-y-|", #"x = "small", y = "ok 2""#),
        ("-1-|", #"{ switch Result<Int, Error>.success($0 * 3) { case .success(let v): v; case .failure: 0 } }"#, "-x-|", "x = 3"),
        // Dictionaries: literals, subscripts (nil when missing), default:, [K: V](), keys, count.
        ("-a-b-|", #"{ ["a": 1, "b": 2][$0]! * 10 }"#, "-x-y-|", #"a = "a", b = "b", x = 10, y = 20"#),
        ("-a-b-|", #"{ ["a": 1][$0] ?? 0 }"#, "-x-y-|", #"a = "a", b = "z", x = 1, y = 0"#),
        ("-a-|", #"{ _ in var d = [String: Int](); d["k"] = 2; d["k", default: 0] += 5; d["j", default: 1] *= 3; return d.count * 100 + d["k"]! * 10 + d["j"]! }"#, "-x-|", "x = 273"),
        ("-a-|", #"{ _ in var d = ["x": 1, "y": 2]; d["x"] = nil; return d.keys }"#, "-x-|", #"x = ["y"]"#),
        // Arrays: subscripts, assignment through one, first(where:), compactMap, prefix.
        ("-a-|", "{ xs -> Int in var ys = xs; ys[1] = 10; return ys[0] + ys[1] }", "-x-|", "a = [1, 2], x = 11"),
        ("-a-|", "{ $0.first(where: { $0 > 1 }) ?? 0 }", "-x-|", "a = [1, 2, 3], x = 2"),
        ("-a-|", "{ $0.compactMap { Int($0) } }", "-x-|", #"a = ["1", "z", "3"], x = [1, 3]"#),
        ("-a-|", "{ $0.contains { $0 == 2 } && $0.first == 1 }", "-x-|", "a = [1, 2], x = true"),
        // Optional chaining and !.
        ("-a-b-|", #"{ $0.first?.uppercased() ?? "-" }"#, "-x-y-|", #"a = ["q"], b = [], x = "Q", y = "-""#),
        ("-a-|", "{ Int($0)! + 1 }", "-x-|", #"a = "41", x = 42"#),
        // .init references.
        ("-1-|", "(String.init)", "-x-|", #"x = "1""#),
        ("-a-|", "(Int.init)", "-x-|", #"a = "7", x = 7"#),
        ("-a-|", "{ Double.init($0) }", "-x-|", "a = 2, x = 2.0"),
        // Foundation string helpers.
        ("-a-|", "{ $0.trimmingCharacters(in: .whitespaces) }", "-x-|", #"a = "  hi ", x = "hi""#),
        ("-a-|", #"{ $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } }"#, "-x-|", #"a = "a, b,,c", x = ["a", "b", "c"]"#),
        ("-a-|", #"{ $0.components(separatedBy: ",") }"#, "-x-|", #"a = "a,,b", x = ["a", "", "b"]"#),
        ("-a-|", #"{ $0.replacingOccurrences(of: "-", with: "+").capitalized }"#, "-x-|", #"a = "a-b", x = "A+B""#),
        ("-a-|", #"{ $0.lowercased().hasPrefix("ab") && $0.starts(with: "A") }"#, "-x-|", #"a = "ABC", x = true"#),
        ("-a-|", #"{ $0.prefix(2) + $0.dropFirst(3) + $0.suffix(1) }"#, "-x-|", #"a = "abcde", x = "abdee""#),
        ("-1-|", #"{ String(format: "%.2f|%03d|%@|%x|%%|%-3@|", Double($0) / 3, $0, "s", 255, "ab") }"#, "-x-|", #"x = "0.33|001|s|ff|%|ab |""#),
        // A precision does not widen a padded description (`%5.1@` was read as width 51).
        ("-1-|", #"{ String(format: "[%5.1@][%-4.2@]", "ab", "c") }"#, "-x-|", #"x = "[   ab][c   ]""#),
        ("-1-|", #"{ String(repeating: "ab", count: $0 + 1) }"#, "-x-|", #"x = "abab""#),
    ])
    func gives(_ input: String, _ body: String, _ output: String, _ values: String) {
        #expect(mapping(input, body, output, values: values) == [])
    }

    /// A `var` declared in an operator's closure starts afresh at every value, as in Swift.
    @Test func aVarInAnOperatorsClosureIsPerCall() {
        #expect(mapping("-a-a-a-|", "{ _ -> Int in var n = 0; n += 1; return n }", "-1-1-1-|") == [])
    }

    /// A `var` of a closure that runs once per subscription, captured by the closure it builds,
    /// is state of that subscription: each subscriber counts from 1.
    @Test func aCapturedVarIsStateOfItsSubscription() {
        let lines = """
              cold a -x-x-|
              let counted = Deferred { () -> AnyPublisher<Int, Never> in
                  var seen = 0
                  return a.map { _ -> Int in seen += 1; return seen }.eraseToAnyPublisher()
              }
              let twice = counted.merge(with: counted.delay(for: .milliseconds(1), scheduler: scheduler))
              expect twice -1122-|
            """
        #expect(problems(lines) == [])
    }

    /// `guard`'s bindings are seen by the statements after it; a `switch` is an expression.
    @Test func guardBindsForTheRestOfTheBody() {
        let body = """
            { s -> String in
                  guard let n = Int(s), n >= 0 else { return "bad" }
                  let size = switch n { case 0: "zero"; case 1...9: "small"; default: "big" }
                  return "\\(size) \\(n)"
              }
            """
        #expect(mapping("-a-b-c-|", body, "-x-y-z-|", values: #"a = "-1", b = "3", c = "12", x = "bad", y = "small 3", z = "big 12""#) == [])
    }

    // MARK: Mistakes refused before anything runs

    @Test(arguments: [
        // ! and ?. on what is never nil; if let on a non-optional.
        ("-1-|", "{ $0! }", "3:21: cannot force unwrap value of non-optional type 'Int' | remove the '!': the value is never nil"),
        ("-a-|", "{ $0?.count }", "3:21: cannot use optional chaining on non-optional value of type 'String' | remove the '?': the value is never nil"),
        ("-1-|", "{ if let n = $0 { n } else { 0 } }", "3:30: initializer for conditional binding must have Optional type, not 'Int' | the value is never nil: write 'let n = …' as a statement, or test a condition"),
        // Assignments.
        ("-1-|", "{ x -> Int in let y = 1; y = 2; return y }", "3:42: cannot assign to value: 'y' is a 'let' constant | a 'let', a closure's parameter or a loop's variable cannot change: copy it into a 'var' (var next = y) and change the copy"),
        ("-1-|", "{ x -> Int in x += 1; return x }", "3:31: cannot assign to value: 'x' is a 'let' constant | a 'let', a closure's parameter or a loop's variable cannot change: copy it into a 'var' (var next = x) and change the copy"),
        ("-1-|", #"{ _ -> Int in var n = 0; n = "one"; return n }"#, "3:46: cannot assign value of type 'String' to type 'Int'"),
        ("-1-|", #"{ _ -> Int in var d = ["a": 1]; d["a"] += 1; return 0 }"#, "3:56: value of optional type 'Int?' must be unwrapped to a value of type 'Int' | give the dictionary a default: d[key, default: 0] += …"),
        // switch.
        ("-1-|", #"{ switch $0 { case 1: "one" } }"#, "3:19: switch must be exhaustive | add a 'default:' case, or cases for every value of 'Int'"),
        ("-a-|", #"{ switch $0 { case 1: "one"; default: "many" } }"#, "3:36: expression pattern of type 'Int' cannot match values of type 'String'"),
        ("-1-|", #"{ switch $0 { case (let x, _): x; default: 0 } }"#, "3:36: tuple pattern cannot match values of the non-tuple type 'Int'"),
        ("-a-|", #"{ switch $0 { case (let x, _, _): x; default: 0 } }"#, "4:36: tuple pattern has the wrong length for tuple type '(Int, Int)'"),
        ("-1-|", #"{ switch Result<Int, Error>.success($0) { case .sucess(let v): v; default: 0 } }"#, "3:65: type 'Result<Int, Error>' has no member 'sucess' | did you mean '.success'?"),
        ("-a-|", #"{ switch $0 { case let n?: n; default: 0 } }"#, "3:40: '?' pattern cannot match values of type 'String' | the value is never nil: drop the '?'"),
        // Subscripts, dictionaries, Result and the string helpers.
        ("-a-|", "{ $0[0] }", "3:21: cannot subscript a String with an Int | use Array(text)[i] for a character by position, or prefix(_:), dropFirst(_:), first, last"),
        ("-1-|", "{ $0[0] }", "3:21: value of type 'Int' has no subscripts"),
        ("-a-|", #"{ [1, 2]["x"] }"#, "3:26: cannot convert value of type 'String' to expected argument type 'Int'"),
        ("-a-|", #"{ ["a": 1][2] }"#, "3:28: cannot convert value of type 'Int' to expected argument type 'String'"),
        ("-1-|", "{ Result<Int, Error>.succeed($0) }", "3:38: type 'Result' has no member 'succeed' | did you mean 'success'?"),
        ("-1-|", "{ Result<Int, Error>.success($0).value }", "3:50: value of type 'Result<Int, Error>' has no member 'value' | switch over it (case .success(let value)) or call get()"),
        ("-1-|", "{ Result<Int, Error>.success($0).get() }", "3:50: the closure of map can throw, but map cannot throw | use tryMap to turn a throw into a failure"),
        ("-a-|", "{ $0.trimmingCharacters(in: .spaces) }", "3:41: '.spaces' is not a CharacterSet this interpreter knows | use one of .decimalDigits, .letters, .newlines, .punctuationCharacters, .whitespaces, .whitespacesAndNewlines"),
        ("-a-|", "{ $0.split(by: \",\") }", "3:28: incorrect argument label in call (have 'by:', expected 'separator:') | write split(separator:)"),
        ("-a-|", "{ $0.components(separatedBy: 1) }", "3:33: cannot convert value of type 'Int' to expected argument type 'String'"),
        ("-a-|", "{ $0.trim() }", "3:22: value of type 'String' has no member 'trim' | did you mean 'trimmingCharacters'?"),
        ("-1-|", #"{ String(format: 1, $0) }"#, "3:26: cannot convert value of type 'Int' to expected argument type 'String'"),
    ])
    func refuses(_ input: String, _ body: String, _ expected: String) {
        let values = input == "-a-|" && body.contains("(let x, _, _)") ? "a = (1, 2)" : ""
        let lines = "  hot a \(input)\n" + (values.isEmpty ? "" : "  values \(values)\n") + "  let b = a.map \(body)\n  expect b -|"
        #expect(problems(lines).first == expected)
    }

    /// Mistakes the parser finds: Swift's words where Swift has them.
    @Test(arguments: [
        ("{ x -> Int in guard x > 0 else { 0 }; return x }", "3:31: 'guard' body must not fall through, consider using a 'return' or 'throw' to exit the scope"),
        ("{ switch $0 { case 1: default: 0 } }", "3:37: 'case' label in a 'switch' must have at least one executable statement | write 'break' for a case that does nothing"),
        ("{ switch $0 { case 1: fallthrough; default: 0 } }", "3:39: 'fallthrough' is not supported in marble expressions | list both patterns in one case: case 1, 2:"),
        ("{ switch $0 { 1 } }", "3:31: all statements inside a switch must be covered by a 'case' or 'default'"),
        ("{ switch $0 { } }", "3:19: 'switch' statement body must have at least one 'case' or 'default' block"),
        ("{ switch $0 { case let (let x, y): 0; default: 1 } }", "3:41: 'let' cannot appear nested inside another 'var' or 'let' pattern"),
        ("{ _ -> Int in var n; return 0 }", "3:36: 'var n' needs a starting value | write 'var n = 0' (the marble language infers its type)"),
        ("{ $0 + 1 = 2 }", "3:26: cannot assign to this expression | assign to a 'var' (n = 1), a property of one (next.count = 1) or an element of one (counts[key] = 1)"),
        ("{ [1: 2, 3] }", "3:27: expected ':' after the key in a dictionary literal"),
        ("{ $0[1, 2] }", "3:23: a subscript takes one index (and a dictionary's 'default:')"),
        ("{ if case 1 $0 { 1 } else { 2 } }", "3:29: expected '=' and the value to match after the pattern of 'if case'"),
    ])
    func parserRefuses(_ body: String, _ expected: String) {
        let found = problems("  hot a -1-|\n  let b = a.map \(body)\n  expect b -|")
        #expect(found.first == expected)
    }

    /// Patterns over the file's own enums: cases with and without associated values, `where`,
    /// several associated values bound as a tuple; a case the enum lacks and a missing case are errors.
    @Test func patternsOverTheFilesEnums() {
        let declaration = "enum Load { case idle, loaded([Int]), failed(code: Int, reason: String) }\n"
        let body = """
              hot a -a-b-c-d-|
              values a = Load.idle, b = Load.loaded([]), c = Load.loaded([4, 5]), d = Load.failed(code: 7, reason: "x")
              let b = a.map { state -> String in
                  switch state {
                  case .idle: return "idle"
                  case .loaded(let items) where items.isEmpty: return "empty"
                  case .loaded(let items): return "\\(items.count)"
                  case let .failed(code, reason): return "\\(reason)\\(code)"
                  }
              }
              expect b -i-e-n-f-|
              values i = "idle", e = "empty", n = "2", f = "x7"
            """
        let report = runMarble(declaration + "test \"t\"\n" + body)
        #expect(report.allDiagnostics.isEmpty)
        #expect(report.tests.allSatisfy { $0.error == nil && $0.checks.allSatisfy(\.passed) })

        let mistakes = runMarble(declaration + "test \"t\"\n  hot a -x-|\n  values x = Load.idle\n  let b = a.map { s -> Int in switch s { case .idle: 0; case .lodaed: 1 } }\n  expect b -|")
        #expect(mistakes.allDiagnostics.map { "\($0.line):\($0.column): \($0.message)" + ($0.hint.map { " | " + $0 } ?? "") } == [
            "5:31: switch must be exhaustive | add a 'default:' case, or cases for every value of 'Load'",
            "5:63: type 'Load' has no member 'lodaed' | did you mean '.loaded'?",
        ])
    }

    // MARK: Runtime errors only data can cause

    @Test(arguments: [
        ("-a-|", "{ Int($0)! }", #"a = "x""#, "4:26: unexpectedly found nil while unwrapping an Optional value | use 'if let', 'guard let' or '??' where the value can be nil"),
        ("-a-|", "{ $0[2] }", "a = [1, 2]", "4:21: index out of range: 2 in an array of 2 elements"),
        ("-a-|", "{ xs -> [Int] in var ys = xs; ys[-1] = 0; return ys }", "a = [1]", "4:49: index out of range: -1 in an array of 1 element"),
        ("-a-|", #"{ ["k": 1][$0]! }"#, #"a = "j""#, "4:31: unexpectedly found nil while unwrapping an Optional value | use 'if let', 'guard let' or '??' where the value can be nil"),
        ("-a-|", #"{ String(format: "%d", $0) }"#, #"a = "x""#, "4:40: '%d' in String(format:) needs an Int, not String (\"x\")"),
        ("-1-|", #"{ String(format: "%d %d", $0) }"#, "", "3:26: String(format:) has more conversions than arguments: nothing for '%d'"),
        // Issue 29: Foundation built any width (2000000000: 2 GB and 21 s) and trapped past Int32.
        ("-1-|", #"{ String(format: "%2000000000d", $0) }"#, "",
         "3:26: value too large: '%2000000000d' in String(format:) asks for more than 1000000 characters (the limit) | a width or a precision takes a few digits: %8d, %.2f"),
        ("-1-|", #"{ String(format: "%.99999999999f", 1.5) }"#, "",
         "3:26: value too large: '%.99999999999f' in String(format:) asks for more than 1000000 characters (the limit) | a width or a precision takes a few digits: %8d, %.2f"),
        ("-1-|", #"{ String(format: "%-99999999999999999999999@", "x") }"#, "",
         "3:26: value too large: '%-99999999999999999999999@' in String(format:) asks for more than 1000000 characters (the limit) | a width or a precision takes a few digits: %8d, %.2f"),
    ])
    func reportsAtRunTime(_ input: String, _ body: String, _ values: String, _ expected: String) {
        let lines = "  hot a \(input)\n" + (values.isEmpty ? "" : "  values \(values)\n") + "  let b = a.map \(body)\n  expect b -|"
        #expect(problems(lines).first == expected)
    }

    /// Over values the checker cannot know (a line of digits and letters is `Any`), a switch
    /// that matches none of them is reported where it is, at the frame.
    @Test func aSwitchMatchingNothingIsReported() {
        let report = runMarble("test \"t\"\n  hot a -1-x-|\n  let b = a.map { switch $0 { case 1: 10; case 2: 20 } }\n  expect b -10-|")
        #expect(report.allDiagnostics.isEmpty)
        let error = report.tests.first?.error
        #expect(error.map { "\($0.line):\($0.column): \($0.message) | \($0.hint ?? "")" } == "3:19: no case of the switch matches \"x\" | add a 'default:' case")
        #expect(error?.frame == 3)
    }
}
