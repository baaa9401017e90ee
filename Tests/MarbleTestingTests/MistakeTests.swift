import MarbleTesting
import Testing

/// Every mistake MarbleTesting reports about its inputs: the message and where (line, column).
@Suite struct MistakeTests {
    @Test func aSubscriptionLineThatEndsBeforeItStarts() throws {
        var line = 0, column = 0
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            // Swift's #column for a call is the column of its opening parenthesis.
            line = #line + 1; column = 29
            scheduler.expect(scheduler.hot("-a|"), "-a|", subscription: "-!-^")
            scheduler.run()
        }
        let issue = try #require(issues.first)
        #expect(issue.message == """
            error in subscription marbles: '!' before '^': a subscription cannot end before it starts
              "-!-^"
                ^
                put '^' before '!'
            """)
        #expect(issue.sourceLocation?.line == line)
        #expect(issue.sourceLocation?.column == column)
    }

    @Test func aDemandLineWithAValue() throws {
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            let source = scheduler.cold("a|")
            scheduler.expect(source.requests, "a")
            scheduler.run()
        }
        #expect(issues.map(\.message) == ["""
            error in requests marbles: 'a' is not allowed in a demand line
              "a"
               ^
               use a digit, {n} or *
            """])
    }

    @Test func aRunThatNeverSettles() throws {
        var line = 0
        let issues = recordedIssues {
            let scheduler = neverSettlingScheduler()
            line = #line + 1
            scheduler.run()
        }
        let issue = try #require(issues.first)
        #expect(issue.message == "the run stopped at frame 0: more than 50 actions ran at frame 0: the pipeline never settles")
        #expect(issue.sourceLocation?.line == line)
    }
}
