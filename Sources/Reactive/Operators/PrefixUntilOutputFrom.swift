extension Publishers {
    /// Passes upstream's values until `other` emits a value, then finishes and cancels upstream.
    ///
    /// `other` is subscribed first and asked for `.max(1)`, then upstream; downstream gets its
    /// subscription when upstream hands over its own. `other`'s completion (finished or failed)
    /// is ignored and upstream keeps flowing; after it has emitted, `other` is let go without
    /// being cancelled. If `other` emits before upstream's subscription arrives, downstream gets
    /// `.finished` at once and upstream's subscription is cancelled on arrival (OpenCombine
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
    /// Forwards values until `publisher` emits, then finishes and cancels upstream; `publisher` completing changes nothing.
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
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
