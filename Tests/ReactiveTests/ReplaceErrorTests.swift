import Testing
@testable import Reactive

@Suite struct ReplaceErrorTests {
    @Test func replacesAFailureWithAValueAndFinish() {
        let bench = Bench()
        #expect(bench.run(bench.cold("-a-#").replaceError(with: "r")) == "-a-(r|)")
        let bench2 = Bench()
        #expect(bench2.run(bench2.cold("-a-|").replaceError(with: "r")) == "-a-|")
    }

    @Test func theReplacementWaitsForDemand() {
        let bench = Bench()
        let log = SubscriptionLog()
        let pipeline = bench.cold("-a-#", log: log).replaceError(with: "r")
        #expect(bench.run(pipeline, initialDemand: .max(1), requests: [(5, .max(1))]) == "-a---(r|)")
        #expect(render(log) == ["^--!"])
    }

    @Test func cancellationReachesUpstream() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-#", log: log).replaceError(with: "r"), cancelAt: 4) == "-a-b")
        #expect(render(log) == ["^---!"])
    }
}

@Suite struct ReplaceEmptyTests {
    @Test func replacesAnEmptyFinish() {
        let bench = Bench()
        #expect(bench.run(bench.cold("---|").replaceEmpty(with: "r")) == "---(r|)")
        let bench2 = Bench()
        #expect(bench2.run(bench2.cold("-a-|").replaceEmpty(with: "r")) == "-a-|")
    }

    @Test func aFailurePassesUnchanged() {
        let bench = Bench()
        #expect(bench.run(bench.cold("--#").replaceEmpty(with: "r")) == "--#")
    }

    @Test func theReplacementWaitsForARequest() {
        let bench = Bench()
        #expect(bench.run(bench.cold("--|").replaceEmpty(with: "r"), initialDemand: .none, requests: [(4, .max(1))]) == "----(r|)")
    }

    /// Combine asks upstream for `.unlimited` right after handing downstream its subscription
    /// (OC compatibility test `testDemand`), so limited downstream demand does not hold upstream back.
    @Test func upstreamIsAskedForEverything() {
        let bench = Bench()
        #expect(bench.run(bench.cold("abc|").replaceEmpty(with: "r"), initialDemand: .max(1)) == "abc|")
    }

    @Test func cancellationReachesUpstream() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-----|", log: log).replaceEmpty(with: "r"), cancelAt: 3) == "")
        #expect(render(log) == ["^--!"])
    }
}

@Suite struct SetFailureTypeTests {
    @Test func passesThroughWithTheNewFailureType() {
        let bench = Bench()
        let pipeline = Just("x").setFailureType(to: TestFailure.self).merge(with: bench.cold("-#"))
        #expect(bench.run(pipeline) == "x#")
        let bench2 = Bench()
        let retyped = ["a", "b"].publisher.setFailureType(to: TestFailure.self).setFailureType(to: TestFailure.self)
        #expect(bench2.run(retyped, initialDemand: .max(1), requests: [(2, .max(1))]) == "a-(b|)")
    }
}
