import Testing
@testable import MarbleSpec

/// Per-subscription cold sources (several `cold NAME` lines) and the matchers of `expect` lines:
/// `{_}`, `{where: …}`, `expect NAME.values` and `expect A == B`.
@Suite struct PerSubscriptionSourceTests {
    @Test func eachSubscriptionPlaysItsOwnLineAndTheLastRepeats() {
        let report = runMarble("""
        test "retry succeeds on the third attempt"
          hot    taps     -a--------------|
          cold   request  --#
          cold   request  --#
          cold   request  ---x|
          let    loaded = taps.flatMap { _ in request.retry(3) }
          expect loaded   --------x-------|
          expect request.subscriptions  -^-!
          expect request.subscriptions  ---^-!
          expect request.subscriptions  -----^---!

        test "the last line plays to every later subscription"
          cold   request  -#
          cold   request  -x|
          let    twice  = request.retry(1).append(request)
          expect twice    --x-x|
        """)
        #expect(problems(report) == [])
        #expect(report.tests.map(\.outcome) == [.passed, .passed])
        let request = report.tests[0].streams.first { $0.name == "request" }
        #expect(request?.declaredPerSubscription?.count == 3)
        #expect(request?.declared?.count == 1, "the first line is the declared timeline")
    }

    @Test func aRetryThatGivesUpFailsWithItsLastAttempt() {
        let report = runMarble("""
        test "the attempts run out"
          cold   request  -#{"offline"}
          cold   request  --#{"timeout"}
          let    loaded = request.retry(1)
          expect loaded   ---#{"offline"}
        """)
        // The retry (at frame 1) plays the second line: its failure is what gets through.
        #expect(problems(report) == ["loaded frame 3: expected failure \"offline\", got failure \"timeout\""])
    }

    @Test func aNameTakenByAnotherKindOfLineIsStillAnError() {
        let report = runMarble("test \"a\"\n  hot request -x|\n  cold request -y|\n  expect request -x|")
        #expect(report.allDiagnostics.map { "\($0.line):\($0.column): \($0.message)" } == ["3:8: 'request' is already defined in this test"])
    }

    @Test func aMistakeOnOneLineIsReportedOnce() {
        let report = runMarble("test \"a\"\n  cold request -(x|\n  cold request -y|\n  expect request -y|")
        #expect(report.allDiagnostics.map(\.line) == [2])
    }
}

@Suite struct MatcherTests {
    @Test func wildcardsAndPredicatesStandForValues() {
        let report = runMarble("""
        test "matchers"
          hot    q   -a-{"abc"}-c-|
          let    up = q.map { $0.uppercased() }
          expect up  -{_}-{where: $0.count > 2}-C-|
          expect up.values  A {where: $0.hasPrefix("AB")} C |
          let    same = q.map { $0 }.map { $0.uppercased() }
          expect up == same
        """)
        #expect(problems(report) == [])
        #expect(report.tests.first?.outcome == .passed)
    }

    @Test func aPredicateThatIsFalseIsADifference() {
        let report = runMarble("test \"a\"\n  hot q -a-{\"ab\"}-|\n  expect q -{_}-{where: $0.count > 2}-|")
        #expect(problems(report) == ["q frame 3: expected a value matching {where: $0.count > 2}, got {\"ab\"}"])
        let check = report.tests.first?.checks.first
        #expect(check?.expected.map(\.event) == [.value("{_}"), .value("{where: $0.count > 2}"), .finished])
        #expect(check?.rewritable == false)
    }

    /// Issue 29, item 13: a matcher that matched the first value of a frame with a value more
    /// was described by that value, "expected 1, got 1 then 2", which reads as if nothing differed.
    @Test func aMatchedMatcherInAFrameThatDiffersIsNamedAsTheMatcher() {
        let any = runMarble("test \"a\"\n  hot q -(12)-|\n  expect q -{_}-|")
        #expect(problems(any) == ["q frame 1: expected a value matching {_}, got 1 then 2"])
        let predicate = runMarble("test \"a\"\n  hot q -(12)-|\n  expect q -(2{where: $0 > 0})-|")
        #expect(problems(predicate) == ["q frame 1: expected 2 then a value matching {where: $0 > 0}, got 1 then 2"])
    }

    @Test func aWildcardStillNeedsAValueAtItsFrame() {
        let report = runMarble("test \"a\"\n  hot q -a--|\n  expect q --{_}-|")
        #expect(problems(report) == ["q frame 1: expected nothing, got a", "q frame 2: expected a value matching {_}, got nothing"])
    }

    @Test func aPredicateThatFailsSaysWhy() {
        let report = runMarble("test \"a\"\n  hot q -a-|\n  expect q -{where: $0 + 1}-|")
        #expect(problems(report) == ["q frame 1: expected a value matching {where: $0 + 1}, got a"])
        #expect(report.tests.first?.checks.first?.notes.first?.hasPrefix("the predicate {where: $0 + 1} failed on \"a\": binary operator '+'") == true)
    }

    @Test func valuesIgnoreTimingButNotOrderOrCompletion() {
        let passing = runMarble("test \"a\"\n  hot q -a---b-----c--|\n  expect q.values a b c |")
        #expect(problems(passing) == [])
        let wrongOrder = runMarble("test \"a\"\n  hot q -a---c-----b--|\n  expect q.values a b c |")
        #expect(problems(wrongOrder) == ["q.values frame 5: expected b as event 2, got c"])
        let missing = runMarble("test \"a\"\n  hot q -a---b---\n  expect q.values a b |")
        #expect(problems(missing) == ["q.values frame 5: expected finished as event 3, but the stream sent only 2 events"])
        let extra = runMarble("test \"a\"\n  hot q -a---b-|\n  expect q.values a b")
        #expect(problems(extra) == ["q.values frame 7: expected nothing after event 2, got finished as event 3"])
        // The expected events are drawn under the stream's own, event by event.
        #expect(wrongOrder.tests.first?.checks.first?.expected.map(\.frame) == [1, 5, 11, 14])
    }

    @Test func twoPipelinesMustAgreeEventForEvent() {
        let report = runMarble("""
        test "a"
          hot    q  -1-2-3-|
          let    a = q.map { $0 * 2 }.filter { $0 > 2 }
          let    b = q.filter { $0 > 2 }.map { $0 * 2 }
          expect a == b
        """)
        #expect(problems(report) == ["a == b frame 3: expected nothing, got 4"])
        let check = report.tests.first?.checks.first
        #expect(check?.expectedStream == "b")
        #expect(check?.stream == "a")
        #expect(report.tests.first?.warnings.isEmpty == true, "both sides of == are checked")
    }
}
