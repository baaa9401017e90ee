import Foundation
import Testing

/// Inputs that used to end in a signal, a trap or a run without end (issue 17), run through the
/// built `marbles` binary: each now stops at a documented limit, with `path:line:column: error:`
/// and the limit named, and exit 2. Every input is sized well past its limit, so a regression
/// shows as a crash (a signal, not exit 2) or a test that does not finish.
@Suite("limits: no input crashes, hangs or exhausts the machine")
struct LimitTests {
    /// Writes `text` as `name` in a fresh sandbox and runs `marbles ARGUMENTS… PATH`.
    static func run(_ text: String, name: String = "limit.marble", _ arguments: [String] = ["run"]) throws -> (EndToEndTests.Result, String) {
        let sandbox = try Sandbox([name: text])
        let path = sandbox.path(name)
        return (try EndToEndTests.run(arguments + [path]), path)
    }

    static func test(_ lines: String...) -> String { test(lines) }

    static func test(_ lines: [String]) -> String {
        "test \"t\"\n" + lines.map { "  " + $0 + "\n" }.joined()
    }

    /// Issue 29, item 15: generic arguments nest no deeper than an expression's brackets (32
    /// levels), so that the lexer's scan and every later reading of the type stay linear (10,000
    /// levels in a 20 KB file took 19 s, quadratic). The `<` is the first level.
    @Test func genericArgumentsNested10000LevelsAreTooDeep() throws {
        let (result, path) = try Self.run(Self.test("let j = Just<" + String(repeating: "[", count: 10_000) + "Int" + String(repeating: "]", count: 10_000) + ">([])", "expect j ({[]}|)"))
        #expect(result.code == 2)
        // `  let j = Just` is 14 columns: the `<` is at 15, the 32nd `[` (the 33rd level) at 47.
        #expect(result.stdout.contains("\(path):2:47: error: type is nested too deeply (more than 32 levels of brackets and generic arguments)\n"))
        #expect(result.stdout.contains("  hint: name an inner part: declare a struct for it\n"))
        let (fine, _) = try Self.run(Self.test("let j = Just<" + String(repeating: "[", count: 31) + "Int" + String(repeating: "]", count: 31) + ">([])", "expect j ({[]}|)"))
        #expect(fine.code == 0, "\(fine.stdout)")
    }

    /// The same limit for a cast's type and a declaration's.
    @Test func aCastAndAPropertyTypeNestTheirBracketsAtMost32Levels() throws {
        let deep = String(repeating: "[", count: 33) + "Int" + String(repeating: "]", count: 33)
        let (cast, castPath) = try Self.run(Self.test("hot a -1-|", "let b = a.map { $0 as? " + deep + " }", "expect b -{nil}-|"))
        #expect(cast.code == 2)
        #expect(cast.stdout.contains("\(castPath):3:\("  let b = a.map { $0 as? ".count + 33): error: type is nested too deeply (more than 32 levels of brackets and generic arguments)\n"))
        let (field, fieldPath) = try Self.run("struct S { let v: " + deep + " }\n" + Self.test("hot a -1-|", "expect a -1-|"))
        #expect(field.code == 2)
        #expect(field.stdout.contains("\(fieldPath):1:\("struct S { let v: ".count + 33): error: type is nested too deeply (more than 32 levels of brackets and generic arguments)\n"))
    }

    /// 8,000 typealiases, each naming the one before (8.6 s, quadratic): each is resolved once.
    @Test func aChainOf8000TypealiasesIsResolvedOnce() throws {
        let aliases = ["typealias A0 = Int"] + (1..<8_000).map { "typealias A\($0) = A\($0 - 1)" }
        let (result, _) = try Self.run(aliases.joined(separator: "\n") + "\n" + Self.test("let j = Just<A7999>(1)", "expect j (1|)"))
        #expect(result.code == 0, "\(result.stdout)")
    }

    @Test func anOperatorChainOf50000TermsIsTooDeep() throws {
        let (result, path) = try Self.run(Self.test("hot a -1-|", "let b = a.map { $0" + String(repeating: " + 1", count: 50_000) + " }", "expect b -2-|"))
        #expect(result.code == 2)
        // `  let b = a.map { ` is 17 columns; the 256th '+' is the one past the limit.
        #expect(result.stdout.contains("\(path):3:\(18 + 3 + 4 * 255 + 1): error: expression is too deep: more than 256 levels of operators, calls and member accesses\n"))
        #expect(result.stdout.contains("  hint: split the chain over several 'let' lines\n"))
    }

