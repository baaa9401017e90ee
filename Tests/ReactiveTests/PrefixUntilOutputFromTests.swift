import Testing
@testable import Reactive

@Suite struct PrefixUntilOutputTests {
    /// The trigger's value finishes the stream and cancels upstream; the trigger itself is only
    /// let go (its subscription ends with its own completion).
    @Test func finishesWhenTheTriggerEmits() {
        let bench = Bench()
        let upstreamLog = SubscriptionLog(), triggerLog = SubscriptionLog()
        let pipeline = bench.hot("-a-b-c-|", log: upstreamLog).prefix(untilOutputFrom: bench.hot("----x-|", log: triggerLog))
        #expect(bench.run(pipeline) == "-a-b|")
        #expect(render(upstreamLog) == ["^---!"])
        #expect(render(triggerLog) == ["^-----!"])
    }

    @Test func theTriggersCompletionIsIgnored() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b-c-|").prefix(untilOutputFrom: bench.hot("--|"))) == "-a-b-c-|")
        let bench2 = Bench()
        #expect(bench2.run(bench2.hot("-a-b-c-|").prefix(untilOutputFrom: bench2.hot("--#"))) == "-a-b-c-|")
    }

    @Test func upstreamCompletionCancelsTheTrigger() {
        let bench = Bench()
        let triggerLog = SubscriptionLog()
        #expect(bench.run(bench.cold("-a-#").prefix(untilOutputFrom: bench.hot("-------x|", log: triggerLog))) == "-a-#")
        #expect(render(triggerLog) == ["^--!"])
    }

    @Test func cancellationReachesUpstreamAndTrigger() {
        let bench = Bench()
        let upstreamLog = SubscriptionLog(), triggerLog = SubscriptionLog()
        let pipeline = bench.hot("-a-b-c-|", log: upstreamLog).prefix(untilOutputFrom: bench.cold("-----x|", log: triggerLog))
        #expect(bench.run(pipeline, cancelAt: 2) == "-a")
        #expect(render(upstreamLog) == ["^-!"])
        #expect(render(triggerLog) == ["^-!"])
    }

    @Test func theTriggerIsAskedForOneValueAndSubscribedFirst() {
        let bench = Bench()
        let triggerLog = SubscriptionLog()
        var order: [String] = []
        // Made outside the closures: the pipeline holds them, and a closure holding the bench
        // would keep it (and so everything it made) alive.
        let (upstreamTimeline, triggerTimeline) = (bench.cold("-a-b-|"), bench.cold("xy|", log: triggerLog))
        let upstream = Deferred { () -> SubscriptionRecorder<ColdTimeline<String, TestFailure>> in
            order.append("upstream")
            return upstreamTimeline
        }
        weak var triggerSubscription: (any Subscription)?
        let trigger = AnyPublisher<String, TestFailure> { subscriber in
            order.append("trigger")
            triggerTimeline.subscribe(HandingOver(subscriber) { triggerSubscription = $0 })
        }
        // The trigger's cold timeline buffers y: only one value was asked for.
        #expect(bench.run(upstream.prefix(untilOutputFrom: trigger)) == "|")
        #expect(order == ["trigger", "upstream"])
        // Never asked for more and never cancelled, the trigger's subscription stays open.
        #expect(render(triggerLog) == ["^"])
        // Let go, not cancelled, it would hold itself and what it feeds after the test.
        triggerSubscription?.cancel()
    }

    /// When the trigger fires before upstream has handed over its subscription, downstream gets
    /// `.finished` at once and upstream's subscription is cancelled on arrival (Combine, OC
    /// `testTerminatorEmitsValueBeforeUpstreamSendsSubscription`).
    @Test func aTriggerFiringDuringSubscribeFinishesAtOnce() {
        let bench = Bench()
        let upstreamLog = SubscriptionLog()
        #expect(bench.run(bench.cold("-a|", log: upstreamLog).prefix(untilOutputFrom: Just("x").setFailureType(to: TestFailure.self))) == "|")
        #expect(render(upstreamLog) == ["(^!)"])
    }

    @Test func demandPassesThrough() {
        let bench = Bench()
        #expect(bench.run(bench.cold("abc|").prefix(untilOutputFrom: bench.hot("-----x|")), initialDemand: .max(1), requests: [(3, .max(1))]) == "a--b-|")
    }
}

/// Hands the subscription it gets to `downstream` as it is (no link in between) and tells
/// `handOver` of it: a test can then end a subscription an operator let go.
private final class HandingOver<Input, Failure: Error>: Subscriber {
    private let downstream: AnySubscriber<Input, Failure>
    private let handOver: (any Subscription) -> Void

    init(_ downstream: AnySubscriber<Input, Failure>, handOver: @escaping (any Subscription) -> Void) {
        self.downstream = downstream
        self.handOver = handOver
    }

    func receive(subscription: any Subscription) {
        handOver(subscription)
        downstream.receive(subscription: subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }

    func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}
