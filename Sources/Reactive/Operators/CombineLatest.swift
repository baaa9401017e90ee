extension Publishers {
    /// Once both upstreams have produced a value, emits the pair of their latest values each
    /// time either produces one (see `CombineLatestCore` for the rules).
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure
        public let a: A
        public let b: B

        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombineLatestCore(downstream: subscriber, count: 2)
            let ca = CombineLatestChild<A.Output, S>(core: core, index: 0)
            let cb = CombineLatestChild<B.Output, S>(core: core, index: 1)
            core.combine = {
                guard let a = ca.latest, let b = cb.latest else { return nil }
                return (a, b)
            }
            a.receive(subscriber: ca)
            b.receive(subscriber: cb)
            core.start()
        }
    }

    /// `CombineLatest` over three upstreams.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher where A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C

        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombineLatestCore(downstream: subscriber, count: 3)
            let ca = CombineLatestChild<A.Output, S>(core: core, index: 0)
            let cb = CombineLatestChild<B.Output, S>(core: core, index: 1)
            let cc = CombineLatestChild<C.Output, S>(core: core, index: 2)
            core.combine = {
                guard let a = ca.latest, let b = cb.latest, let c = cc.latest else { return nil }
                return (a, b, c)
            }
            a.receive(subscriber: ca)
            b.receive(subscriber: cb)
            c.receive(subscriber: cc)
            core.start()
        }
    }

    /// `CombineLatest` over four upstreams.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D

        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombineLatestCore(downstream: subscriber, count: 4)
            let ca = CombineLatestChild<A.Output, S>(core: core, index: 0)
            let cb = CombineLatestChild<B.Output, S>(core: core, index: 1)
            let cc = CombineLatestChild<C.Output, S>(core: core, index: 2)
            let cd = CombineLatestChild<D.Output, S>(core: core, index: 3)
            core.combine = {
                guard let a = ca.latest, let b = cb.latest, let c = cc.latest, let d = cd.latest else { return nil }
                return (a, b, c, d)
            }
            a.receive(subscriber: ca)
            b.receive(subscriber: cb)
            c.receive(subscriber: cc)
            d.receive(subscriber: cd)
            core.start()
        }
    }
}

extension Publisher {
    /// Once both have emitted, emits the pair of latest values whenever either emits; finishes when both have finished.
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P> where P.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Like `combineLatest(_:)`, emitting `transform` of the latest values.
    public func combineLatest<P: Publisher, T>(_ other: P, _ transform: @escaping (Output, P.Output) -> T) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P.Failure == Failure {
        Publishers.CombineLatest(self, other).map(transform)
    }

    /// The latest values of three publishers, as `combineLatest(_:)` does for two.
    public func combineLatest<P: Publisher, Q: Publisher>(_ publisher1: P, _ publisher2: Q) -> Publishers.CombineLatest3<Self, P, Q> where P.Failure == Failure, Q.Failure == Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Like `combineLatest(_:_:)`, emitting `transform` of the latest values.
    public func combineLatest<P: Publisher, Q: Publisher, T>(_ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T> where P.Failure == Failure, Q.Failure == Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2).map(transform)
    }

    /// The latest values of four publishers, as `combineLatest(_:)` does for two.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(_ publisher1: P, _ publisher2: Q, _ publisher3: R) -> Publishers.CombineLatest4<Self, P, Q, R> where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

    /// Like `combineLatest(_:_:_:)`, emitting `transform` of the latest values.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(_ publisher1: P, _ publisher2: Q, _ publisher3: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T> where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3).map(transform)
    }
}

