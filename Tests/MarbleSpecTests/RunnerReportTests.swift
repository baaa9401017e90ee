import Testing
@testable import MarbleSpec

/// How the runner reports what went wrong. (The format brief's worked examples themselves run in
/// `BriefExampleTests`, from the catalogue's copy.)
@Suite struct ReportedProblemTests {
    @Test func aWrongExpectationIsExplainedFrameByFrame() {
        let report = runMarble("""
        test "wrong"
          hot     ticks   -a-b-c-|
          expect  ticks   -a-x-c--|
        """)
        #expect(problems(report) == [
            "ticks frame 3: expected x, got b",
            "ticks frame 7: expected nothing, got finished",
            "ticks frame 8: expected finished, got nothing",
        ])
    }

    @Test func runtimeErrorsAreReportedWithFrameAndPlace() {
        let report = runMarble("""
        test "division by zero"
          hot    input   -1-0-|
          let    bad   = input.map { 12 / $0 }
          expect bad     -{12}-|
        """)
        #expect(problems(report) == ["division by zero: error 3:33: division by zero in 12 / 0"])
        #expect(report.tests.first?.error?.frame == 3)
    }

    @Test func unknownOperatorsSuggestTheNearestSpelling() {
        let report = runMarble("""
        test "typo"
          hot    input   -1-|
          let    out   = input.mapp { $0 }
          expect out     -1-|
        """)
        #expect(report.allDiagnostics.first?.message == "unknown operator 'mapp'")
        #expect(report.allDiagnostics.first?.hint == "did you mean 'map(_:)'?")
    }
}

@Suite struct TimeAxisTests {
    @Test func eventsBeforeTheZeroMarkHappenBeforeTheSubscriberAttaches() {
        let report = runMarble("""
        test "negative time"
          hot    a   --a-^-b-|
          subject s = CurrentValueSubject("i")
          send   s   -x--^----
          expect a       --b-|
          expect s       x----
        """)
        #expect(problems(report) == [])
    }

    @Test func subscriberActionsComeBeforeSendsAtTheSameFrame() {
        let report = runMarble("""
        test "order"
          hot       a   --a-b-|
          subscribe a   --^----
          expect    a   --a-b-|
        """)
        #expect(problems(report) == [])
    }
}

@Suite struct RequestExpectationTests {
    @Test func requestsToAStreamAreExpectedFrameByFrame() {
        let report = runMarble("""
        test "dropFirst asks upstream for the demand plus n"
          hot    input   -1-2-3-4-|
          let    tail  = input.dropFirst(2)
          demand tail    1-----1---
          expect tail    -----3-4-|
          expect input.requests  3-----1---
        """)
        #expect(problems(report) == [])
    }

    @Test func aWrongRequestIsExplained() {
        let report = runMarble("""
        test "buffer keepFull"
          hot    input   -1-2-3-|
          let    b     = input.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest)
          demand b       1------
          expect input.requests  *------
        """)
        #expect(problems(report) == [
            "input.requests frame 0: expected input to be asked for .unlimited, got .max(2)",
            "input.requests frame 1: expected input to be asked for nothing, got .max(1)",
        ])
    }
}

@Suite struct RuntimeErrorReportTests {
    @Test func whatArrivedAfterARuntimeErrorIsNotReported() {
        let report = runMarble("""
        test "division by zero"
          hot    input   -1-0-|
          let    bad   = input.map { 12 / $0 }
          expect bad     -{12}-|
        """)
        let stream = report.tests.first?.streams.first { $0.name == "bad" }
        #expect(stream?.observed == [RenderedEvent(frame: 1, event: .value("{12}"))])
        #expect(report.tests.first?.error?.frame == 3)
    }
}

@Suite struct PrintTraceTests {
    /// `print` names subscriptions as Combine does, through the runner's own wrappers.
    @Test func printNamesTheSubscriptionAfterTheOperatorOrSource() {
        let report = runMarble("""
        test "names"
          hot    h  -1-|
          let    a = h.print("s")
          let    b = Just(1).print("j")
          let    c = h.collect().print("c")
          expect a  -1-|
          expect b  (1|)
          expect c  ---({[1]}|)
        """)
        let subscriptions = report.tests.first?.trace.map(\.text).filter { $0.contains("receive subscription") }
        #expect(subscriptions == ["s: receive subscription: (PassthroughSubject)", "j: receive subscription: (Just)", "c: receive subscription: (Collect)"])
    }
}

@Suite struct SourceLineTests {
    @Test func sendLinesIntoOneSubjectMakeOneSourceTimeline() {
        let report = runMarble("""
        test "two send lines"
          subject s = PassthroughSubject()
          send    s   ---b-|
          send    s   -a----
          expect  s   -a-b-|
        """)
        #expect(problems(report) == [])
        #expect(report.tests.first?.sources == [SourceLine(name: "s", events: [
            RenderedEvent(frame: 1, event: .value("a")), RenderedEvent(frame: 3, event: .value("b")), RenderedEvent(frame: 5, event: .finished),
        ], isCold: false)])
    }
}
