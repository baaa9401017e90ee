import Foundation
import MarbleSyntax
import Testing
import TestSupport
@testable import MarbleSpec

/// Files of many tests (issue 17): parsed test by test, run with a bounded number of prepared
/// tests, passing tests kept as summaries when asked — and every report the same as before.
@Suite struct ScaleTests {
    /// `count` small tests; test `failing` (if any) expects the wrong marbles.
    static func file(_ count: Int, failing: Int? = nil) -> String {
        (0..<count).map { index in
            "test \"t\(index)\"\n  hot a -1-2-|\n  let b = a.map { $0 * 10 }\n  values A = 10, B = 20\n  expect b " + (index == failing ? "-A--B|" : "-A-B-|") + "\n"
        }.joined(separator: "\n")
    }

    @Test func theStreamedParseHandsOverEveryTestOfTheCatalogue() throws {
        for (name, source) in try CatalogueTests.files() {
            let whole = MarbleFileParser.parse(source)
            var streamed: [(statements: Int, test: TestSyntax)] = []
            let rest = MarbleFileParser.parse(source) { fileStatements, test in streamed.append((fileStatements.count, test)) }
            #expect(rest.file.tests.isEmpty, "\(name)")
            #expect(rest.file.statements.count == whole.file.statements.count, "\(name)")
            #expect(rest.errors.map(\.message) == whole.errors.map(\.message), "\(name)")
            #expect(streamed.map(\.test.name) == whole.file.tests.map(\.name), "\(name)")
            #expect(streamed.map(\.test.statements.count) == whole.file.tests.map(\.statements.count), "\(name)")
            #expect(streamed.allSatisfy { $0.statements == whole.file.statements.count }, "\(name): the file's statements are complete at every test")
        }
    }

    @Test func aStatementAfterABadTestLineStaysInTheTestAbove() {
        let source = "test \"a\"\n  hot x -1-|\ntest nameless\n  expect x -1-|\ntest \"b\"\n  hot y -|\n  expect y -|\n"
        var streamed: [TestSyntax] = []
        let rest = MarbleFileParser.parse(source) { _, test in streamed.append(test) }
        #expect(streamed.map(\.name) == ["a", "b"])
        #expect(streamed.map(\.statements.count) == [2, 2])
        #expect(rest.errors.map(\.location.line) == [3])
    }

    /// Past the tests kept prepared, tests are parsed again for their run: the same reports.
    @Test func testsPastThePreparedOnesRunInOrderWithTheirFailures() {
        let count = MarbleRunner.preparedTestsKept + 500
        let failing = MarbleRunner.preparedTestsKept + 200
        let report = runMarble(Self.file(count, failing: failing))
        #expect(report.allDiagnostics.isEmpty)
        #expect(report.tests.map(\.name) == (0..<count).map { "t\($0)" })
        #expect(report.tests.filter { $0.outcome == .failed }.map(\.name) == ["t\(failing)"])
        #expect(problems(report) == ["b frame 3: expected nothing, got B", "b frame 4: expected B, got nothing"])
        #expect(report.tests[failing].line == 1 + failing * 6)
    }

    @Test func aSelectionPastThePreparedTestsRunsThoseOnly() {
        var options = RunOptions()
        let late = "t\(MarbleRunner.preparedTestsKept + 300)"
        options.selectedTests = ["t3", late]
        let report = MarbleRunner.run(source: Self.file(MarbleRunner.preparedTestsKept + 400), path: "t.marble", options: options)
        #expect(report.tests.map(\.name) == ["t3", late])
        #expect(report.tests.allSatisfy { $0.outcome == .passed })
    }

    @Test func aMistakeInATestPastThePreparedOnesCostsThatTest() {
        let source = Self.file(MarbleRunner.preparedTestsKept + 10) + "\ntest \"last\"\n  hot a -1-|\n  expect c -1-|\n"
        let report = runMarble(source)
        #expect(report.tests.count == MarbleRunner.preparedTestsKept + 11)
        #expect(report.tests.dropLast().allSatisfy { $0.outcome == .passed })
        #expect(report.tests.last?.diagnostics.map { "\($0.line):\($0.column)" } == ["\(6 * (MarbleRunner.preparedTestsKept + 10) + 3):10"])
        #expect(report.diagnostics.isEmpty)
    }

    /// A summary keeps what a passing test's line shows; a failing test keeps everything.
    @Test func passingTestsCanBeKeptAsSummaries() {
        let source = "test \"passes\"\n  hot a -1-|\n  let b = a.print()\n  expect b -1-|\n  hot idle -|\n\n" + "test \"fails\"\n  hot a -1-|\n  expect a -2-|\n"
        var options = RunOptions()
        let full = MarbleRunner.run(source: source, path: "t.marble", options: options)
        options.keepsPassingReports = false
        let summarised = MarbleRunner.run(source: source, path: "t.marble", options: options)
        #expect(summarised.tests.map(\.outcome) == [.passed, .failed])
        let (passing, summary) = (full.tests[0], summarised.tests[0])
        #expect(!passing.checks.isEmpty && !passing.streams.isEmpty)
        #expect(summary.checks.isEmpty && summary.streams.isEmpty)
        #expect(summary.name == passing.name && summary.line == passing.line)
        #expect(summary.warnings == passing.warnings && !summary.warnings.isEmpty)
        #expect(summary.trace == passing.trace && !summary.trace.isEmpty)
        var failing = summarised.tests[1]
        failing.seconds = full.tests[1].seconds
        #expect(failing == full.tests[1])
    }
}

/// The name check walks with a stack: no tree is too deep for it, and names come in source order.
@Suite struct NameCheckWalkTests {
    @Test func namesAreFoundInSourceOrderWithTheirScopes() throws {
        let text = """
            { x in
              guard let y = x else { return z1 }
              let q = y + z2
              if let w = q, w > z3 { w } else { w4 }
              switch y { case let v where v > z5: v + z6
              default: z7 }
              return q + y + w8
            }
            """
        let expr = try MarbleFileParser.parseExpression(text, at: SourceLocation(line: 1, column: 1))
        #expect(NameCheck(known: []).undefinedNames(in: expr).map(\.name) == ["z1", "z2", "z3", "w4", "z5", "z6", "z7", "w8"])
        #expect(NameCheck(known: ["z3", "z7"]).undefinedNames(in: expr).map(\.name) == ["z1", "z2", "w4", "z5", "z6", "w8"])
    }

    /// 100,000 levels: far past what the parser builds (256), and past any thread's stack for a
    /// recursive walk. On the runner's large stack, as releasing such a tree is recursive.
    @Test(.enabled(if: SlowTests.enabled, Comment(rawValue: SlowTests.reason))) func aTreeDeeperThanAnyStackIsWalked() {
        let count = MarbleRunner.onLargeStack { () -> [Int] in
            let at = SourceLocation(line: 1, column: 1)
            var expr = Expr(kind: .identifier("first"), location: at)
            for index in 0..<100_000 {
                let name = Expr(kind: .identifier(index % 2 == 0 ? "s" : "m\(index)"), location: at)
                expr = Expr(kind: .binary(op: "+", lhs: expr, rhs: name), location: at)
            }
            let undefined = NameCheck(known: ["s"]).undefinedNames(in: expr)
            let references = NameCheck.references(in: expr, to: ["s", "first"])
            return [undefined.count, undefined.first?.name == "first" ? 1 : 0, undefined.last?.name == "m99999" ? 1 : 0,
                    references.direct == ["first", "s"] ? 1 : 0, NameCheck.identifiers(in: expr).count]
        }
        #expect(count == [50_001, 1, 1, 1, 50_002])
    }
}
