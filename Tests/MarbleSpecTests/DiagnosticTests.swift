import Testing
@testable import MarbleSpec

/// Every kind of mistake in a file listed in section 6 of the format brief gives
/// `line:column` with the line, a message and (where one exists) a suggestion — and nothing runs.
@Suite struct DiagnosticTests {
    func firstDiagnostic(_ source: String) -> FileDiagnostic? {
        let report = runMarble(source)
        #expect(report.tests.isEmpty, "a file with an error must not run")
        return report.diagnostics.first
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
        #expect(report.diagnostics.map(\.line) == [2, 3])
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
