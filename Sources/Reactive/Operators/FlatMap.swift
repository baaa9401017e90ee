extension Publishers {
    /// Maps each upstream value to a publisher and merges the values of those inner publishers.
    ///
    /// In virtual time (OpenCombine `Publishers.FlatMap.swift`, whose tests also run against Combine):
    /// - downstream gets its subscription first; upstream is then asked for `maxPublishers`, and
    ///   for one more each time an inner finishes — so with a hot (subject) upstream, values that
    ///   arrive while `maxPublishers` inners are active are dropped, not buffered;
    /// - each inner is subscribed synchronously when its value arrives and is asked for
    ///   `.unlimited` when downstream demand is unlimited, otherwise for `.max(1)` at a time; a
    ///   value that arrives while downstream has no demand waits in a FIFO buffer;
    /// - finishes when upstream and every inner have finished and the buffer is empty;
    /// - an upstream failure cancels the inners; an inner failure cancels the other inners but
    ///   NOT the upstream subscription, which stays open with its values ignored (chosen from OpenCombine
    ///   `testAllSubscriptionsReleasedOnChildFailure`, rather than the "any failure cancels everything" usually assumed).
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher where NewPublisher.Failure == Upstream.Failure {
        public typealias Output = NewPublisher.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let maxPublishers: Subscribers.Demand
        public let transform: (Upstream.Output) -> NewPublisher

        public init(upstream: Upstream, maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let outer = FlatMapOuter<Upstream.Output, NewPublisher, S>(downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
            subscriber.receive(subscription: outer)
            upstream.receive(subscriber: outer)
        }
    }
}

extension Publisher {
    /// Subscribes the publisher `transform` returns for each value (at most `maxPublishers` at once) and merges their values.
    public func flatMap<T, P: Publisher>(maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P) -> Publishers.FlatMap<P, Self> where T == P.Output, P.Failure == Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }

    /// Inner publishers that cannot fail take this publisher's failure type (Combine, iOS 14).
    public func flatMap<P: Publisher>(maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
    }
}

extension Publisher where Failure == Never {
    /// A publisher that cannot fail takes its inner publishers' failure type (Combine, iOS 14).
    public func flatMap<P: Publisher>(maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(upstream: setFailureType(to: P.Failure.self), maxPublishers: maxPublishers, transform: transform)
    }

