import Testing
@testable import MarbleSpec

/// Every kind of mistake in a file listed in section 6 of the format brief gives
/// `line:column` with the line, a message and (where one exists) a suggestion — and the test does not run.
@Suite struct DiagnosticTests {
    func firstDiagnostic(_ source: String) -> FileDiagnostic? {
        let report = runMarble(source)
        #expect(report.tests.allSatisfy { $0.checks.isEmpty && !$0.diagnostics.isEmpty }, "a test with a mistake must not run")
        return report.allDiagnostics.first
    }

    @Test(arguments: [
        // (source, line, column, message)
        ("test \"a\"\n  expcet x -|", 2, 3, "unknown statement 'expcet'"),
        ("test \"a\"\n  hot a -a-(b-c)-|\n  expect a -|", 2, 14, "a group cannot contain '-'"),
        ("test \"a\"\n  hot a -a-(bc\n  expect a -|", 2, 12, ""),
        ("test \"a\"\n  cold a -^a-|\n  expect a -|", 2, 11, ""),
        ("test \"a\"\n  hot a -^-^-|\n  expect a -|", 2, 12, ""),
        ("test \"a\"\n  cold a -a-|-b\n  expect a -|", 2, 15, ""),
        ("test \"a\"\n  hot a -a-|\n  expect b -a-|", 3, 10, "cannot find stream 'b' in this test"),
        ("test \"a\"\n  hot a -a-|\n  let b = a.mapp { $0 }\n  expect b -a-|", 3, 13, "unknown operator 'mapp'"),
        ("test \"a\"\n  hot a -a-|\n  let b = a.debounce(fr: 1, scheduler: RunLoop.main)\n  expect b -a-|", 3, 13, "no version of 'debounce' takes the arguments debounce(fr:scheduler:)"),
        ("test \"a\"\n  hot a -a-|\n  let b = a.flatMap { _ in requst }\n  cold request -x|\n  expect b -a-|", 3, 28, "cannot find 'requst' in scope"),
        ("frame 3ms\ntest \"a\"\n  hot a -a- 10ms -|\n  expect a -|", 3, 13, ""),
        ("test \"a\"\n  hot a -a-|\n  expect a.subscribers ^-|", 3, 12, "unknown property 'subscribers'; '.subscriptions', '.requests' and '.values' can be expected"),
        ("test \"a\"\n  hot a -a-|\n  let b = a.map { $0 }\n  send b -b-|\n  expect a -|", 4, 8, "'b' is not a subject; only subjects can be sent to"),
        // Matchers (docs/language.md, Matchers)
        ("test \"a\"\n  hot q -{_}-|\n  expect q -a-|", 2, 10, "a matcher such as {_} can only stand in an expect line"),
        ("test \"a\"\n  cold q -{where: $0 > 1}-|\n  expect q -a-|", 2, 11, "a matcher such as {where: $0 > 1} can only stand in an expect line"),
        ("test \"a\"\n  hot q -a-|\n  expect q -{where: }-|", 3, 20, "expected a condition after 'where:'"),
        ("test \"a\"\n  hot q -a-|\n  expect q -{where: $0 >}-|", 3, 25, "expected expression after '>'"),
        ("test \"a\"\n  hot q -a-|\n  expect q -{where: $0 == qq}-|", 3, 27, "cannot find 'qq' in scope"),
        ("test \"a\"\n  hot q -#-|\n  expect q -#{_}", 3, 14, "a matcher cannot stand for an error; errors are compared by their message"),
        ("test \"a\"\n  hot q -a-|\n  expect q == r", 3, 15, "cannot find stream 'r' in this test"),
        ("test \"a\"\n  hot q -a-|\n  expect q == q", 3, 15, "'q' is compared with itself"),
        ("test \"a\"\n  hot q -a-|\n  expect q == -a-|", 3, 15, "expected a stream name after '=='"),
        ("test \"a\"\n  hot q -a-|\n  expect q.valeus a", 3, 12, "unknown property 'valeus'; '.subscriptions', '.requests' and '.values' can be expected"),
    ])
    func mistakesArePinpointed(_ source: String, _ line: Int, _ column: Int, _ message: String) {
        let diagnostic = firstDiagnostic(source)
        #expect(diagnostic?.line == line)
        #expect(diagnostic?.column == column)
        if !message.isEmpty { #expect(diagnostic?.message == message) }
        #expect(diagnostic?.lineText == source.split(separator: "\n", omittingEmptySubsequences: false)[line - 1].description)
    }

    @Test func suggestionsNameTheNearestSpelling() {
        #expect(firstDiagnostic("test \"a\"\n  hot a -a-|\n  let b = a.mapp { $0 }\n  expect b -a-|")?.hint == "did you mean 'map(_:)'?")
        #expect(firstDiagnostic("test \"a\"\n  hot a -a-|\n  let b = a.debounce(fr: 1, scheduler: RunLoop.main)\n  expect b -a-|")?.hint == "did you mean 'debounce(for:scheduler:options:)'?")
        #expect(firstDiagnostic("test \"a\"\n  hot request -a-|\n  expect requst -|")?.hint == "did you mean 'request'?")
    }

    @Test func oneMistakeDoesNotCascade() {
        let report = runMarble("test \"a\"\n  hot a -a-(b-c)-|\n  let b = a.debounse(for: 3, scheduler: RunLoop.main)\n  expect b --|")
        #expect(report.allDiagnostics.map(\.line) == [2, 3])
    }

    @Test func aDemandBeforeTheSubscriptionIsAnError() {
        let diagnostic = firstDiagnostic("test \"a\"\n  hot a -a-|\n  subscribe a --^\n  demand a 1-1\n  expect a -|")
        #expect(diagnostic?.message == "a request at frame 0, before 'a' is subscribed at frame 2")
    }
}

@Suite struct LimitTests {
    @Test func retryOnASourceThatFailsAtOnceStopsAtTheInstantLimit() {
        let report = runMarble("""
        test "never settles"
          cold   c    #
          let    r  = c.retry()
          expect r    -
        """)
        let error = report.tests.first?.error
        // The stream that kept the scheduler busy is named, and the error points at its definition.
        #expect(error?.message == "the run never settles: more than 100000 actions ran at frame 0; `c` kept the scheduler busy, subscribed again and again")
        #expect(error.map { [$0.line, $0.column, $0.frame ?? -1] } == [2, 10, 0])
        #expect(report.tests.first?.outcome == .error)
    }

    @Test func longIdleStretchesCostNothing() {
        let report = runMarble("""
        test "idle"
          hot    a    -a 1000000000ms b|
          expect a    -a 1000000000ms b|
        """)
        // The queue jumps over the stretch; the benchmark (W5) measures that it costs nothing.
        #expect(problems(report) == [])
        #expect(report.tests.first?.endFrame == 1_000_000_004)
    }
}
