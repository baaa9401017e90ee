import Testing
@testable import Reactive

@Suite struct ConcatenateTests {
    @Test func appendValuesAtTheFinishInstant() {
        let bench = Bench()
        #expect(bench.run(bench.cold("-a-|").append("x", "y")) == "-a-(xy|)")
        let bench2 = Bench()
        #expect(bench2.run(bench2.cold("-a-|").append(["x", "y"])) == "-a-(xy|)")
    }

    @Test func appendPublisherSubscribesItWhenThePrefixFinishes() {
        let bench = Bench()
        let suffixLog = SubscriptionLog()
        #expect(bench.run(bench.cold("-a|").append(bench.cold("-b|", log: suffixLog))) == "-a-b|")
        #expect(render(suffixLog) == ["--^-!"])
    }

    @Test func aHotSuffixMissesWhatCameBeforeItsSubscription() {
        let bench = Bench()
        #expect(bench.run(bench.cold("-a|").append(bench.hot("-x-y-|"))) == "-a-y-|")
    }

    @Test func aPrefixFailureNeverSubscribesTheSuffix() {
        let bench = Bench()
        let suffixLog = SubscriptionLog()
        #expect(bench.run(bench.cold("-a#").append(bench.cold("-b|", log: suffixLog))) == "-a#")
        #expect(render(suffixLog) == [])
    }

    @Test func prependValuesComeAtSubscriptionThenUpstream() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.cold("-a|", log: log).prepend("x", "y"), subscribeAt: 2) == "--(xy)a|")
        #expect(render(log) == ["--^-!"])
        let bench2 = Bench()
        #expect(bench2.run(bench2.cold("-a|").prepend(["x"])) == "xa|")
        let bench3 = Bench()
        #expect(bench3.run(bench3.cold("-a|").prepend(bench3.cold("-p|"))) == "-p-a|")
    }

    @Test func outstandingDemandCarriesOverToTheSuffix() {
        let bench = Bench()
        let pipeline = bench.cold("a-|").append(bench.cold("cd|"))
        #expect(bench.run(pipeline, initialDemand: .max(2), requests: [(4, .max(5))]) == "a-c-(d|)")
    }

    /// Demand reaches a hot prefix only as downstream asks: a value sent without it is lost.
    @Test func aHotPrefixLosesValuesSentWithoutDemand() {
        let bench = Bench()
        let pipeline = bench.hot("-a-b-|").append("x")
        #expect(bench.run(pipeline, initialDemand: .none, requests: [(2, .max(1)), (4, .max(5))]) == "---b-(x|)")
    }

    @Test func cancellationReachesTheActivePart() {
        let bench = Bench()
        let prefixLog = SubscriptionLog(), suffixLog = SubscriptionLog()
        let pipeline = bench.cold("-a|", log: prefixLog).append(bench.cold("-b-c|", log: suffixLog))
        #expect(bench.run(pipeline, cancelAt: 4) == "-a-b")
        #expect(render(prefixLog) == ["^-!"])
        #expect(render(suffixLog) == ["--^-!"])
        let bench2 = Bench()
        let prefixLog2 = SubscriptionLog()
        #expect(bench2.run(bench2.cold("-a--|", log: prefixLog2).append("x"), cancelAt: 2) == "-a")
        #expect(render(prefixLog2) == ["^-!"])
    }
}
