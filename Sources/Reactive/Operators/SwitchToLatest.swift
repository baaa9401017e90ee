extension Publishers {
    /// Forwards the values of the most recent inner publisher only.
    ///
    /// In virtual time (OpenCombine `Publishers.SwitchToLatest.swift`; iOS 13.4+ completion):
    /// - downstream gets its subscription first; upstream is asked for `.unlimited`;
    /// - a new inner cancels the previous inner first, then is subscribed synchronously and
    ///   asked for the downstream demand still outstanding; later requests go to it;
    /// - finishes when upstream has finished and the current inner has finished (or there is none);
    /// - an inner failure cancels upstream, an upstream failure cancels the inner; either is forwarded.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher where Upstream.Output == P, P.Failure == Upstream.Failure {
        public typealias Output = P.Output
        public typealias Failure = P.Failure
        public let upstream: Upstream

        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let outer = SwitchToLatestOuter<P, S>(downstream: subscriber)
            subscriber.receive(subscription: outer)
            upstream.receive(subscriber: outer)
        }
    }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Forwards the latest inner publisher only: each new one cancels the previous before it is subscribed.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// An outer publisher that cannot fail takes its inner publishers' failure type (Combine, iOS 14).
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: setFailureType(to: Output.Failure.self))
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// Forwards the latest inner publisher only: each new one cancels the previous before it is subscribed.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Inner publishers that cannot fail take the outer publisher's failure type (Combine, iOS 14).
    public func switchToLatest() -> Publishers.SwitchToLatest<Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>> {
        Publishers.SwitchToLatest(upstream: map { $0.setFailureType(to: Failure.self) })
    }
}

/// The upstream's subscriber and downstream's subscription of a switchToLatest.
private final class SwitchToLatestOuter<Child: Publisher, Downstream: Subscriber>: Subscriber, Subscription where Downstream.Input == Child.Output, Downstream.Failure == Child.Failure {
    typealias Input = Child
    typealias Failure = Child.Failure

    private let downstream: Downstream
    private var outerSubscription: (any Subscription)?
    private var innerSubscription: (any Subscription)?
    private var currentIndex = 0
    private var awaitingInnerSubscription = false
    private var outerFinished = false
    private var demand: Subscribers.Demand = .none
    private var isTerminated = false

    init(downstream: Downstream) { self.downstream = downstream }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        guard outerSubscription == nil, !isTerminated, !outerFinished else { subscription.cancel(); return }
        outerSubscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Child) -> Subscribers.Demand {
        guard !isTerminated, !outerFinished else { return .none }
        let previous = innerSubscription
        innerSubscription = nil
        previous?.cancel()
        currentIndex += 1
        awaitingInnerSubscription = true
        input.receive(subscriber: SwitchToLatestInner(outer: self, index: currentIndex))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        outerSubscription = nil
        outerFinished = true
        guard !isTerminated else { return }
        switch completion {
        case .finished:
            if !awaitingInnerSubscription, innerSubscription == nil {
                isTerminated = true
                downstream.receive(completion: completion)
            }
        case .failure:
            isTerminated = true
            let inner = innerSubscription
            innerSubscription = nil
            inner?.cancel()
            downstream.receive(completion: completion)
        }
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        guard !isTerminated, demand > 0 else { return }
        self.demand += demand
        innerSubscription?.request(demand)
    }

    func cancel() {
        guard !isTerminated else { return }
        isTerminated = true
        let inner = innerSubscription
        let outer = outerSubscription
        innerSubscription = nil
        outerSubscription = nil
        inner?.cancel()
        outer?.cancel()
    }

    // MARK: Inner

    func innerReceive(subscription: any Subscription, index: Int) {
        guard index == currentIndex, !isTerminated, innerSubscription == nil else { subscription.cancel(); return }
        innerSubscription = subscription
        awaitingInnerSubscription = false
        if demand > 0 { subscription.request(demand) }
    }

    func innerReceive(_ value: Child.Output, index: Int) -> Subscribers.Demand {
        guard index == currentIndex, !isTerminated else { return .none }
        demand -= 1
        let more = downstream.receive(value)
        demand += more
        return more
    }

    func innerReceive(completion: Subscribers.Completion<Failure>, index: Int) {
        guard index == currentIndex, !isTerminated else { return }
        innerSubscription = nil
        awaitingInnerSubscription = false
        switch completion {
        case .finished:
            guard outerFinished else { return }
            isTerminated = true
            downstream.receive(completion: completion)
        case .failure:
            isTerminated = true
            let outer = outerSubscription
            outerSubscription = nil
            outer?.cancel()
            downstream.receive(completion: completion)
        }
    }
}

/// An inner publisher's subscriber in a switchToLatest; stale ones are ignored by index.
private final class SwitchToLatestInner<Child: Publisher, Downstream: Subscriber>: Subscriber where Downstream.Input == Child.Output, Downstream.Failure == Child.Failure {
    typealias Input = Child.Output
    typealias Failure = Child.Failure
    private let outer: SwitchToLatestOuter<Child, Downstream>
    private let index: Int

    init(outer: SwitchToLatestOuter<Child, Downstream>, index: Int) {
        self.outer = outer
        self.index = index
    }

    func receive(subscription: any Subscription) { outer.innerReceive(subscription: subscription, index: index) }
    func receive(_ input: Input) -> Subscribers.Demand { outer.innerReceive(input, index: index) }
    func receive(completion: Subscribers.Completion<Failure>) { outer.innerReceive(completion: completion, index: index) }
}
