extension Publishers {
    /// Drops upstream's values until `other` emits a value, then passes them through.
    ///
    /// Downstream gets its subscription first, then `other` is subscribed and asked for
    /// `.max(1)`, then upstream. Dropped values still use up downstream demand. If `other`
    /// completes (finished or failed) before emitting, that completion is forwarded and
    /// upstream is cancelled; after it has emitted, `other` is let go without being cancelled
    /// and its completion is ignored (OpenCombine `Publishers.DropUntilOutput.swift`, whose tests also
    /// run against Combine).
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher where Upstream.Failure == Other.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let other: Other

        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let link = DropUntilOutputLink<Upstream.Output, Other.Output, S>(downstream: subscriber)
            subscriber.receive(subscription: link)
            other.receive(subscriber: UntilOutputTrigger(
                onSubscription: link.triggerReceive(subscription:),
                onValue: link.triggerReceiveValue,
                onCompletion: link.triggerReceive(completion:)))
            upstream.receive(subscriber: link)
        }
    }
}

extension Publisher {
    /// Drops values until `publisher` emits; if `publisher` completes first, that completion ends the stream.
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P> where P.Failure == Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

private final class DropUntilOutputLink<Input, TriggerOutput, Downstream: Subscriber>: Subscriber, Subscription where Downstream.Input == Input {
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private var upstream: (any Subscription)?
    private var trigger: (any Subscription)?
    private var hasTriggerSubscription = false
    private var triggered = false
    private var demand: Subscribers.Demand = .none
    private var isTerminated = false

    init(downstream: Downstream) { self.downstream = downstream }

    func receive(subscription: any Subscription) {
        guard upstream == nil, !isTerminated else { subscription.cancel(); return }
        upstream = subscription
        if demand > 0 { subscription.request(demand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard !isTerminated else { return .none }
        guard triggered else {
            demand -= 1
            return .none
        }
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard !isTerminated else { return }
        isTerminated = true
        upstream = nil
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        guard !isTerminated, demand > 0 else { return }
        self.demand += demand
        upstream?.request(demand)
    }

    func cancel() {
        guard !isTerminated else { return }
        isTerminated = true
        let upstream = self.upstream
        let trigger = self.trigger
        self.upstream = nil
        self.trigger = nil
        upstream?.cancel()
        trigger?.cancel()
    }

    func triggerReceive(subscription: any Subscription) {
        guard !hasTriggerSubscription, !isTerminated else { subscription.cancel(); return }
        hasTriggerSubscription = true
        trigger = subscription
        subscription.request(.max(1))
    }

    func triggerReceiveValue(_ value: TriggerOutput) {
        guard !isTerminated else { return }
        triggered = true
        trigger = nil
    }

    func triggerReceive(completion: Subscribers.Completion<Failure>) {
        guard !isTerminated, !triggered else { return }
        trigger = nil
        isTerminated = true
        let upstream = self.upstream
        self.upstream = nil
        upstream?.cancel()
        downstream.receive(completion: completion)
    }
}
