import Testing
@testable import MarbleSpec

/// `PipelineSearch`, the search and shrinking behind `marbles compare`.
@Suite struct PipelineSearchTests {
    static let flatMapOne = "taps.flatMap(maxPublishers: .max(1)) { _ in request }"
    static let switchToLatest = "taps.map { _ in request }.switchToLatest()"

    @Test func findsTheDifferenceBetweenFlatMapOfOneAndSwitchToLatest() throws {
        guard case .success(.difference(let source, let report, let tried, _)) = PipelineSearch.run(Self.flatMapOne, Self.switchToLatest) else {
            Issue.record("expected a difference")
            return
        }
        // The smallest case: a second tap while the first request is still open. flatMap
        // waits for it (demand of one), switchToLatest cancels it and plays the second.
        #expect(source == """
            test "the pipelines differ"
              hot taps 11
              cold request 1
              let left = \(Self.flatMapOne)
              let right = \(Self.switchToLatest)
              expect left == right

            """)
        #expect(report.streams.first { $0.name == "left" }?.observed?.map(\.frame) == [0])
        #expect(report.streams.first { $0.name == "right" }?.observed?.map(\.frame) == [0, 1])
        #expect(report.checks.first?.passed == false)
        #expect(tried <= 50)
    }

    @Test func equalPipelinesShowNoDifference() {
        guard case .success(.noDifference(let cases, let skipped, let unfailed)) = PipelineSearch.run("x.map { $0 + 1 }.map { $0 * 2 }", "x.map { ($0 + 1) * 2 }") else {
            Issue.record("expected no difference")
            return
        }
        #expect(cases == 500)
        #expect(skipped == 0)
        #expect(unfailed == [])
    }

    @Test func shrinksToTheSmallestCase() {
        // Any value above 1 tells them apart; the shrunk case is one value, the smallest such.
        guard case .success(.difference(let source, _, _, let steps)) = PipelineSearch.run("x.filter { $0 > 1 }.map { $0 * 2 }", "x.map { $0 * 2 }.filter { $0 > 1 }") else {
            Issue.record("expected a difference")
            return
        }
        #expect(source.contains("  hot x 1\n"))
        #expect(steps > 0)
    }

    @Test func theSmallerCasesOfACaseAreAllSmaller() {
        let failing = GeneratedCase(inputs: [InputLine(frames: [.gap, .value(2), .value(0)], end: .failed)], demand: [1, nil, 1])
        let smaller = PipelineShrinking.smaller(than: failing)
        #expect(!smaller.isEmpty)
        #expect(smaller.allSatisfy { $0.size < failing.size })
        #expect(smaller.contains(GeneratedCase(inputs: failing.inputs, demand: nil)))
        #expect(smaller.contains(GeneratedCase(inputs: [InputLine(frames: [.gap, .value(1), .value(0)], end: .failed)], demand: [1, nil, 1])))
        #expect(smaller.contains(GeneratedCase(inputs: [InputLine(frames: [.gap, .value(2), .value(0)], end: .finished)], demand: [1, nil, 1])))
    }

    @Test func theSameSeedTriesTheSameCases() {
        var options = PipelineSearch.Options()
        options.seed = 42
        let first = PipelineSearch.run("x.prefix(2)", "x.prefix(3)", options: options)
        let second = PipelineSearch.run("x.prefix(2)", "x.prefix(3)", options: options)
        guard case .success(.difference(let a, _, let triedA, _)) = first, case .success(.difference(let b, _, let triedB, _)) = second else {
            Issue.record("expected a difference")
            return
        }
        #expect(a == b)
        #expect(triedA == triedB)
    }

    @Test func innerPublishersAreColdAndTheRestHot() throws {
        let shape = try CaseShape.make(left: Self.flatMapOne, right: Self.switchToLatest).get()
        #expect(shape.inputs.map(\.name) == ["taps", "request"])
        #expect(shape.inputs.map(\.cold) == [false, true])
    }

    @Test func lettersWhereTheTypeCheckRejectsDigits() {
        guard case .success(.difference(let source, _, _, _)) = PipelineSearch.run("x.map { $0.uppercased() }", "x.map { $0.lowercased() }") else {
            Issue.record("expected a difference")
            return
        }
        #expect(source.contains("  hot x a"))
    }

    @Test(arguments: [
        // (left, right, argument, column, message)
        ("x.map { $0.lenght }", "x", 1, 12, "value of type 'Int' has no member 'lenght'"),
        ("x.map { $0 + 1 }", "x.map { $0 +  }", 2, 15, "expected expression after '+'"),
        ("x", "  ", 2, 1, "the pipeline is empty"),
        ("left.map { $0 }", "x", 1, 1, "'left' names one of the two pipelines"),
    ])
    func mistakesAreLocatedInTheirArgument(_ left: String, _ right: String, _ argument: Int, _ column: Int, _ message: String) {
        guard case .failure(let error) = PipelineSearch.run(left, right) else {
            Issue.record("expected an error")
            return
        }
        #expect(error.argument == argument)
        #expect(error.column == column)
        #expect(error.message == message)
    }

    /// Issue 29, item 14: `x.retry()` against `x`. Every case where the hot `x` fails makes
    /// `retry()` resubscribe at that frame until a limit stops it (2 minutes and 200 MB for the
    /// search): such a case now stops at the case's limit of 1,000 actions at one frame, and
    /// once a failure of `x` has stopped every case it was in, no later case fails `x`.
    @Test func casesThatCannotTellThePipelinesApartCostLittleAndStopBeingGenerated() throws {
        guard case .success(.noDifference(let cases, let skipped, let unfailed)) = PipelineSearch.run("x.retry()", "x") else {
            Issue.record("expected no difference")
            return
        }
        #expect(cases == 500)
        #expect(unfailed == ["x"])
        // Only the cases before the search learnt it (at most its first batch) failed `x`.
        #expect(skipped >= PipelineSearch.failuresBeforeGivingUp && skipped <= 50)

        // One such case: stopped after a thousand resubscriptions, not a hundred thousand.
        let source = "test \"t\"\n  hot x 1#\n  let left = x.retry()\n  let right = x\n  expect left == right\n"
        let report = MarbleRunner.run(source: source, path: "compare", options: PipelineSearch.caseOptions)
        let test = try #require(report.tests.first)
        #expect(test.outcome == .error)
        #expect(test.error?.message == "the run never settles: more than 1000 actions ran at frame 1; `x` kept the scheduler busy, subscribed again and again")
        let resubscriptions = test.streams.first { $0.name == "x" }?.subscriptions.count ?? 0
        #expect(resubscriptions > 1 && resubscriptions <= 1_001)
    }

    /// A case the generator gives again is not run again: with one frame per line there are
    /// 105 different cases of one input (15 lines, 7 demand lines), and no more are run.
    @Test func aCaseIsRunOnce() {
        var options = PipelineSearch.Options()
        options.maxFrames = 1
        guard case .success(.noDifference(let cases, _, _)) = PipelineSearch.run("x.map { $0 }", "x", options: options) else {
            Issue.record("expected no difference")
            return
        }
        #expect(cases > 50 && cases <= 105)
    }

    @Test func pipelinesWithoutInputsAreRefused() {
        guard case .failure(let error) = PipelineSearch.run("Just(1)", "Just(2)") else {
            Issue.record("expected an error")
            return
        }
        #expect(error.argument == nil)
        #expect(error.message == "the pipelines read no named input, so every case is the same")
    }
}