/// The shared state of a combineLatest (OpenSwiftUIProject/OpenCombine `Publishers.CombineLatest.swift`):
/// - the upstreams are subscribed first, in order, and downstream gets its subscription after
///   them; a completion that happens before that is held and delivered right after it;
/// - every downstream request is passed to every upstream;
/// - each upstream keeps only its latest value; once all have one, each new value emits the
///   tuple if downstream has demand, otherwise that combination is dropped;
/// - finishes only when ALL upstreams have finished, even one that never emitted;
/// - the first failure cancels the others and is forwarded at once;
/// - after a cancel values are dropped but completions still count and are delivered (OpenSwiftUIProject/OpenCombine).
private final class CombineLatestCore<Downstream: Subscriber>: Subscription {
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let count: Int
    private var subscriptions: [(any Subscription)?]
    private var finished: [Bool]
    private var finishedCount = 0
    private var demand: Subscribers.Demand = .none
    private var isDelivering = false
    private var isEstablished = false
    private var heldCompletion: Subscribers.Completion<Failure>?
    private(set) var isTerminated = false
    /// Terminated by downstream's cancel, and no completion has gone out since.
    private var isCancelled = false
    /// The current tuple, or nil while some upstream has no value yet. Released at the end.
    var combine: (() -> Downstream.Input?)?

    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.count = count
        subscriptions = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
    }

    /// Hands downstream its subscription once all upstreams are subscribed.
    func start() {
        downstream.receive(subscription: self)
        isEstablished = true
        if let completion = heldCompletion {
            heldCompletion = nil
            downstream.receive(completion: completion)
        }
    }

    func receive(subscription: any Subscription, from index: Int) {
        guard !isTerminated, subscriptions[index] == nil, !finished[index] else { subscription.cancel(); return }
        subscriptions[index] = subscription
    }

    /// `store` records the child's latest value; it runs only while the combination is live.
    func receiveValue(from index: Int, store: () -> Void) -> Subscribers.Demand {
        guard !isTerminated, !finished[index] else { return .none }
        store()
        guard !isDelivering, demand > 0, let tuple = combine?() else { return .none }
        demand -= 1
        isDelivering = true
        let more = downstream.receive(tuple)
        isDelivering = false
        demand += more
        return more
    }

    /// After a cancel values are dropped, but completions still count: `.finished` once every
    /// upstream has finished, or a failure, is delivered (OpenSwiftUIProject/OpenCombine's `receive(completion:)` checks
    /// only its `finished` flag, not `cancelled`).
    func receive(completion: Subscribers.Completion<Failure>, from index: Int) {
        guard !isTerminated || isCancelled, !finished[index] else { return }
        switch completion {
        case .finished:
            finished[index] = true
            finishedCount += 1
            subscriptions[index] = nil
            if finishedCount == count { terminate(sending: completion) }
        case .failure:
            subscriptions[index] = nil
            let others = subscriptions
            subscriptions = Array(repeating: nil, count: count)
            for subscription in others { subscription?.cancel() }
            terminate(sending: completion)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        guard !isTerminated, demand > 0 else { return }
        self.demand += demand
        for subscription in subscriptions { subscription?.request(demand) }
    }

    func cancel() {
        guard !isTerminated else { return }
        isTerminated = true
        isCancelled = true
        combine = nil
        let live = subscriptions
        subscriptions = Array(repeating: nil, count: count)
        for subscription in live { subscription?.cancel() }
    }

    private func terminate(sending completion: Subscribers.Completion<Failure>) {
        isTerminated = true
        isCancelled = false
        combine = nil
        if isEstablished {
            downstream.receive(completion: completion)
        } else {
            heldCompletion = completion
        }
    }
}

/// One upstream's subscriber in a combineLatest; keeps that upstream's latest value.
private final class CombineLatestChild<Value, Downstream: Subscriber>: Subscriber {
    typealias Input = Value
    typealias Failure = Downstream.Failure
    private let core: CombineLatestCore<Downstream>
    private let index: Int
    private(set) var latest: Value?

    init(core: CombineLatestCore<Downstream>, index: Int) {
        self.core = core
        self.index = index
    }

    func receive(subscription: any Subscription) { core.receive(subscription: subscription, from: index) }
    func receive(_ input: Value) -> Subscribers.Demand { core.receiveValue(from: index) { latest = input } }
    func receive(completion: Subscribers.Completion<Failure>) { core.receive(completion: completion, from: index) }
}
