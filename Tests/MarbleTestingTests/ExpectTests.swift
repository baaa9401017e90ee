import MarbleTesting
import Testing

@Suite struct ExpectTests {
    @Test func aPassingExpectationRecordsNothing() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let typing = scheduler.hot("-a-b-c-----d--e-|")
        scheduler.expect(typing.debounce(for: .milliseconds(300), scheduler: scheduler), "--------c-------|")
        #expect(scheduler.run().isEmpty)
    }

    @Test func aFailingExpectationIsRecordedWithTheDiffAtItsLine() throws {
        var line = 0
        let issues = recordedIssues {
            let scheduler = TestScheduler(frame: .milliseconds(100))
            let typing = scheduler.hot("-a-b-c-----d--e-|", name: "typing")
            let query = typing.debounce(for: .milliseconds(300), scheduler: scheduler)
            line = #line + 1
            scheduler.expect(query, "--------c-------e|", name: "query")
            scheduler.run()
        }
        let issue = try #require(issues.first)
        print(issue.message)
        #expect(issue.sourceLocation?.line == line)
    }
}
