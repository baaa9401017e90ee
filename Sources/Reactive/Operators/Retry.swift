extension Publishers {
    /// On failure, resubscribes to upstream synchronously at the same instant, up to `retries`
    /// times (`nil`: without limit); then forwards the failure. Downstream sees one subscription
    /// and its outstanding demand is requested again from each new upstream subscription
    /// (OpenCombine `Publishers.Retry.swift`).
    ///
    /// `scheduler` is the engine's addition: a source that fails during `subscribe` would make
    /// this loop forever at one instant, so resubscriptions are made in a loop (not by
    /// recursion) and each one is counted with `scheduler.countAction()`; when the run's limits
    /// are exhausted the operator stops silently (the run itself reports the limit). Without a
    /// scheduler, at most `maxSynchronousResubscriptions` resubscriptions are made in one
    /// synchronous burst before the failure is forwarded.
    public struct Retry<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let retries: Int?
        public let scheduler: VirtualTimeScheduler?

        /// The cap on back-to-back synchronous resubscriptions when there is no scheduler.
        public static var maxSynchronousResubscriptions: Int { 100_000 }

        public init(upstream: Upstream, retries: Int?, scheduler: VirtualTimeScheduler? = nil) {
            self.upstream = upstream
            self.retries = retries
            self.scheduler = scheduler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: RetryLink(upstream: upstream, retries: retries, scheduler: scheduler, downstream: subscriber))
        }
    }
}

extension Publisher {
    /// Resubscribes up to `retries` times after a failure. `scheduler` (engine addition) bounds
    /// synchronous resubscription loops by the run's limits.
    public func retry(_ retries: Int, scheduler: VirtualTimeScheduler? = nil) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries, scheduler: scheduler)
    }

    /// Resubscribes after every failure, without limit. `scheduler` (engine addition) bounds
    /// synchronous resubscription loops by the run's limits.
    public func retry(scheduler: VirtualTimeScheduler? = nil) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: nil, scheduler: scheduler)
    }
}

/// One object serves every upstream subscription of a retry.
private final class RetryLink<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private let upstream: Upstream
    private var remaining: Int?
    private let scheduler: VirtualTimeScheduler?
    private let downstream: Downstream
    private var upstreamSubscription: (any Subscription)?
    private var downstreamHasSubscription = false
    private var demand: Subscribers.Demand = .none
    private var isResubscribing = false
    private var needsResubscribe = false
    private var latestFailure: Subscribers.Completion<Failure>?
    private var isTerminated = false

    init(upstream: Upstream, retries: Int?, scheduler: VirtualTimeScheduler?, downstream: Downstream) {
        self.upstream = upstream
        remaining = retries
        self.scheduler = scheduler
        self.downstream = downstream
    }

    func receive(subscription: any Subscription) {
        guard !isTerminated, upstreamSubscription == nil else { subscription.cancel(); return }
        upstreamSubscription = subscription
        // The demand outstanding before this subscription; what downstream asks for while
        // receiving its subscription goes straight through `request`.
        let outstanding = demand
        if !downstreamHasSubscription {
            downstreamHasSubscription = true
            downstream.receive(subscription: self)
        }
        if outstanding > 0 { subscription.request(outstanding) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard !isTerminated else { return .none }
        demand -= 1
        let more = downstream.receive(input)
        guard more > 0 else { return .none }
        demand += more
        upstreamSubscription?.request(more)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard !isTerminated else { return }
        upstreamSubscription = nil
        if case .failure = completion, remaining.map({ $0 > 0 }) ?? true {
            remaining = remaining.map { $0 - 1 }
            // A failure inside `subscribe` below only flags the loop to go round again.
            if isResubscribing {
                needsResubscribe = true
                latestFailure = completion
                return
            }
            isResubscribing = true
            defer { isResubscribing = false }
            var burst = 0
            var failure = completion
            while true {
                burst += 1
                if let scheduler {
                    guard scheduler.countAction() else {
                        isTerminated = true
                        return
                    }
                } else if burst > Publishers.Retry<Upstream>.maxSynchronousResubscriptions {
                    // Still failing after the burst cap: forward the latest failure.
                    isTerminated = true
                    downstream.receive(completion: failure)
                    return
                }
                needsResubscribe = false
                upstream.receive(subscriber: self)
                guard needsResubscribe, !isTerminated, let latestFailure else { return }
                failure = latestFailure
            }
        }
        isTerminated = true
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        guard !isTerminated, demand > 0 else { return }
        self.demand += demand
        upstreamSubscription?.request(demand)
    }

    func cancel() {
        guard !isTerminated else { return }
        isTerminated = true
        let subscription = upstreamSubscription
        upstreamSubscription = nil
        subscription?.cancel()
    }
}
