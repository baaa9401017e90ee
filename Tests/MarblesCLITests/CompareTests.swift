import Testing
@testable import MarblesCLI

@Suite("marbles compare")
struct CompareTests {
    @Test func printsBothOutputsAlignedAndTheCaseAsATest() {
        let run = marbles("compare", "taps.flatMap(maxPublishers: .max(1)) { _ in request }", "taps.map { _ in request }.switchToLatest()")
        #expect(run.code == 1)
        #expect(run.stdout == """
            the pipelines differ (case 17, shrunk in 2 steps; seed 1)

              taps      11
              request   1  (cold: plays from each subscription)
              left      1-
              right     11
                         ^ frame 1: left sent nothing, right 1

              left:  taps.flatMap(maxPublishers: .max(1)) { _ in request }
              right: taps.map { _ in request }.switchToLatest()

            as a test:
              test "the pipelines differ"
                hot taps 11
                cold request 1
                let left = taps.flatMap(maxPublishers: .max(1)) { _ in request }
                let right = taps.map { _ in request }.switchToLatest()
                expect left == right

            """)
    }

    @Test func equalPipelinesReportHowManyCasesAgreed() {
        let run = marbles("compare", "--cases", "100", "x.map { $0 + 1 }.map { $0 * 2 }", "x.map { ($0 + 1) * 2 }")
        #expect(run.code == 0)
        #expect(run.stdout == "no difference in 100 cases; seed 1\n")
    }

    /// Issue 29, item 14: a failure of `x` makes `x.retry()` never settle, so every case that
    /// fails `x` stops at a limit; the search says so, and stops generating them.
    @Test func casesThatStopAtALimitAreCountedAndNoLongerGenerated() {
        let run = marbles("compare", "x.retry()", "x")
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("no difference in 500 cases ("))
        #expect(run.stdout.hasSuffix(" of them stopped with a runtime error and tell nothing; a failure of 'x' stopped every case it was in, so later cases do not fail it); seed 1\n"))
    }

    @Test func aMistakeIsShownInItsPipeline() {
        let run = marbles("compare", "x", "x.map { $0.lenght }")
        #expect(run.code == 2)
        #expect(run.lines.prefix(3) == ["pipeline 2:1:12: error: value of type 'Int' has no member 'lenght'", "  x.map { $0.lenght }", "             ^^^^^^"])
    }

    @Test(arguments: [
        (["compare", "x"], "compare needs two pipelines, e.g. 'a.map { $0 + 1 }.map { $0 * 2 }' 'a.map { ($0 + 1) * 2 }'"),
        (["compare", "x", "y", "z"], "compare takes two pipelines, not 3"),
        (["compare", "--seed", "-1", "x", "y"], "--seed takes a whole number of at least 0, not '-1'"),
        (["compare", "--sede", "1", "x", "y"], "unknown option '--sede' for 'marbles compare'; did you mean '--seed'?"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        let run = marbles(arguments)
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("marbles: error: \(message)\n"))
    }
}

@Suite("marbles run --update: matcher lines")
struct MatcherUpdateTests {
    static let spec = """
        test "matchers"
          hot    q     -a-{"ab"}-c-|
          let    up  = q.map { $0.uppercased() }
          let    low = q.map { $0 }
          expect up    -{_}-{where: $0.count > 2}-C-|
          expect up.values  A C |
          expect up == low
          expect low   -a-b-c-|

        """

    @Test func linesWithMatchersAreNeverRewritten() throws {
        let sandbox = try Sandbox(["m.marble": Self.spec])
        let update = marbles("run", sandbox.path("m.marble"), "--update")
        #expect(update.code == 1, "the matcher lines still fail")
        let after = try sandbox.read("m.marble")
        let changed = zip(Self.spec.split(separator: "\n"), after.split(separator: "\n")).filter { $0 != $1 }
        // Only the exact line is rewritten.
        #expect(changed.map { String($0.1) } == ["  expect low   -a-{\"ab\"}-c-|"])
        #expect(update.stdout.contains("(--update does not rewrite this line: it states less than the exact events, on purpose)"))
    }
}
