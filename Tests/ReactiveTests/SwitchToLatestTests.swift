import Testing
@testable import Reactive

@Suite struct SwitchToLatestTests {
    /// The brief's worked example: each new inner cancels the previous one first.
    @Test func followsTheLatestInner() {
        let bench = Bench()
        let innerLog = SubscriptionLog()
        let inner = bench.cold("---x|", log: innerLog)
        let pipeline = bench.hot("-a-b--------c---|").map { _ in inner }.switchToLatest()
        #expect(bench.run(pipeline) == "------x--------x|")
        #expect(render(innerLog) == ["-^-!", "---^---!", "------------^---!"])
    }

    @Test func finishesWhenUpstreamFinishesWithNoActiveInner() {
        let bench = Bench()
        let pipeline = bench.hot("-a------|").map { _ in bench.cold("-x|") }.switchToLatest()
        #expect(bench.run(pipeline) == "--x-----|")
    }

    @Test func waitsForTheCurrentInnerAfterUpstreamFinished() {
        let bench = Bench()
        let outerLog = SubscriptionLog()
        let pipeline = bench.hot("-a-|", log: outerLog).map { _ in bench.cold("----x|") }.switchToLatest()
        #expect(bench.run(pipeline) == "-----x|")
        #expect(render(outerLog) == ["^--!"])
    }

    @Test func anInnerFailureCancelsUpstream() {
        let bench = Bench()
        let outerLog = SubscriptionLog()
        let pipeline = bench.hot("-a-----|", log: outerLog).map { _ in bench.cold("-x-#") }.switchToLatest()
        #expect(bench.run(pipeline) == "--x-#")
        #expect(render(outerLog) == ["^---!"])
    }

    @Test func anUpstreamFailureCancelsTheInner() {
        let bench = Bench()
        let innerLog = SubscriptionLog()
        let pipeline = bench.hot("-a--#").map { _ in bench.cold("-x-----|", log: innerLog) }.switchToLatest()
        #expect(bench.run(pipeline) == "--x-#")
        #expect(render(innerLog) == ["-^--!"])
    }

    @Test func cancellationReachesUpstreamAndTheInner() {
        let bench = Bench()
        let outerLog = SubscriptionLog(), innerLog = SubscriptionLog()
        let pipeline = bench.hot("-a-----|", log: outerLog).map { _ in bench.cold("-x-y-|", log: innerLog) }.switchToLatest()
        #expect(bench.run(pipeline, cancelAt: 3) == "--x")
        #expect(render(outerLog) == ["^--!"])
        #expect(render(innerLog) == ["-^-!"])
    }

    /// Upstream is asked for everything; downstream demand goes to the current inner, and a new
    /// inner is asked for the demand still outstanding.
    @Test func outstandingDemandCarriesOverToTheNextInner() {
        let bench = Bench()
        let pipeline = bench.hot("-a----b----------|").map { value in bench.cold("-\(value)--\(value)--\(value)|") }.switchToLatest()
        // Two a's use two of the three; b's inner gets the one left, then waits for the request at 15.
        #expect(bench.run(pipeline, initialDemand: .max(3), requests: [(15, .max(5))]) == "--a--a-b-------(bb)-|")
    }

    /// Combine's iOS 14 overloads lift a `Never` failure on either side.
    @Test func neverFailingSidesTakeTheOtherSidesFailureType() {
        let bench = Bench()
        #expect(bench.run(Just(bench.cold("-x|")).switchToLatest()) == "-x|")
        let bench2 = Bench()
        #expect(bench2.run(bench2.hot("-a-#").map { Just($0) }.switchToLatest()) == "-a-#")
        #expect(Bench().run(Just(Just("x")).switchToLatest()) == "(x|)")
    }
}
