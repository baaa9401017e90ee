// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Testing
@testable import Reactive

@Suite struct SwitchToLatestTests {
    /// The brief's worked example: each new inner cancels the previous one first.
    @Test func followsTheLatestInner() {
        let scheduler = TestScheduler()
        let inner = scheduler.cold("---x|")
        scheduler.expect(scheduler.hot("-a-b--------c---|").map { _ in inner }.switchToLatest(), "------x--------x|")
        scheduler.expect(inner.subscriptions, "-^-!", "---^---!", "------------^---!")
        scheduler.run()
    }

    @Test func finishesWhenUpstreamFinishesWithNoActiveInner() {
        let scheduler = TestScheduler()
        let inner = scheduler.cold("-x|")
        scheduler.expect(scheduler.hot("-a------|").map { _ in inner }.switchToLatest(), "--x-----|")
        scheduler.run()
    }

    @Test func waitsForTheCurrentInnerAfterUpstreamFinished() {
        let scheduler = TestScheduler()
        let outer = scheduler.hot("-a-|"), inner = scheduler.cold("----x|")
        scheduler.expect(outer.map { _ in inner }.switchToLatest(), "-----x|")
        scheduler.expect(outer.subscriptions, "^--!")
        scheduler.run()
    }

    @Test func anInnerFailureCancelsUpstream() {
        let scheduler = TestScheduler()
        let outer = scheduler.failingHot("-a-----|"), inner = scheduler.failingCold("-x-#")
        scheduler.expect(outer.map { _ in inner }.switchToLatest(), "--x-#", error: TestFailure())
        scheduler.expect(outer.subscriptions, "^---!")
        scheduler.run()
    }

    @Test func anUpstreamFailureCancelsTheInner() {
        let scheduler = TestScheduler()
        let inner = scheduler.failingCold("-x-----|")
        scheduler.expect(scheduler.failingHot("-a--#").map { _ in inner }.switchToLatest(), "--x-#", error: TestFailure())
        scheduler.expect(inner.subscriptions, "-^--!")
        scheduler.run()
    }

    @Test func cancellationReachesUpstreamAndTheInner() {
        let scheduler = TestScheduler()
        let outer = scheduler.hot("-a-----|"), inner = scheduler.cold("-x-y-|")
        scheduler.expect(outer.map { _ in inner }.switchToLatest(), "--x", subscription: "^--!")
        scheduler.expect(outer.subscriptions, "^--!")
        scheduler.expect(inner.subscriptions, "-^-!")
        scheduler.run()
    }

    /// Upstream is asked for everything; downstream demand goes to the current inner, and a new
    /// inner is asked for the demand still outstanding.
    @Test func outstandingDemandCarriesOverToTheNextInner() {
        let scheduler = TestScheduler()
        let outer = scheduler.hot("-a----b----------|"), a = scheduler.cold("-a--a--a|"), b = scheduler.cold("-b--b--b|")
        // Two a's use two of the three; b's inner gets the one left, then waits for the request at 15.
        scheduler.expect(outer.map { $0 == "a" ? a : b }.switchToLatest(), "--a--a-b-------(bb)-|", demand: "3--------------5")
        scheduler.expect(outer.requests, "*")
        scheduler.expect(a.requests, "-3")
        scheduler.expect(b.requests, "------1--------5")
        scheduler.run()
    }

    /// Combine's iOS 14 overloads lift a `Never` failure on either side.
    @Test func neverFailingSidesTakeTheOtherSidesFailureType() {
        let scheduler = TestScheduler()
        scheduler.expect(Just(scheduler.failingCold("-x|")).switchToLatest(), "-x|")
        scheduler.expect(scheduler.failingHot("-a-#").map { Just($0) }.switchToLatest(), "-a-#", error: TestFailure())
        scheduler.expect(Just(Just("x")).switchToLatest(), "(x|)")
        scheduler.run()
    }
}
#endif
