extension Publishers {
    /// Pairs the upstreams' values in order: the n-th value of each makes the n-th tuple
    /// (see `ZipCore` for the rules).
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure
        public let a: A
        public let b: B

        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = ZipCore(downstream: subscriber, count: 2)
            let ca = ZipChild<A.Output, S>(core: core, index: 0)
            let cb = ZipChild<B.Output, S>(core: core, index: 1)
            core.dequeue = {
                guard ca.hasValue, cb.hasValue, let a = ca.dequeue(), let b = cb.dequeue() else { return nil }
                return (a, b)
            }
            a.receive(subscriber: ca)
            b.receive(subscriber: cb)
        }
    }

    /// `Zip` over three upstreams.
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher where A.Failure == B.Failure, B.Failure == C.Failure {
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
            let core = ZipCore(downstream: subscriber, count: 3)
            let ca = ZipChild<A.Output, S>(core: core, index: 0)
            let cb = ZipChild<B.Output, S>(core: core, index: 1)
            let cc = ZipChild<C.Output, S>(core: core, index: 2)
            core.dequeue = {
                guard ca.hasValue, cb.hasValue, cc.hasValue,
                      let a = ca.dequeue(), let b = cb.dequeue(), let c = cc.dequeue() else { return nil }
                return (a, b, c)
            }
            a.receive(subscriber: ca)
            b.receive(subscriber: cb)
            c.receive(subscriber: cc)
        }
    }

    /// `Zip` over four upstreams.
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
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
            let core = ZipCore(downstream: subscriber, count: 4)
            let ca = ZipChild<A.Output, S>(core: core, index: 0)
            let cb = ZipChild<B.Output, S>(core: core, index: 1)
            let cc = ZipChild<C.Output, S>(core: core, index: 2)
            let cd = ZipChild<D.Output, S>(core: core, index: 3)
            core.dequeue = {
                guard ca.hasValue, cb.hasValue, cc.hasValue, cd.hasValue,
                      let a = ca.dequeue(), let b = cb.dequeue(), let c = cc.dequeue(), let d = cd.dequeue() else { return nil }
                return (a, b, c, d)
            }
            a.receive(subscriber: ca)
            b.receive(subscriber: cb)
            c.receive(subscriber: cc)
            d.receive(subscriber: cd)
        }
    }
}

extension Publisher {
    /// Pairs the values of both publishers in order, one from each; finishes as soon as one has finished with nothing queued.
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P> where P.Failure == Failure {
        Publishers.Zip(self, other)
    }

    /// Like `zip(_:)`, emitting `transform` of each pair.
    public func zip<P: Publisher, T>(_ other: P, _ transform: @escaping (Output, P.Output) -> T) -> Publishers.Map<Publishers.Zip<Self, P>, T> where P.Failure == Failure {
        Publishers.Zip(self, other).map(transform)
    }

    /// Triples of values in order, as `zip(_:)` does for two.
    public func zip<P: Publisher, Q: Publisher>(_ publisher1: P, _ publisher2: Q) -> Publishers.Zip3<Self, P, Q> where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    /// Like `zip(_:_:)`, emitting `transform` of each triple.
    public func zip<P: Publisher, Q: Publisher, T>(_ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T> where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Zip3(self, publisher1, publisher2).map(transform)
    }

    /// Quadruples of values in order, as `zip(_:)` does for two.
    public func zip<P: Publisher, Q: Publisher, R: Publisher>(_ publisher1: P, _ publisher2: Q, _ publisher3: R) -> Publishers.Zip4<Self, P, Q, R> where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }

    /// Like `zip(_:_:_:)`, emitting `transform` of each quadruple.
    public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(_ publisher1: P, _ publisher2: Q, _ publisher3: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T> where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3).map(transform)
    }
}