    @Test func aMethodChainOf20000LinksIsTooDeep() throws {
        let (result, path) = try Self.run(Self.test("hot a -1-|", "let b = a" + String(repeating: ".map { $0 }", count: 20_000), "expect b -1-|"))
        #expect(result.code == 2)
        // The 128th link's call (its `{`) makes 257 levels.
        #expect(result.stdout.contains("\(path):3:\(12 + 11 * 127 + 5): error: expression is too deep: more than 256 levels"))
    }

    @Test func aMemberChainOf10000IsTooDeep() throws {
        let (result, path) = try Self.run(Self.test("hot a -1-|", "let b = a.map { $0" + String(repeating: ".description", count: 10_000) + " }", "expect b -1-|"))
        #expect(result.code == 2)
        #expect(result.stdout.contains("\(path):3:\(18 + 3 + 12 * 255): error: expression is too deep"))
    }

    @Test func tenThousandLetLinesEachMappingThePreviousAreTooDeep() throws {
        var lines = ["hot a0 -1-|"]
        for index in 0..<10_000 { lines.append("let a\(index + 1) = a\(index).map { $0 }") }
        lines.append("expect a10000 -1-|")
        let (result, path) = try Self.run("test \"t\"\n" + lines.map { "  " + $0 + "\n" }.joined())
        #expect(result.code == 2)
        // `a0.map { $0 }` is 3 levels deep: a333 is at 999, a334 passes 1000.
        #expect(result.stdout.contains("""
                \(path):336:7: error: 'a334' is too deep: its pipeline has more than 1000 levels of operators, calls and member accesses across the 'let' lines it is built on (built on 'a333')
                  let a334 = a333.map { $0 }
                      ^^^^

            """))
        #expect(!result.stdout.contains("\(path):3:7: error"), "a333 (999 levels) is fine")
    }

    @Test(arguments: [
        ("let a = Deferred { a }", "expect a -", 2, 7, "'a' subscribes to itself: a → a (at frame 0)"),
        ("let a = Fail(error: \"e\").catch { _ in a }", "expect a -", 2, 7, "'a' subscribes to itself: a → a (at frame 0)"),
        ("let a = Deferred { b }\n  let b = a.map { $0 }", "expect b -", 3, 7, "'b' subscribes to itself: b → a → b (at frame 0)"),
    ])
    func aStreamThatSubscribesToItselfStopsWithTheCycleNamed(_ definition: String, _ expectation: String, _ line: Int, _ column: Int, _ message: String) throws {
        let (result, path) = try Self.run(Self.test(definition, expectation))
        #expect(result.code == 2)
        #expect(result.stdout.contains("\(path):\(line):\(column): error: \(message)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  hint: a stream that reaches itself through its own pipeline never settles\n"))
    }

    @Test func aSubjectMulticastIntoItselfStopsAtItsFirstValue() throws {
        let (result, path) = try Self.run(Self.test("subject s = PassthroughSubject()", "let m = s.multicast(subject: s).autoconnect()", "send s -1-", "expect m -"))
        #expect(result.code == 2)
        #expect(result.stdout.contains("\(path):2:11: error: 's' receives its own output: s → s (at frame 1)\n"))
    }

    @Test func aSharedFutureFlatMappedIntoItselfStops() throws {
        let (result, path) = try Self.run(Self.test("let p = Future { promise in promise(.success(1)) }.share()", "let q = p.flatMap { _ in p }", "expect q -"))
        #expect(result.code == 2)
        #expect(result.stdout.contains("\(path):2:7: error: 'p' subscribes to itself: p → p (at frame 0)\n"))
    }

    @Test func aValueThatDoublesStopsAtTheSizeLimit() throws {
        let (result, path) = try Self.run(Self.test("hot a " + String(repeating: "x", count: 40) + "|", "let b = a.scan(\"x\") { acc, _ in acc + acc }", "expect b -"))
        #expect(result.code == 2)
        // "x" doubled 20 times is 2^20 bytes, past 1,000,000, at the 20th value (frame 19).
        #expect(result.stdout.contains("""
                \(path):3:39: error: value too large: '+' would make a string of 1048576 bytes (the limit is 1000000) (at frame 19)
                  let b = a.scan("x") { acc, _ in acc + acc }
                                                      ^

            """))
    }

    @Test func nestedSynchronousFlatMapsCountAgainstTheWorkAtOneFrame() throws {
        let inner = ".flatMap { _ in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].publisher }"
        let (result, path) = try Self.run(Self.test("let b = Just(1)" + String(repeating: inner, count: 8), "expect b -"))
        #expect(result.code == 2)
        #expect(result.stdout.contains("\(path):2:"))
        #expect(result.stdout.contains(": error: more than 100000 actions ran at frame 0: the pipeline never settles (at frame 0)\n"))
        #expect(result.stdout.contains("  hint: closures called this often at one frame (nested flatMaps over arrays, closures calling closures) cannot finish\n"))
    }

    /// Calls of closures a closure declares, and of those it gives to array methods, are work at
    /// the frame too: 16 values at one frame, each making 32,768 calls, used to run 524,288 calls
    /// (8 s in a debug build) and pass the limit silently.
    @Test func closuresCallingClosuresCountAgainstTheWorkAtOneFrame() throws {
        var body = ["let t = s.map {", "  let f0 = { (x: Int) -> Int in x + 1 }"]
        for level in 1...14 { body.append("  let f\(level) = { (x: Int) -> Int in f\(level - 1)(x) + f\(level - 1)(x) }") }
        body += ["  return f14($0)", "}"]
        let (result, path) = try Self.run(Self.test(["hot s -(" + String(repeating: "a", count: 16) + ")|", "values a = 1"] + body + ["expect t -"]))
        #expect(result.code == 2)
        #expect(result.stdout.contains(": error: more than 100000 actions ran at frame 1: the pipeline never settles (at frame 1)\n"))
        #expect(result.stdout.contains("\(path):5:14: error:"), "at the closure past the budget: f0")
        let (arrays, _) = try Self.run(Self.test("let b = Just(1).map { _ in (0..<1000).map { x in (0..<1000).map { y in x + y }.count } }", "expect b -"))
        #expect(arrays.code == 2)
        #expect(arrays.stdout.contains(": error: more than 100000 actions ran at frame 0"))
    }

    @Test func aTraceOfARunawayKeepsItsFirstEvents() throws {
        let inner = ".flatMap { _ in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].publisher }"
        let (result, _) = try Self.run(Self.test("let b = Just(1)" + String(repeating: inner, count: 8), "expect b -"), ["trace"])
        #expect(result.stdout.contains("more events were not recorded (a trace keeps 200000)"))
    }

    /// 20,000 differing frames used to print a caret line each, padded to its column (401 MB).
    @Test func aLongFailingLineShowsTheFirstDifferencesAndCountsTheRest() throws {
        let text = Self.test("hot a -|", "expect a " + String(repeating: "1", count: 20_000) + "|")
        let (result, _) = try Self.run(text)
        #expect(result.code == 1)
        #expect(result.stdout.contains("^ frame 9: expected 1, got nothing\n"))
        #expect(!result.stdout.contains("frame 10: expected"))
        #expect(result.stdout.contains("… and 19991 more differences, up to frame 20000 (--reporter json lists them all)\n"))
        // The two timelines (20,000 columns each) and a handful of short lines.
        #expect(result.stdout.utf8.count < 60_000)
        let (json, _) = try Self.run(text, ["run", "--reporter", "json"])
        #expect(json.code == 1)
        #expect(json.stdout.components(separatedBy: "expected 1, got nothing").count - 1 == 19_999)
    }

    /// `fmt --check` compared every test's statements against the whole file split into lines
    /// again, and looked up every line among all tests: quadratic in the number of tests.
    @Test func fmtCheckOnAFileOfManyTestsEnds() throws {
        let tests = (0..<3_000).map { "test \"t\($0)\"\n  hot a -1-|\n  expect a -1-|\n" }.joined(separator: "\n")
        let (result, path) = try Self.run(tests, ["fmt", "--check"])
        // The columns are not aligned as `fmt` aligns them: it says so, for the whole file.
        #expect(result.code == 1)
        #expect(result.stdout.contains("would reformat \(path) (6000 lines)\n"))
    }

    @Test func invalidUTF8IsReportedAtTheFirstBadByte() throws {
        let sandbox = try Sandbox()
        let path = sandbox.path("bad.marble")
        try Data("test \"t\"\n  hot a -1-|\n  expect a -".utf8 + [0xFF] + "-|\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try EndToEndTests.run(["run", path])
        #expect(result.code == 2)
        #expect(result.stdout.hasPrefix("""
            \(path):3:13: error: the file is not valid UTF-8 (at byte 35)
              expect a -\u{FFFD}-|
                        ^
              hint: save the file as UTF-8

            """))
    }

    @Test func aFileWithoutTestsIsReportedWhereATestWouldFollow() throws {
        let (result, path) = try Self.run("// only a comment\nframe 10ms\n")
        #expect(result.code == 2)
        #expect(result.stdout.hasPrefix("\(path):2:1: error: the file has no tests\n  frame 10ms\n  ^\n  hint: start one with `test \"name\"`\n"))
    }

    @Test func aSymbolicLinkLoopSaysSo() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("one.marble"), withDestinationPath: sandbox.path("two.marble"))
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("two.marble"), withDestinationPath: sandbox.path("one.marble"))
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("dangling.marble"), withDestinationPath: sandbox.path("nowhere.marble"))
        let result = try EndToEndTests.run(["run", sandbox.path("one.marble"), sandbox.path("dangling.marble")])
        #expect(result.code == 2)
        #expect(result.stdout.contains("\(sandbox.path("one.marble")): error: too many levels of symbolic links (a symbolic link loop)\n"))
        #expect(result.stdout.contains("\(sandbox.path("dangling.marble")): error: a symbolic link to a missing file\n"))
    }

    /// A million values through one stream stop the run (in process, with the real runner; a
    /// Timer over a long run used to take 11 GB).
    @Test func aStreamPassingMoreThanAMillionValuesStops() throws {
        let (result, path) = try Self.run(Self.test("hot a " + String(repeating: "x", count: 11) + "|",
                                                    "let b = a.flatMap { _ in (0..<100000).publisher }", "expect b -"))
        #expect(result.code == 2)
        #expect(result.stdout.contains("\(path):3:7: error: 'b' passed more than 1000000 values (at frame 10)\n"))
    }

    /// 20,000 `let` lines, none built on another, and 20,000 statements in one closure (past
    /// every depth limit): the statements of a test and of a closure are walked in loops, never
    /// a level each.
    @Test func twentyThousandLetLinesAndClosureStatementsRun() throws {
        var lines = ["hot a -1-|"]
        for index in 0..<20_000 { lines.append("let c\(index) = \(index)") }
        lines.append("let b = a.map { x in")
        lines.append("  var y = x")
        for index in 0..<20_000 { lines.append("  y = y + \(index % 2)") }
        lines.append("  return y + c19999 }")
        lines.append("values X = 30000")
        lines.append("expect b -X-|")
        let (result, _) = try Self.run("test \"t\"\n" + lines.map { "  " + $0 + "\n" }.joined())
        #expect(result.code == 0, "\(result.stdout)")
        #expect(result.stdout.contains("1 passed"))
    }

    /// An `else if` is an `if` inside the `else` above it, so the parser counts each a level of
    /// nesting: a long chain stops at the nesting limit, at the 29th `if` (its `x`, column 651),
    /// before any walk recurses past it.
    @Test func aLongElseIfChainStopsAtTheNestingLimit() throws {
        func chain(_ count: Int) -> String {
            "let b = a.map { x in " + (0..<count).map { "if x == \($0) { \($0) }" }.joined(separator: " else ") + " else { -1 } }"
        }
        let (fine, _) = try Self.run(Self.test("hot a -1-|", chain(20), "expect b -1-|"))
        #expect(fine.code == 0, "\(fine.stdout)")
        let (result, path) = try Self.run(Self.test("hot a -1-|", chain(5_000), "expect b -1-|"))
        #expect(result.code == 2)
        #expect(result.stdout.contains("\(path):3:651: error: expression is nested too deeply (more than 32 levels of brackets, closures and prefix operators)\n"))
    }

    /// `fmt` on a file of 20,000 tests, one of them a 250-link operator chain: formatted,
    /// then checked as formatted (the second run changes nothing).
    @Test func fmtFormatsAFileOfManyTestsAndALongChain() throws {
        var tests = (0..<20_000).map { "test \"t\($0)\"\n hot   a -1-|\n  expect a   -1-|\n" }
        tests[7] = "test \"chain\"\n  hot a -1-|\n  let b = a.map { $0" + String(repeating: " + 1", count: 250) + " }\n  expect b -{251}-|\n"
        let sandbox = try Sandbox(["many.marble": tests.joined(separator: "\n")])
        let path = sandbox.path("many.marble")
        let first = try EndToEndTests.run(["fmt", path])
        #expect(first.code == 0, "\(first.stdout)")
        // Every other test's `hot` line (19,999), and the chain test's three lines.
        #expect(first.stdout.contains("formatted \(path) (20002 lines)\n"))
        let formatted = try String(contentsOfFile: path, encoding: .utf8)
        #expect(formatted.contains("test \"t19999\"\n  hot    a   -1-|\n  expect a   -1-|\n"))
        let check = try EndToEndTests.run(["fmt", "--check", path])
        #expect(check.code == 0)
        #expect(try EndToEndTests.run(["run", path]).code == 0)
    }
}