    /// Subscribes the publisher `transform` returns for each value (at most `maxPublishers` at once) and merges their values.
    public func flatMap<P: Publisher>(maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

/// The upstream's subscriber and downstream's subscription of a flatMap.
private final class FlatMapOuter<UpstreamOutput, Child: Publisher, Downstream: Subscriber>: Subscriber, Subscription where Downstream.Input == Child.Output, Downstream.Failure == Child.Failure {
    typealias Input = UpstreamOutput
    typealias Failure = Child.Failure

    private let downstream: Downstream
    private let maxPublishers: Subscribers.Demand
    private var transform: ((UpstreamOutput) -> Child)?
    private var outerSubscription: (any Subscription)?
    private var outerFinished = false
    private var inners: [Int: any Subscription] = [:]
    private var pendingInnerSubscriptions = 0
    private var nextInnerIndex = 0
    private var buffer: [(index: Int, value: Child.Output)] = []
    private var bufferHead = 0
    private var demand: Subscribers.Demand = .none
    /// True while a value is being handed downstream: requests then only raise the demand.
    private var isDelivering = false
    /// True while an inner is being asked for more from the drain loop: its values wait in the buffer.
    private var isRequestingInner = false
    private var isTerminated = false
    /// Terminated by downstream's cancel (not by a completion).
    private var isCancelled = false

    init(downstream: Downstream, maxPublishers: Subscribers.Demand, transform: @escaping (UpstreamOutput) -> Child) {
        self.downstream = downstream
        self.maxPublishers = maxPublishers
        self.transform = transform
    }

    private var bufferIsEmpty: Bool { bufferHead >= buffer.count }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        guard outerSubscription == nil, !isTerminated, !outerFinished else { subscription.cancel(); return }
        outerSubscription = subscription
        subscription.request(maxPublishers)
    }

    func receive(_ input: UpstreamOutput) -> Subscribers.Demand {
        guard !isTerminated, let transform else { return .none }
        let child = transform(input)
        let index = nextInnerIndex
        nextInnerIndex += 1
        pendingInnerSubscriptions += 1
        child.receive(subscriber: FlatMapInner(outer: self, index: index))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        outerSubscription = nil
        outerFinished = true
        guard !isTerminated else { return }
        switch completion {
        case .finished:
            finishIfDone()
        case .failure:
            terminate()
            let live = innersInOrder
            inners = [:]
            for subscription in live { subscription.cancel() }
            downstream.receive(completion: completion)
        }
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        guard !isTerminated, demand > 0 else { return }
        if isDelivering {
            self.demand += demand
            return
        }
        if demand.isUnlimited {
            self.demand = .unlimited
            while !isTerminated, let (_, value) = popBuffer() { deliver(value) }
            if isTerminated { return }
            for subscription in innersInOrder { subscription.request(.unlimited) }
        } else {
            self.demand += demand
            while !isTerminated, self.demand > 0, let (index, value) = popBuffer() {
                self.demand -= 1
                self.demand += deliver(value)
                if let subscription = inners[index] {
                    isRequestingInner = true
                    subscription.request(.max(1))
                    isRequestingInner = false
                }
            }
        }
        finishIfDone()
    }

    func cancel() {
        guard !isTerminated else { return }
        terminate()
        isCancelled = true
        let live = innersInOrder
        inners = [:]
        let outer = outerSubscription
        outerSubscription = nil
        for subscription in live { subscription.cancel() }
        outer?.cancel()
    }

    // MARK: Inners

    func innerReceive(subscription: any Subscription, index: Int) {
        pendingInnerSubscriptions -= 1
        guard !isTerminated else { subscription.cancel(); return }
        inners[index] = subscription
        subscription.request(demand.isUnlimited ? .unlimited : .max(1))
    }

    /// After a cancel an inner's values still pass (within demand), as in OpenCombine's
    /// `FlatMap`, whose inner value path checks no cancelled state; completions do not.
    func innerReceive(_ value: Child.Output, index: Int) -> Subscribers.Demand {
        guard !isTerminated || isCancelled else { return .none }
        if demand.isUnlimited {
            deliver(value)
            return .none
        }
        guard demand > 0, !isRequestingInner else {
            buffer.append((index, value))
            return .none
        }
        demand -= 1
        demand += deliver(value)
        return .max(1)
    }

    func innerReceive(completion: Subscribers.Completion<Failure>, index: Int) {
        guard !isTerminated else { return }
        switch completion {
        case .finished:
            inners[index] = nil
            if !finishIfDone(), !maxPublishers.isUnlimited { outerSubscription?.request(.max(1)) }
        case .failure:
            terminate()
            inners[index] = nil
            let others = innersInOrder
            inners = [:]
            for subscription in others { subscription.cancel() }
            downstream.receive(completion: completion)
        }
    }

    // MARK: Private

    /// The live inner subscriptions in the order they began: what is cancelled or asked for
    /// more, one after another, happens in the same order on every run (a dictionary's order
    /// is seeded per process).
    private var innersInOrder: [any Subscription] {
        inners.sorted { $0.key < $1.key }.map(\.value)
    }

    @discardableResult
    private func deliver(_ value: Child.Output) -> Subscribers.Demand {
        isDelivering = true
        defer { isDelivering = false }
        return downstream.receive(value)
    }

    private func popBuffer() -> (Int, Child.Output)? {
        guard bufferHead < buffer.count else { return nil }
        let entry = buffer[bufferHead]
        bufferHead += 1
        if bufferHead == buffer.count {
            buffer = []
            bufferHead = 0
        }
        return (entry.index, entry.value)
    }

    @discardableResult
    private func finishIfDone() -> Bool {
        guard !isTerminated, outerFinished, bufferIsEmpty, inners.isEmpty, pendingInnerSubscriptions == 0 else { return false }
        terminate()
        downstream.receive(completion: .finished)
        return true
    }

    private func terminate() {
        isTerminated = true
        transform = nil
        buffer = []
        bufferHead = 0
    }
}

/// An inner publisher's subscriber in a flatMap.
private final class FlatMapInner<UpstreamOutput, Child: Publisher, Downstream: Subscriber>: Subscriber where Downstream.Input == Child.Output, Downstream.Failure == Child.Failure {
    typealias Input = Child.Output
    typealias Failure = Child.Failure
    private let outer: FlatMapOuter<UpstreamOutput, Child, Downstream>
    private let index: Int

    init(outer: FlatMapOuter<UpstreamOutput, Child, Downstream>, index: Int) {
        self.outer = outer
        self.index = index
    }

    func receive(subscription: any Subscription) { outer.innerReceive(subscription: subscription, index: index) }
    func receive(_ input: Input) -> Subscribers.Demand { outer.innerReceive(input, index: index) }
    func receive(completion: Subscribers.Completion<Failure>) { outer.innerReceive(completion: completion, index: index) }
}
