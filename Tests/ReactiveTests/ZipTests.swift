// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Testing
@testable import Reactive

@Suite struct ZipTests {
    @Test func pairsValuesInOrderAndFinishesRightAfterTheLastPossiblePair() {
        let scheduler = TestScheduler()
        let a = scheduler.cold("-a-c-e|"), b = scheduler.cold("--b--d-f|")
        // a finishes at 6 still holding e; f completes the last pair at 7 and zip finishes then.
        scheduler.expect(a.zip(b) { $0 + $1 }, "--x--y-(z|)", values: ["x": "ab", "y": "cd", "z": "ef"])
        scheduler.expect(b.subscriptions, "^------!")
        scheduler.run()
    }

    @Test func outputIsATuple() {
        let scheduler = TestScheduler()
        let pipeline = Publishers.Zip(scheduler.cold("-a|"), scheduler.cold("--b|")).map { (pair: (String, String)) in pair.0.uppercased() + pair.1 }
        scheduler.expect(pipeline, "--(x|)", values: ["x": "Ab"])
        scheduler.run()
    }

    @Test func finishesAsSoonAsAFinishedUpstreamHasAnEmptyQueue() {
        let scheduler = TestScheduler()
        let a = scheduler.cold("--|"), b = scheduler.hot("-b-----|")
        scheduler.expect(a.zip(b).map { $0 + $1 }, "--|")
        scheduler.expect(a.subscriptions, "^-!")
        scheduler.expect(b.subscriptions, "^-!")
        scheduler.run()
    }

    @Test func aFinishedUpstreamWithSurplusIsDrainedFirst() {
        let scheduler = TestScheduler()
        let b = scheduler.cold("----b---|")
        scheduler.expect(scheduler.cold("-a|").zip(b) { $0 + $1 }, "----(x|)", values: ["x": "ab"])
        scheduler.expect(b.subscriptions, "^---!")
        scheduler.run()
    }

    @Test func aFailureDropsTheQueuesAndCancelsTheOthers() {
        let scheduler = TestScheduler()
        let a = scheduler.failingCold("ab-#"), b = scheduler.failingHot("-c----|")
        scheduler.expect(a.zip(b) { $0 + $1 }, "-x-#", values: ["x": "ac"], error: TestFailure())
        scheduler.expect(a.subscriptions, "^--!")
        scheduler.expect(b.subscriptions, "^--!")
        scheduler.run()
    }

    @Test func cancellationReachesEveryUpstream() {
        let scheduler = TestScheduler()
        let a = scheduler.hot("-a-d---|"), b = scheduler.cold("b-e-|"), c = scheduler.cold("--c--f|")
        scheduler.expect(a.zip(b, c) { $0 + $1 + $2 }, "--x", values: ["x": "abc"], subscription: "^---!")
        scheduler.expect(a.subscriptions, "^---!")
        scheduler.expect(b.subscriptions, "^---!")
        scheduler.expect(c.subscriptions, "^---!")
        scheduler.run()
    }

    @Test func downstreamDemandIsPassedToEveryUpstream() {
        let scheduler = TestScheduler()
        let a = scheduler.cold("ab|"), b = scheduler.cold("cd|")
        scheduler.expect(a.zip(b) { $0 + $1 }, "x--(y|)", values: ["x": "ac", "y": "bd"], demand: "1--1")
        scheduler.expect(a.requests, "1--1")
        scheduler.expect(b.requests, "1--1")
        scheduler.run()
    }

    /// Demand that downstream returns while a tuple is delivered goes only to the upstream whose
    /// value completed the tuple (Combine, OC `testIncreasedDemand`). Here `filter` drops "ac"
    /// and returns `.max(1)`: only the second upstream is asked for more, so "bd" never forms.
    @Test func returnedDemandGoesToTheCompletingUpstreamOnly() {
        let scheduler = TestScheduler()
        let a = scheduler.cold("ab|"), b = scheduler.cold("cd|")
        scheduler.expect(a.zip(b) { $0 + $1 }.filter { $0 != "ac" }, "-", demand: "1")
        scheduler.expect(a.requests, "1")
        scheduler.run()
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
#endif
