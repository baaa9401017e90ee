extension Publishers {
    /// Drops upstream's values until `other` emits a value, then passes them through.
    ///
    /// Downstream gets its subscription first, then `other` is subscribed and asked for
    /// `.max(1)`, then upstream. Dropped values still use up downstream demand. If `other`
    /// completes (finished or failed) before emitting, that completion is forwarded and
    /// upstream is cancelled; after it has emitted, `other` is let go without being cancelled
    /// and its completion is ignored (OC `Publishers.DropUntilOutput.swift`, whose tests also
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

    /// Passes upstream's values until `other` emits a value, then finishes and cancels upstream.
    ///
    /// `other` is subscribed first and asked for `.max(1)`, then upstream; downstream gets its
    /// subscription when upstream hands over its own. `other`'s completion (finished or failed)
    /// is ignored and upstream keeps flowing; after it has emitted, `other` is let go without
    /// being cancelled. If `other` emits before upstream's subscription arrives, downstream gets
    /// `.finished` at once and upstream's subscription is cancelled on arrival (OC
    /// `Publishers.PrefixUntilOutput.swift` and its Combine-checked tests).
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let other: Other

        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let link = PrefixUntilOutputLink<S>(downstream: subscriber)
            other.receive(subscriber: UntilOutputTrigger<Other.Output, Other.Failure>(
                onSubscription: link.triggerReceive(subscription:),
                onValue: { _ in link.triggerFired() },
                onCompletion: { _ in link.triggerCompleted() }))
            upstream.receive(subscriber: link)
        }
    }
}

extension Publisher {
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P> where P.Failure == Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }

    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

/// The trigger publisher's subscriber: forwards to closures.
private final class UntilOutputTrigger<Input, Failure: Error>: Subscriber {
    private let onSubscription: (any Subscription) -> Void
    private let onValue: (Input) -> Void
    private let onCompletion: (Subscribers.Completion<Failure>) -> Void

    init(onSubscription: @escaping (any Subscription) -> Void, onValue: @escaping (Input) -> Void, onCompletion: @escaping (Subscribers.Completion<Failure>) -> Void) {
        self.onSubscription = onSubscription
        self.onValue = onValue
        self.onCompletion = onCompletion
    }

    func receive(subscription: any Subscription) { onSubscription(subscription) }
    func receive(_ input: Input) -> Subscribers.Demand {
        onValue(input)
        return .none
    }
    func receive(completion: Subscribers.Completion<Failure>) { onCompletion(completion) }
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
        // A trigger still waiting is not cancelled (Combine), but it is let go: the link never
        // uses it again, and holding it would keep the trigger's chain and this link (which
        // that chain's subscriber refers to) alive for each other.
        trigger = nil
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

private final class PrefixUntilOutputLink<Downstream: Subscriber>: OperatorLink<Downstream.Input, Downstream.Failure, Downstream> {
    private var trigger: (any Subscription)?
    private var hasTriggerSubscription = false
    /// The trigger fired before upstream's subscription arrived.
    private var firedEarly = false

    override func receive(subscription: any Subscription) {
        guard !firedEarly else { subscription.cancel(); return }
        super.receive(subscription: subscription)
    }

    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        isTerminated ? .none : downstream.receive(input)
    }

    override func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard terminate() else { return }
        let trigger = self.trigger
        self.trigger = nil
        trigger?.cancel()
        downstream.receive(completion: completion)
    }

    override func cancel() {
        guard !isTerminated else { return }
        super.cancel()
        let trigger = self.trigger
        self.trigger = nil
        trigger?.cancel()
    }

    func triggerReceive(subscription: any Subscription) {
        guard !hasTriggerSubscription, !isTerminated, !firedEarly else { subscription.cancel(); return }
        hasTriggerSubscription = true
        trigger = subscription
        subscription.request(.max(1))
    }

    func triggerFired() {
        guard trigger != nil, !isTerminated, !firedEarly else { return }
        trigger = nil
        if upstream == nil { firedEarly = true }
        cancel()
        downstream.receive(completion: .finished)
    }

    /// Combine ignores the trigger's completion; it just lets the trigger go.
    func triggerCompleted() {
        trigger = nil
    }
}
