import MarbleTesting
import Testing

/// A failure names the publisher and the sources as this file writes them (read back from
/// this file through `#filePath`/`#line`/`#column`), and says `output`, `hot`, `cold2`, `send`
/// where the source does not name them plainly.
@Suite struct FailureNameTests {
    /// The first line of the message and the labels of its lanes.
    func headlineAndLanes(_ issue: Issue?) -> [String] {
        let lines = (issue?.message ?? "").split(separator: "\n").map(String.init)
        let lanes = lines.dropFirst().compactMap { line -> String? in
            let words = line.split(separator: " ", maxSplits: 1)
            guard line.hasPrefix("  "), let first = words.first, !first.hasPrefix("^"), !first.hasPrefix("(") else { return nil }
            return line.trimmingCharacters(in: .whitespaces).components(separatedBy: "   ").first
        }
        return [lines.first ?? ""] + lanes
    }

    final class Model {
        @Published var results: [Int] = []
    }

    @Test func theVariablesOfTheTestNameItsFailure() {
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            let typing = scheduler.hot("-a-b|")
            let answer = scheduler.cold("-x|")
            let query = typing.flatMap { _ in answer }
            scheduler.expect(query, "--x-y|")
            scheduler.run()
        }
        #expect(headlineAndLanes(issues.first) == ["query did not emit the expected marbles:", "typing", "answer", "expected", "actual"])
    }

    @Test func aPropertyIsNamedWithItsPath() {
        let model = Model()
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            scheduler.send("-a|", values: ["a": [1]]) { model.results = $0 }
            scheduler.expect(model.$results, "b-a", values: ["a": [1], "b": [2]])
            scheduler.run()
        }
        #expect(headlineAndLanes(issues.first) == ["model.$results did not emit the expected marbles:", "model.results", "expected", "actual"])
    }

    @Test func aSubjectAndItsSubscriptionsAreNamedAsWritten() {
        let subject = PassthroughSubject<String, Never>()
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            scheduler.send("-a|", to: subject)
            let answer: TestPublisher<String, Never>
            answer = scheduler.cold("-x|")  // not a declaration: the source is `cold`, its subscriptions are named by the expect
            scheduler.expect(subject, "-b|")
            scheduler.expect(answer.subscriptions, "^!")
            scheduler.run()
        }
        #expect(issues.map { headlineAndLanes($0).first } == ["subject did not emit the expected marbles:", "the first subscription to answer differs:"])
        #expect(headlineAndLanes(issues.first).dropFirst().first == "subject")
    }

    @Test func aGivenNameWins() {
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            let typing = scheduler.hot("-a|", name: "keys")
            scheduler.expect(typing, "-b|", name: "the query")
            scheduler.expect(typing.subscriptions, "-^")
            scheduler.run()
        }
        #expect(issues.map { headlineAndLanes($0).first } == ["the query did not emit the expected marbles:", "the first subscription to keys differs:"])
        #expect(headlineAndLanes(issues.first).dropFirst().first == "keys")
    }

    @Test func whatTheSourceDoesNotNamePlainlyIsGeneric() {
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            let sources = [scheduler.hot("-a|"), scheduler.hot("-b|")]
            let mapped = scheduler.cold("-x|").map { $0 }
            scheduler.expect(sources[0].merge(with: sources[1]), "-c|")
            scheduler.expect(mapped, "-y|")
            let marbles = "-z|"
            scheduler.expect(mapped, marbles)  // a variable cannot be checked against what ran: the name stands
            scheduler.run()
        }
        #expect(issues.map { headlineAndLanes($0) } == [
            ["output did not emit the expected marbles:", "hot", "hot2", "cold", "expected output", "actual output"],
            ["mapped did not emit the expected marbles:", "hot", "hot2", "cold", "expected mapped", "actual mapped"],
            ["mapped did not emit the expected marbles:", "hot", "hot2", "cold", "expected mapped", "actual mapped"],
        ])
    }

    /// A call that ran with other marbles than the ones written at its line (a helper that
    /// passes its caller's line on, or a file edited since it was compiled) names nothing.
    @Test func aCallThatIsNotTheOneThatRanNamesNothing() {
        func check(_ publisher: TestPublisher<String, Never>, in scheduler: TestScheduler, line: UInt = #line, column: UInt = #column) {
            scheduler.expect(publisher, "-b|", line: line, column: column)
        }
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            let typing = scheduler.hot("-a|")
            scheduler.expect(typing, "-c|", line: #line + 1)
            scheduler.expect(typing, "-a|")
            check(typing, in: scheduler)
            scheduler.run()
        }
        #expect(issues.map { headlineAndLanes($0).first } == ["output did not emit the expected marbles:", "output did not emit the expected marbles:"])
    }
}
