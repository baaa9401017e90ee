// The README's "Testing your own publishers" example, exactly as written there.
import MarbleTesting
import Testing

@Test func debounceWaitsForThePauseInTyping() {
    let scheduler = TestScheduler(frame: .milliseconds(100))
    let typing = scheduler.hot("-a-b-c-----d--e-|")
    let query = typing.debounce(for: .milliseconds(300), scheduler: scheduler)

    scheduler.expect(query, "--------c-------|")
    scheduler.expect(typing.subscriptions, "^---------------!")
    scheduler.run()
}

/// The failure the README shows, word for word.
@Test func theReadmeFailureReadsAsShown() throws {
    let issues = recordedIssues {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let typing = scheduler.hot("-a-b-c-----d--e-|", name: "typing")
        let query = typing.debounce(for: .milliseconds(300), scheduler: scheduler)
        scheduler.expect(query, "--------c-------e|", name: "query")
        scheduler.run()
    }
    #expect(issues.map(\.message) == ["""
        query did not emit the expected marbles:

          typing     -a-b-c-----d--e-|
          expected   --------c-------e|
          actual     --------c-------|
                                     ^ frame 16: expected e, got finished
                                      ^ frame 17: expected finished, got nothing
                     (query had already finished at frame 16)
        """])
}