/// The shared state of a zip (OpenCombine `Publishers.Zip.swift`, whose tests also run against Combine):
/// - the upstreams are subscribed in order, and downstream gets its subscription inside the
///   `receive(subscription:)` of the last upstream to deliver one — so before that upstream's
///   `receive(subscriber:)` has returned, and before a cold upstream schedules its timeline (OpenCombine's
///   `receivedSubscription(for:)`; CombineX hands it over after all `subscribe` calls returned;
///   no test of either pins the moment, OpenCombine models Apple's Zip closely, so OpenCombine is followed). An
///   upstream that never delivers a subscription leaves downstream without one, as in OpenCombine. A
///   completion before that moment is held and delivered right after the subscription (OpenCombine would
///   deliver it before, breaking the subscriber contract); the zip is finished by then, so the
///   subscriber's requests go nowhere and a later upstream's subscription is cancelled;
/// - each upstream has an unbounded FIFO queue; when every queue has a value, one is taken from
///   each and the tuple is emitted synchronously;
/// - a downstream request is forwarded to every upstream — except that demand arising while a
///   tuple is being delivered (returned by downstream, or requested from inside its `receive`)
///   goes to the upstream that completed the tuple as the return value of its `receive`, and a
///   request from inside `receive` also goes to the others (Combine, OpenCombine `testIncreasedDemand`);
/// - finishes as soon as some upstream has finished with an empty queue, checked when an
///   upstream finishes and after every tuple; still-active upstreams are then cancelled;
/// - the first failure is forwarded at once, the queues are dropped and the others cancelled.
private final class ZipCore<Downstream: Subscriber>: Subscription {
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let count: Int
    private var subscriptions: [(any Subscription)?]
    private var finished: [Bool]
    /// Which upstreams have delivered a subscription, and how many.
    private var hasSubscribed: [Bool]
    private var subscribedCount = 0
    private var isEstablished = false
    private var heldCompletion: Subscribers.Completion<Failure>?
    /// The upstream whose value completed the tuple being delivered.
    private var deliveringFor: Int?
    private var demandWhileDelivering: Subscribers.Demand = .none
    private(set) var isTerminated = false
    /// Takes one value from each queue, or returns nil if some queue is empty. Released at the end.
    var dequeue: (() -> Downstream.Input?)?
    /// Whether each upstream's queue is non-empty (set by the children).
    var queueIsEmpty: [Bool]

    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.count = count
        subscriptions = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
        hasSubscribed = Array(repeating: false, count: count)
        queueIsEmpty = Array(repeating: true, count: count)
    }

    private func start() {
        isEstablished = true
        downstream.receive(subscription: self)
        if let completion = heldCompletion {
            heldCompletion = nil
            downstream.receive(completion: completion)
        }
    }

    func receive(subscription: any Subscription, from index: Int) {
        let isFirst = !hasSubscribed[index]
        hasSubscribed[index] = true
        if isTerminated || !isFirst {
            subscription.cancel()
        } else {
            subscriptions[index] = subscription
        }
        guard isFirst else { return }
        subscribedCount += 1
        if subscribedCount == count { start() }
    }

    /// `enqueue` appends the value to the child's queue; it runs only while the zip is live.
    func receiveValue(from index: Int, enqueue: () -> Void) -> Subscribers.Demand {
        guard !isTerminated, !finished[index] else { return .none }
        enqueue()
        guard deliveringFor == nil, let tuple = dequeue?() else { return .none }
        deliveringFor = index
        demandWhileDelivering = .none
        let more = downstream.receive(tuple)
        let result = demandWhileDelivering + more
        deliveringFor = nil
        demandWhileDelivering = .none
        finishIfExhausted()
        return isTerminated ? .none : result
    }

    func receive(completion: Subscribers.Completion<Failure>, from index: Int) {
        guard !isTerminated, !finished[index] else { return }
        switch completion {
        case .finished:
            finished[index] = true
            subscriptions[index] = nil
            // While a tuple is being delivered the check waits until it has gone out.
            if deliveringFor == nil { finishIfExhausted() }
        case .failure:
            subscriptions[index] = nil
            let others = subscriptions
            subscriptions = Array(repeating: nil, count: count)
            terminate(sending: completion)
            for subscription in others { subscription?.cancel() }
        }
    }

    func request(_ demand: Subscribers.Demand) {
        guard !isTerminated, demand > 0 else { return }
        for (index, subscription) in subscriptions.enumerated() where index != deliveringFor {
            subscription?.request(demand)
        }
        if deliveringFor != nil { demandWhileDelivering += demand }
    }

    func cancel() {
        guard !isTerminated else { return }
        isTerminated = true
        dequeue = nil
        let live = subscriptions
        subscriptions = Array(repeating: nil, count: count)
        for subscription in live { subscription?.cancel() }
    }

    private func finishIfExhausted() {
        guard !isTerminated, finished.indices.contains(where: { finished[$0] && queueIsEmpty[$0] }) else { return }
        let live = subscriptions
        subscriptions = Array(repeating: nil, count: count)
        terminate(sending: .finished)
        for subscription in live { subscription?.cancel() }
    }

    private func terminate(sending completion: Subscribers.Completion<Failure>) {
        isTerminated = true
        dequeue = nil
        if isEstablished {
            downstream.receive(completion: completion)
        } else {
            heldCompletion = completion
        }
    }
}

/// One upstream's subscriber in a zip; holds that upstream's queue.
private final class ZipChild<Value, Downstream: Subscriber>: Subscriber {
    typealias Input = Value
    typealias Failure = Downstream.Failure
    private let core: ZipCore<Downstream>
    private let index: Int
    private var queue: [Value] = []
    private var head = 0

    init(core: ZipCore<Downstream>, index: Int) {
        self.core = core
        self.index = index
    }

    var hasValue: Bool { head < queue.count }

    func dequeue() -> Value? {
        guard head < queue.count else { return nil }
        let value = queue[head]
        head += 1
        if head > 32, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        core.queueIsEmpty[index] = !hasValue
        return value
    }

    func receive(subscription: any Subscription) { core.receive(subscription: subscription, from: index) }

    func receive(_ input: Value) -> Subscribers.Demand {
        core.receiveValue(from: index) {
            queue.append(input)
            core.queueIsEmpty[index] = false
        }
    }

    func receive(completion: Subscribers.Completion<Failure>) { core.receive(completion: completion, from: index) }
}
