import Testing
@testable import Reactive

@Suite struct DropUntilOutputTests {
    /// Values before the trigger's first value are dropped; the trigger is then let go, not cancelled.
    @Test func dropsUntilTheTriggerEmits() {
        let bench = Bench()
        let triggerLog = SubscriptionLog()
        let pipeline = bench.hot("-a-b-c-|").drop(untilOutputFrom: bench.cold("----x--|", log: triggerLog))
        #expect(bench.run(pipeline) == "-----c-|")
        #expect(render(triggerLog) == ["^------!"])
    }

    @Test func aTriggerFinishingFirstFinishesAndCancelsUpstream() {
        let bench = Bench()
        let upstreamLog = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-c-|", log: upstreamLog).drop(untilOutputFrom: bench.cold("--|"))) == "--|")
        #expect(render(upstreamLog) == ["^-!"])
    }

    @Test func aTriggerFailureIsForwarded() {
        let bench = Bench()
        let upstreamLog = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-c-|", log: upstreamLog).drop(untilOutputFrom: bench.cold("--#"))) == "--#")
        #expect(render(upstreamLog) == ["^-!"])
    }

    @Test func theTriggersCompletionAfterItsValueIsIgnored() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b-c-|").drop(untilOutputFrom: bench.cold("-x-#"))) == "---b-c-|")
    }

    @Test func anUpstreamFailureIsForwarded() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-#").drop(untilOutputFrom: bench.cold("-x|"))) == "---#")
    }

    /// Dropped values still use up downstream demand.
    @Test func droppedValuesUseUpDemand() {
        let bench = Bench()
        let pipeline = bench.hot("-a-b-c-d|").drop(untilOutputFrom: bench.cold("--x|"))
        #expect(bench.run(pipeline, initialDemand: .max(2), requests: [(6, .max(1))]) == "---b---d|")
    }

    @Test func cancellationBeforeTheTriggerReachesBoth() {
        let bench = Bench()
        let upstreamLog = SubscriptionLog(), triggerLog = SubscriptionLog()
        let pipeline = bench.hot("-a-b-c-|", log: upstreamLog).drop(untilOutputFrom: bench.cold("-----x|", log: triggerLog))
        #expect(bench.run(pipeline, cancelAt: 2) == "")
        #expect(render(upstreamLog) == ["^-!"])
        #expect(render(triggerLog) == ["^-!"])
    }

    @Test func cancellationAfterTheTriggerReachesUpstreamOnly() {
        let bench = Bench()
        let upstreamLog = SubscriptionLog(), triggerLog = SubscriptionLog()
        let pipeline = bench.hot("-a-b-c-|", log: upstreamLog).drop(untilOutputFrom: bench.cold("-x----|", log: triggerLog))
        #expect(bench.run(pipeline, cancelAt: 4) == "---b")
        #expect(render(upstreamLog) == ["^---!"])
        #expect(render(triggerLog) == ["^-----!"])
    }

    @Test func theTriggerIsSubscribedBeforeUpstream() {
        let bench = Bench()
        var order: [String] = []
        let upstream = Deferred { () -> Just<String> in
            order.append("upstream")
            return Just("a")
        }
        let trigger = Deferred { () -> Just<String> in
            order.append("trigger")
            return Just("x")
        }
        #expect(bench.run(upstream.drop(untilOutputFrom: trigger)) == "(a|)")
        #expect(order == ["trigger", "upstream"])
    }
}
