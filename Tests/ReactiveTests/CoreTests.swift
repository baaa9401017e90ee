import Testing
@testable import Reactive

@Suite struct SourceTests {
    @Test func coldTimelineReplaysPerSubscriptionAndBuffersWithoutDemand() {
        let bench = Bench()
        let log = SubscriptionLog()
        let cold = bench.cold("-a-b|", log: log)
        #expect(bench.run(cold, initialDemand: .none, subscribeAt: 2, requests: [(6, .max(5))]) == "------(ab|)")
        #expect(render(log) == ["--^---!"])
    }

    @Test func justSequenceEmptyFail() {
        #expect(Bench().run(Just("x")) == "(x|)")
        #expect(Bench().run(["a", "b"].publisher) == "(ab|)")
        #expect(Bench().run(Empty<String, Never>()) == "|")
        #expect(Bench().run(Empty<String, Never>(completeImmediately: false)) == "")
        #expect(Bench().run(Fail<String, TestFailure>(error: TestFailure())) == "#")
    }

    @Test func sequenceFollowsDemandAndFinishesRightAfterTheLastElement() {
        let bench = Bench()
        #expect(bench.run(["a", "b", "c"].publisher, initialDemand: .max(1), requests: [(2, .max(2))]) == "a-(bc|)")
    }

    @Test func recorderLogsCancellation() {
        let bench = Bench()
        let log = SubscriptionLog()
        let hot = bench.hot("-a-b-c-|", log: log)
        #expect(bench.run(hot, subscribeAt: 2, cancelAt: 4) == "---b")
        #expect(render(log) == ["--^-!"])
    }
}
