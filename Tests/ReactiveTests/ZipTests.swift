import Testing
@testable import Reactive

@Suite struct ZipTests {
    @Test func pairsValuesInOrderAndFinishesRightAfterTheLastPossiblePair() {
        let bench = Bench()
        let bLog = SubscriptionLog()
        let pipeline = bench.cold("-a-c-e|").zip(bench.cold("--b--d-f|", log: bLog)) { $0 + $1 }
        // a finishes at 6 still holding e; f completes the last pair at 7 and zip finishes then.
        #expect(bench.runListingEvents(pipeline) == ["2:ab", "5:cd", "7:ef", "7:|"])
        #expect(render(bLog) == ["^------!"])
    }

    @Test func outputIsATuple() {
        let bench = Bench()
        let pipeline = Publishers.Zip(bench.cold("-a|"), bench.cold("--b|")).map { (pair: (String, String)) in pair.0.uppercased() + pair.1 }
        #expect(bench.runListingEvents(pipeline) == ["2:Ab", "2:|"])
    }

    @Test func finishesAsSoonAsAFinishedUpstreamHasAnEmptyQueue() {
        let bench = Bench()
        let aLog = SubscriptionLog(), bLog = SubscriptionLog()
        let pipeline = bench.cold("--|", log: aLog).zip(bench.hot("-b-----|", log: bLog))
        #expect(bench.run(pipeline) == "--|")
        #expect(render(aLog) == ["^-!"])
        #expect(render(bLog) == ["^-!"])
    }

    @Test func aFinishedUpstreamWithSurplusIsDrainedFirst() {
        let bench = Bench()
        let bLog = SubscriptionLog()
        let pipeline = bench.cold("-a|").zip(bench.cold("----b---|", log: bLog)) { $0 + $1 }
        #expect(bench.runListingEvents(pipeline) == ["4:ab", "4:|"])
        #expect(render(bLog) == ["^---!"])
    }

    @Test func aFailureDropsTheQueuesAndCancelsTheOthers() {
        let bench = Bench()
        let aLog = SubscriptionLog(), bLog = SubscriptionLog()
        let pipeline = bench.cold("ab-#", log: aLog).zip(bench.hot("-c----|", log: bLog)) { $0 + $1 }
        #expect(bench.runListingEvents(pipeline) == ["1:ac", "3:#error"])
        #expect(render(aLog) == ["^--!"])
        #expect(render(bLog) == ["^--!"])
    }

    @Test func cancellationReachesEveryUpstream() {
        let bench = Bench()
        let aLog = SubscriptionLog(), bLog = SubscriptionLog(), cLog = SubscriptionLog()
        let pipeline = bench.hot("-a-d---|", log: aLog).zip(bench.cold("b-e-|", log: bLog), bench.cold("--c--f|", log: cLog)) { $0 + $1 + $2 }
        #expect(bench.runListingEvents(pipeline, cancelAt: 4) == ["2:abc"])
        #expect(render(aLog) == ["^---!"])
        #expect(render(bLog) == ["^---!"])
        #expect(render(cLog) == ["^---!"])
    }

    @Test func downstreamDemandIsPassedToEveryUpstream() {
        let bench = Bench()
        let pipeline = bench.cold("ab|").zip(bench.cold("cd|")) { $0 + $1 }
        #expect(bench.runListingEvents(pipeline, initialDemand: .max(1), requests: [(3, .max(1))]) == ["0:ac", "3:bd", "3:|"])
    }

    /// Demand that downstream returns while a tuple is delivered goes only to the upstream whose
    /// value completed the tuple (Combine, OC `testIncreasedDemand`). Here `filter` drops "ac"
    /// and returns `.max(1)`: only the second upstream is asked for more, so "bd" never forms.
    @Test func returnedDemandGoesToTheCompletingUpstreamOnly() {
        let bench = Bench()
        let pipeline = bench.cold("ab|").zip(bench.cold("cd|")) { $0 + $1 }.filter { $0 != "ac" }
        #expect(bench.runListingEvents(pipeline, initialDemand: .max(1)) == [])
    }

    @Test func threeAndFourUpstreams() {
        let bench = Bench()
        let four = Publishers.Zip4(bench.cold("ae|"), bench.cold("-bf|"), bench.cold("c-g|"), bench.cold("--dh|")).map { $0.0 + $0.1 + $0.2 + $0.3 }
        #expect(bench.runListingEvents(four) == ["2:abcd", "3:efgh", "3:|"])
        let bench3 = Bench()
        let three = Publishers.Zip3(bench3.cold("a|"), bench3.cold("-b|"), bench3.cold("--c|")).map { $0.0 + $0.1 + $0.2 }
        #expect(bench3.runListingEvents(three) == ["2:abc", "2:|"])
        let bench4 = Bench()
        let viaOperator = bench4.cold("a|").zip(bench4.cold("b|"), bench4.cold("c|"), bench4.cold("-d|")) { $0 + $1 + $2 + $3 }
        #expect(bench4.runListingEvents(viaOperator) == ["1:abcd", "1:|"])
        let bench5 = Bench()
        let plain = bench5.cold("a-|").zip(bench5.cold("b|"), bench5.cold("c|")).map { $0.0 + $0.1 + $0.2 }
        #expect(bench5.runListingEvents(plain) == ["0:abc", "1:|"])
        let bench6 = Bench()
        let plain4 = bench6.cold("a|").zip(bench6.cold("b|"), bench6.cold("c|"), bench6.cold("d|")).map { $0.0 + $0.1 + $0.2 + $0.3 }
        #expect(bench6.runListingEvents(plain4) == ["0:abcd", "1:|"])
        let bench7 = Bench()
        let three2 = bench7.cold("a|").zip(bench7.cold("b|"), bench7.cold("c|")) { $0 + $1 + $2 }
        #expect(bench7.runListingEvents(three2) == ["0:abc", "1:|"])
    }
}
