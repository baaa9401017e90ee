import Testing
@testable import Reactive

@Suite struct FlatMapTests {
    @Test func mergesTheInnersAsTheyArrive() {
        let bench = Bench()
        let pipeline = bench.hot("-a-b----|").flatMap { value in bench.cold("-\(value)-\(value.uppercased())|") }
        #expect(bench.run(pipeline) == "--a-(Ab)-B-|")
    }

    /// The brief's worked example: with `maxPublishers: .max(1)` and a hot upstream, b arrives
    /// while the first inner is active and is dropped (the subject has no demand for it).
    @Test func maxPublishersDropsHotValuesWhileBusy() {
        let bench = Bench()
        let outerLog = SubscriptionLog(), innerLog = SubscriptionLog()
        let inner = bench.cold("---x|", log: innerLog)
        let pipeline = bench.hot("-a-b--------c---|", log: outerLog).flatMap(maxPublishers: .max(1)) { _ in inner }
        #expect(bench.run(pipeline) == "----x----------x|")
        #expect(render(innerLog) == ["-^---!", "------------^---!"])
        #expect(render(outerLog) == ["^---------------!"])
    }

    @Test func unlimitedPublishersRunConcurrently() {
        let bench = Bench()
        let inner = bench.cold("---x|")
        let pipeline = bench.hot("-a-b--------c---|").flatMap { _ in inner }
        #expect(bench.run(pipeline) == "----x-x--------x|")
    }

    @Test func finishesWhenUpstreamAndEveryInnerHaveFinished() {
        let bench = Bench()
        let pipeline = bench.cold("ab|").flatMap { value in bench.cold(value == "a" ? "----a|" : "-b|") }
        #expect(bench.run(pipeline) == "--b-a|")
        let bench2 = Bench()
        let innersFirst = bench2.cold("a----|").flatMap { _ in bench2.cold("-x|") }
        #expect(bench2.run(innersFirst) == "-x---|")
    }

    @Test func anUpstreamFailureCancelsTheInners() {
        let bench = Bench()
        let innerLog = SubscriptionLog()
        let pipeline = bench.cold("a--#").flatMap { _ in bench.cold("-x----|", log: innerLog) }
        #expect(bench.run(pipeline) == "-x-#")
        #expect(render(innerLog) == ["^--!"])
    }

    /// An inner failure cancels the other inners but not the upstream subscription (Combine,
    /// OC `testAllSubscriptionsReleasedOnChildFailure`); later upstream values are ignored.
    @Test func anInnerFailureCancelsTheOtherInnersButNotUpstream() {
        let bench = Bench()
        let outerLog = SubscriptionLog(), innerLog = SubscriptionLog()
        let pipeline = bench.hot("-a-b--c--|", log: outerLog).flatMap { value in
            bench.cold(value == "b" ? "-#" : "-x------|", log: innerLog)
        }
        #expect(bench.run(pipeline) == "--x-#")
        #expect(render(innerLog) == ["-^--!", "---^!"])
        #expect(render(outerLog) == ["^--------!"])
    }

    @Test func cancellationReachesUpstreamAndEveryInner() {
        let bench = Bench()
        let outerLog = SubscriptionLog(), innerLog = SubscriptionLog()
        let pipeline = bench.hot("-ab-----|", log: outerLog).flatMap { _ in bench.cold("-x-y-|", log: innerLog) }
        #expect(bench.run(pipeline, cancelAt: 4) == "--xx")
        #expect(render(outerLog) == ["^---!"])
        #expect(render(innerLog) == ["-^--!", "--^-!"])
    }

    /// With limited downstream demand each inner is asked for one value at a time and a value
    /// that arrives without demand waits in a FIFO buffer; the finish waits for the buffer.
    @Test func limitedDemandBuffersInnerValues() {
        let bench = Bench()
        let pipeline = bench.cold("ab|").flatMap { value in bench.cold(value == "a" ? "-1-2|" : "-3|") }
        #expect(bench.run(pipeline, initialDemand: .max(1), requests: [(5, .max(1)), (6, .max(2))]) == "-1---3(2|)")
    }

    @Test func flatMapToASynchronousPublisher() {
        let bench = Bench()
        let pipeline = bench.hot("-a-b-|").flatMap { value in [value, value.uppercased()].publisher.setFailureType(to: TestFailure.self) }
        #expect(bench.run(pipeline) == "-(aA)-(bB)-|")
    }

    /// Combine's iOS 14 overloads lift a `Never` failure on either side.
    @Test func neverFailingSidesTakeTheOtherSidesFailureType() {
        let bench = Bench()
        let innerCannotFail: Publishers.FlatMap<Publishers.SetFailureType<Just<String>, TestFailure>, SubscriptionRecorder<PassthroughSubject<String, TestFailure>>> =
            bench.hot("-a-b-|").flatMap { Just($0.uppercased()) }
        #expect(bench.run(innerCannotFail) == "-A-B-|")
        let bench2 = Bench()
        let outerCannotFail: Publishers.FlatMap<SubscriptionRecorder<ColdTimeline<String, TestFailure>>, Publishers.SetFailureType<Just<String>, TestFailure>> =
            Just("a").flatMap { _ in bench2.cold("-x|") }
        #expect(bench2.run(outerCannotFail) == "-x|")
        let neither: Publishers.FlatMap<Just<String>, Just<String>> = Just("a").flatMap { Just($0.uppercased()) }
        #expect(Bench().run(neither) == "(A|)")
    }
}
