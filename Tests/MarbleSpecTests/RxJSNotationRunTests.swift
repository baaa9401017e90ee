import Testing
@testable import MarbleSpec

/// Files under `notation rxjs` / `rxjs-legacy`: marble strings read with RxJS's rules, the rest
/// of the file (statements, closures, Combine's semantics) as in any file.
@Suite("Files under an RxJS notation")
struct RxJSNotationRunTests {
    @Test func runModeStringsPastedFromRxJS() {
        let report = runMarble("""
            notation rxjs

            test "map, as RxJS's run mode writes it"
              hot    e1     '  --a--(bc)--|   '
              let    r    = e1.map { $0.uppercased() }
              expect r      '  --A--(BC)--|   '
              expect e1.subscriptions '  ^----------!'
            """)
        #expect(problems(report) == [])
        #expect(report.tests.first?.checks.allSatisfy(\.passed) == true)
    }

    @Test func legacyModeCountsSpacesAndGroupWidths() {
        // '(bc)' takes four frames and every space one: `|` at frame 12, the subscription ends there.
        let report = runMarble("""
            notation rxjs-legacy

            test "legacy"
              hot    e1   '--a--(bc) --|'
              let    r  = e1.map { $0 }
              expect r    '--a--(bc) --|'
              expect e1.subscriptions '^           !'
            """)
        #expect(problems(report) == [])
        let wrong = runMarble("""
            notation rxjs-legacy

            test "legacy"
              hot    e1   '--a--(bc) --|'
              let    r  = e1.map { $0 }
              expect r    '--a--(bc)--|'
            """)
        #expect(problems(wrong) == ["r frame 11: expected finished, got nothing", "r frame 12: expected nothing after frame 11, got finished"])
    }

    @Test func aSubscribeLineWithoutACaretSubscribesAtFrameZero() {
        let report = runMarble("""
            notation rxjs

            test "unsubscribe at 4"
              hot       e1   -a-b-c-|
              let       r  = e1.map { $0 }
              subscribe r    '----!'
              expect    r    -a-b
              expect    e1.subscriptions ^---!
            """)
        #expect(problems(report) == [])
    }

    @Test func aSubscriptionsLineWithoutACaretIsLeftOutAsRxJSLeavesItOut() {
        // Alone, it is "never subscribed" (a whitespace-only string too).
        let never = runMarble("""
            notation rxjs

            test "never"
              hot    e1   -a-|
              cold   y    --b|
              let    r  = e1.map { $0 }
              expect r    -a-|
              expect y.subscriptions '      '
            """)
        #expect(problems(never) == [])
        let subscribed = runMarble("""
            notation rxjs

            test "never, but it was"
              cold   y    --b|
              let    r  = y.map { $0 }
              expect r    --b|
              expect y.subscriptions '------!'
            """)
        #expect(problems(subscribed) == ["y.subscriptions frame 0: expected y never to be subscribed, but it was subscribed here"])
        // Beside a line with '^' it checks nothing, and says so.
        let beside = runMarble("""
            notation rxjs

            test "left out"
              cold   y    --b|
              let    r  = y.map { $0 }
              expect r    --b|
              expect y.subscriptions ^--!
              expect y.subscriptions ------!
            """)
        #expect(problems(beside) == [])
        #expect(beside.tests.first?.warnings.map { "\($0.line): \($0.message)" }
                == ["8: this line has no '^': RxJS's expectSubscriptions leaves it out, so it checks nothing"])
    }

    @Test func eventsAfterAnErrorOnAColdLineAreNeverDelivered() {
        // RxJS accepts the string; the subscriber gets nothing after '#'.
        let report = runMarble("""
            notation rxjs

            test "after the error"
              cold   x   --a--#--d--|
              let    r = x.map { $0 }
              expect r   --a--#
            """)
        #expect(problems(report) == [])
    }

    @Test func rxjsErrorsAreMistakesInTheFile() {
        let report = runMarble("""
            notation rxjs

            test "caret on a cold line"
              cold   x   --^--a|
              let    r = x.map { $0 }
              expect r   --a|
            """)
        #expect(problems(report) == ["4:16: RxJS refuses '^' in a cold marble string: a cold observable has no subscription offset; it starts at each subscription"])
    }

    @Test func quotedStringsKeepSlashesAndLeadingSpaces() {
        let report = runMarble("""
            notation rxjs-legacy

            test "slashes are values"
              hot    x   'a//b|'   // a comment after the string
              let    r = x.map { $0 }
              expect r   '  ^  !'.count == 0 ? "" : ""
            """)
        // Only a comment may follow the closing quote.
        #expect(problems(report).first?.hasSuffix("unexpected '.count' after the marble string") == true)
        let values = runMarble("""
            notation rxjs-legacy

            test "slashes are values"
              hot    x   'a//b|'   // a comment after the string
              let    r = x.map { $0 }
              expect r   'a//b|'
              subscribe r '  ^  '
            """)
        #expect(problems(values) == ["r frame 0: expected a, got nothing", "r frame 1: expected /, got nothing"])
    }

    @Test func statementsAndCombineSemanticsAreUnchanged() {
        // Combine's debounce drops its pending value at completion, under any notation.
        let report = runMarble("""
            notation rxjs
            frame 100ms

            test "debounce"
              hot    typing   '-a-b-c-----d--e-|'
              let    query  = typing.debounce(for: .milliseconds(300), scheduler: RunLoop.main)
              expect query    '--------c-------|'
            """)
        #expect(problems(report) == [])
    }
}
