import Testing
@testable import MarbleSpec

/// A run goes on until its scheduler has no work left, not until the test's longest line ends:
/// what a stream does after its `expect` line is a difference; a pipeline that never settles
/// stops at a limit with an error naming what kept the scheduler busy.
@Suite struct SettlingTests {
    // MARK: What a run covers

    /// The first test of issue 10: `d`'s value at frame 11 and its completion at 12 come after
    /// every line has ended, and used to be never compared.
    @Test func lateEventsAreDifferences() {
        let report = runMarble("""
        test "late events"
          hot    a  -a|
          let    d = a.delay(for: 10, scheduler: RunLoop.main)
          expect d  --
        """)
        #expect(report.tests.first?.outcome == .failed)
        #expect(problems(report) == ["d frame 11: expected nothing after frame 1, got a",
                                     "d frame 12: expected nothing after frame 1, got finished"])
        // The report's timeline reaches the late events (diagrams and traces draw them).
        #expect(report.tests.first?.endFrame == 13)
    }

    @Test func theSameTestWrittenOutPasses() {
        let report = runMarble("""
        test "late events, expected"
          hot    a  -a|
          let    d = a.delay(for: 10, scheduler: RunLoop.main)
          expect d  -----------a|
        """)
        #expect(problems(report) == [])
    }

    /// Inside the line, "nothing" stays "nothing": only frames after the line's last one say so.
    @Test func aDifferenceInsideTheLineKeepsItsSentence() {
        let report = runMarble("""
        test "early"
          hot    a  -a-b|
          expect a  -a---|
        """)
        #expect(problems(report) == ["a frame 3: expected nothing, got b", "a frame 4: expected nothing, got finished",
                                     "a frame 5: expected finished, got nothing"])
    }

    @Test func lateRequestsAndALateEndOfSubscriptionAreDifferences() {
        let report = runMarble("""
        test "late"
          hot    t  -a|
          cold   c  x|
          let    f  = t.delay(for: 5, scheduler: RunLoop.main).flatMap { _ in c }
          expect f.subscriptions ^--
          expect c.requests      ---
          expect f  ------x|
        """)
        #expect(problems(report) == [
            "f.subscriptions frame 7: the first subscription ended here, after frame 2 (cancelled or completed), but the line expects it to stay active",
            "c.requests frame 6: expected c to be asked for nothing after frame 2, got .unlimited",
        ])
    }

    /// A closure that fails only on a late value is reported: the run reaches it now.
    @Test func aRuntimeErrorAfterTheLinesIsReported() {
        let report = runMarble("""
        test "late overflow"
          hot    a  -1|
          let    d  = a.delay(for: 5, scheduler: RunLoop.main).map { $0 + Int.max }
          expect d  --
        """)
        #expect(report.tests.first?.outcome == .error)
        #expect(report.tests.first?.error?.frame == 6)
        #expect(report.tests.first?.unsettled == false)
    }

    // MARK: Pipelines that settle without finishing

    @Test func whatSchedulesNothingSettles() {
        let report = runMarble("""
        frame 1s

        test "Empty(completeImmediately: false) never completes and schedules nothing"
          let    e  = Empty(completeImmediately: false)
          expect e  ---

        test "a hot line without a completion"
          hot    a  -a-b-
          expect a  -a-b-

        test "a connectable timer whose connection is cancelled"
          let     timer = Timer.publish(every: 2, on: RunLoop.main, in: .common)
          connect timer   -^----!
          expect  timer   ---3-5

        test "debounce left pending when the subscriber cancels"
          hot       a  -a-b-c
          let       d  = a.debounce(for: 5, scheduler: RunLoop.main)
          subscribe d  ^------!
          expect    d  -------
        """)
        #expect(problems(report) == [])
        #expect(report.tests.count == 4 && report.tests.allSatisfy { !$0.unsettled })
    }

    /// After the lines end a run may do as much work again as it did before (and at least
    /// `RunOptions.settleActions`): a long line delayed past its end is not mistaken for one
    /// that never settles.
    @Test func aLongDelayedLineSettles() {
        let values = String(repeating: "a", count: 3_000)
        let report = runMarble("""
        test "delayed"
          hot    a  \(values)
          let    d  = a.delay(for: 4000, scheduler: RunLoop.main).filter { _ in false }
          expect d  -
        """)
        #expect(problems(report) == [])
    }

    // MARK: Pipelines that never settle

    @Test func aTimerLeftRunningNeverSettles() {
        let report = runMarble("""
        frame 1s

        test "ticks"
          hot    a  -a-b-|
          let    t  = Timer.publish(every: 5, on: RunLoop.main, in: .common).autoconnect()
          let    m  = a.combineLatest(t)
          expect a  -a-b-|
          expect m  -----
        """)
        let test = report.tests.first
        #expect(test?.outcome == .error)
        #expect(test?.unsettled == true)
        #expect(test?.error?.message == "the run never settles: `t` kept the scheduler busy after the test's longest line ended at frame 5 "
                + "(1000 values in 1001 actions), so the run was stopped")
        #expect(test.flatMap { $0.error.map { [$0.line, $0.column, $0.frame ?? -1] } } == [5, 10, 5_010])
        #expect(test?.error?.hint == "end what keeps going within the test: finish its source with `|`, cancel with `!` on a subscribe or connect line, or take prefix(_:)")
    }

    @Test func aTimerThatReachesNothingNamesWhatIsStillSubscribed() {
        let report = runMarble("""
        frame 1s

        test "no demand"
          let    ticks = Timer.publish(every: 2, on: RunLoop.main, in: .common).autoconnect()
          demand ticks   1---
          expect ticks   --2-
        """)
        #expect(report.tests.first?.error?.message == "the run never settles: work was still scheduled 1001 actions after the test's longest line ended "
                + "at frame 3 (none of it reached a named stream or an operator; still subscribed: `ticks`), so the run was stopped")
        #expect(report.tests.first.flatMap { $0.error.map { [$0.line, $0.column] } } == [4, 10])
    }

    @Test func collectByTimeOnASourceThatNeverFinishesNeverSettles() {
        let report = runMarble("""
        test "windows"
          hot    a  -a-b---c-
          let    w  = a.collect(.byTime(RunLoop.main, 3))
          expect w  ---{["a", "b"]}--{["c"]}-
        """)
        // The window timer ticks on with nothing to emit: nothing reaches a stream, and the
        // error points at the stream still subscribed furthest downstream.
        #expect(report.tests.first?.unsettled == true)
        #expect(report.tests.first?.error?.message.hasSuffix("(none of it reached a named stream or an operator; still subscribed: `a`, `w`), so the run was stopped") == true)
        #expect(report.tests.first.flatMap { $0.error.map { [$0.line, $0.column] } } == [3, 10])
    }

    /// Issue 17: a timer every frame across `100000s` (10⁸ frames) recorded 11 GB of ticks. The
    /// action budget (100,000, plus 100 per written event) stops it at frame 100,000.
    @Test func aTimerEveryFrameAcrossALongLineStopsAtTheActionBudget() {
        let report = runMarble("""
        test "long"
          let    t = Timer.publish(every: .milliseconds(1), on: RunLoop.main, in: .common).autoconnect()
          expect t  100000s
        """)
        let error = report.tests.first?.error
        #expect(error?.message == "the run passed its limit of 100000 actions (100000 + 100 × the 0 events the test's lines write); `t` kept the scheduler busy")
        #expect(error.map { [$0.line, $0.column, $0.frame ?? -1] } == [2, 10, 100_000])
        #expect(report.tests.first?.unsettled == true)
    }

    @Test func theBudgetGrowsWithWhatTheTestWrites() {
        var options = RunOptions()
        options.maxActions = 10
        options.actionsPerWrittenEvent = 2
        let source = """
        test "small budget"
          hot    a  abcdefghij|
          expect a  abcdefghij|
        """
        // 22 events written (11 on each line): 10 + 2 × 22 actions are plenty for 11.
        #expect(problems(MarbleRunner.run(source: source, path: "t.marble", options: options)) == [])
        options.actionsPerWrittenEvent = 0
        let stopped = MarbleRunner.run(source: source, path: "t.marble", options: options)
        #expect(stopped.tests.first?.error?.message.hasPrefix("the run passed its limit of 10 actions (10 + 0 × the 22 events the test's lines write)") == true)
    }
}

/// A file's prepared tests are kept from the check for their run only up to
/// `MarbleRunner.preparedTestsKept`; the ones after are prepared again. Both paths must give the
/// same outcome, so a file with more tests than that has a failure on each side.
@Suite struct PreparedTestReuseTests {
    @Test func testsPastTheKeptOnesArePreparedAgainAndStillChecked() {
        let count = MarbleRunner.preparedTestsKept + 5
        let failing: Set<Int> = [3, count - 2]
        var source = ""
        for index in 0..<count {
            let expected = failing.contains(index) ? -1 : index + 1
            source += "test \"t\(index)\"\n  hot a -{\(index)}|\n  let b = a.map { $0 + 1 }\n  expect b -{\(expected)}|\n"
        }
        let report = MarbleRunner.run(source: source, path: "many.marble")
        #expect(report.allDiagnostics.isEmpty)
        #expect(report.tests.count == count)
        let failed = Set(report.tests.enumerated().filter { $0.element.outcome != .passed }.map(\.offset))
        #expect(failed == failing)
    }
}
