import Testing
@testable import Reactive

@Suite struct CombineLatestTests {
    @Test func emitsTheLatestOfEachOnceAllHaveAValue() {
        let bench = Bench()
        let pipeline = bench.hot("-a---c-|").combineLatest(bench.cold("--b-d|")) { $0 + $1 }
        #expect(bench.runListingEvents(pipeline) == ["2:ab", "4:ad", "5:cd", "7:|"])
    }

    @Test func outputIsATuple() {
        let bench = Bench()
        let pipeline = Publishers.CombineLatest(bench.cold("-a|"), bench.cold("--b|")).map { (pair: (String, String)) in pair.0.uppercased() + pair.1 }
        #expect(bench.runListingEvents(pipeline) == ["2:Ab", "3:|"])
    }

    @Test func waitsForEveryUpstreamToFinishEvenOneThatNeverEmitted() {
        let bench = Bench()
        let aLog = SubscriptionLog(), bLog = SubscriptionLog()
        let pipeline = bench.cold("-a|", log: aLog).combineLatest(bench.cold("----|", log: bLog))
        #expect(bench.run(pipeline) == "----|")
        #expect(render(aLog) == ["^-!"])
        #expect(render(bLog) == ["^---!"])
    }

    @Test func neverFinishesWhileOneUpstreamIsStillActive() {
        let bench = Bench()
        let pipeline = bench.cold("-a|").combineLatest(bench.cold("--b-")) { $0 + $1 }
        #expect(bench.runListingEvents(pipeline) == ["2:ab"])
    }

    @Test func keepsCombiningAfterOneUpstreamFinished() {
        let bench = Bench()
        let pipeline = bench.cold("-a|").combineLatest(bench.cold("--b-c-|"), bench.cold("-x-y---|")) { $0 + $1 + $2 }
        #expect(bench.runListingEvents(pipeline) == ["2:abx", "3:aby", "4:acy", "7:|"])
    }

    @Test func aFailureCancelsTheOthers() {
        let bench = Bench()
        let aLog = SubscriptionLog(), bLog = SubscriptionLog(), cLog = SubscriptionLog()
        let pipeline = bench.cold("-a--#", log: aLog).combineLatest(bench.hot("--b----|", log: bLog), bench.cold("c------|", log: cLog)) { $0 + $1 + $2 }
        #expect(bench.runListingEvents(pipeline) == ["2:abc", "4:#error"])
        #expect(render(aLog) == ["^---!"])
        #expect(render(bLog) == ["^---!"])
        #expect(render(cLog) == ["^---!"])
    }

    @Test func aFailureWhileSubscribingIsDeliveredAfterTheSubscription() {
        let bench = Bench()
        let bLog = SubscriptionLog()
        let pipeline = Fail<String, TestFailure>(error: TestFailure()).combineLatest(bench.cold("-b|", log: bLog))
        #expect(bench.run(pipeline) == "#")
        #expect(render(bLog) == ["(^!)"])
        #expect(Bench().run(Empty<String, TestFailure>().combineLatest(Empty<String, TestFailure>())) == "|")
    }

    @Test func cancellationReachesEveryUpstream() {
        let bench = Bench()
        let aLog = SubscriptionLog(), bLog = SubscriptionLog()
        let pipeline = bench.hot("-a-c---|", log: aLog).combineLatest(bench.cold("--b-d-|", log: bLog)) { $0 + $1 }
        #expect(bench.runListingEvents(pipeline, cancelAt: 4) == ["2:ab", "3:cb"])
        #expect(render(aLog) == ["^---!"])
        #expect(render(bLog) == ["^---!"])
    }

    /// Each downstream request goes to every upstream; a combination that arises while
    /// downstream has no demand is dropped, and a later request does not bring it back.
    @Test func dropsCombinationsWithoutDemand() {
        let bench = Bench()
        let pipeline = bench.hot("-a-c---|").combineLatest(bench.hot("--b--d-|")) { $0 + $1 }
        #expect(bench.runListingEvents(pipeline, initialDemand: .max(2), requests: [(6, .max(1))]) == ["2:ab", "3:cb", "7:|"])
    }

    @Test func upstreamsOnlyGetWhatDownstreamAsksFor() {
        let bench = Bench()
        // Both hot upstreams were asked for one value each: c and d are dropped by the subjects.
        let pipeline = bench.hot("-a-c--e-|").combineLatest(bench.hot("--b-d--f|")) { $0 + $1 }
        #expect(bench.runListingEvents(pipeline, initialDemand: .max(1), requests: [(5, .max(1))]) == ["2:ab", "6:eb", "8:|"])
    }

    @Test func fourUpstreams() {
        let bench = Bench()
        let pipeline = Publishers.CombineLatest4(bench.cold("a|"), bench.cold("-b|"), bench.cold("--c|"), bench.cold("---d-e|"))
            .map { $0.0 + $0.1 + $0.2 + $0.3 }
        #expect(bench.runListingEvents(pipeline) == ["3:abcd", "5:abce", "6:|"])
        let bench3 = Bench()
        let three = Publishers.CombineLatest3(bench3.cold("a|"), bench3.cold("-b|"), bench3.cold("--c|")).map { $0.0 + $0.1 + $0.2 }
        #expect(bench3.runListingEvents(three) == ["2:abc", "3:|"])
        let bench4 = Bench()
        let viaOperator = bench4.cold("a|").combineLatest(bench4.cold("b|"), bench4.cold("c|"), bench4.cold("-d|")) { $0 + $1 + $2 + $3 }
        #expect(bench4.runListingEvents(viaOperator) == ["1:abcd", "2:|"])
        let bench5 = Bench()
        let plain = bench5.cold("a|").combineLatest(bench5.cold("b|"), bench5.cold("c|")).map { $0.0 + $0.1 + $0.2 }
        #expect(bench5.runListingEvents(plain) == ["0:abc", "1:|"])
    }
}
