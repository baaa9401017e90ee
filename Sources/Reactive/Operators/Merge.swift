extension Publishers {
    /// Interleaves the values of any number of same-typed publishers, synchronously, in the order
    /// they arrive. Finishes when every upstream has finished (and nothing is buffered); the first
    /// failure cancels the others and is forwarded at once.
    ///
    /// Downstream gets its subscription first, then the upstreams are subscribed in order. With
    /// unlimited demand every upstream is asked for `.unlimited`; otherwise each one is asked for
    /// `.max(1)` at a time and has a one-value slot that holds a value arriving while downstream
    /// has no demand (a later value in the same slot replaces it) — Combine's `Merge` as modelled
    /// by the OpenCombine fork (OpenSwiftUIProject/OpenCombine `Publishers.Merge.swift`, medium confidence).
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let publishers: [Upstream]

        public init(_ upstream: Upstream...) { publishers = upstream }

        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream { publishers = Array(upstream) }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let merger = Merger(downstream: subscriber, count: publishers.count)
            subscriber.receive(subscription: merger)
            for (index, publisher) in publishers.enumerated() {
                publisher.receive(subscriber: MergerSide(merger: merger, index: index))
            }
        }

        public func merge(with other: Upstream) -> MergeMany<Upstream> { MergeMany(publishers + [other]) }
    }
}

/// The shared state of a merge: one downstream, `count` upstreams.
private final class Merger<Downstream: Subscriber>: Subscription {
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let count: Int
    @exclusivity(unchecked) private var subscriptions: [(any Subscription)?]
    @exclusivity(unchecked) private var buffers: [Output?]
    @exclusivity(unchecked) private var finished: [Bool]
    @exclusivity(unchecked) private var finishedCount = 0
    @exclusivity(unchecked) private var demand: Subscribers.Demand = .none
    /// Requests made while a value is being delivered; folded in afterwards.
    @exclusivity(unchecked) private var pendingDemand: Subscribers.Demand = .none
    @exclusivity(unchecked) private var isDelivering = false
    /// Cancelled or completed: requests and cancels go no further.
    @exclusivity(unchecked) private var isTerminated = false
    /// Completed or failed: nothing more passes. A cancel alone does not close the merger: as in
    /// the OpenCombine fork's `Merge`, values upstreams still send after it are delivered (within
    /// demand), and so is `.finished` once every upstream has finished; a failure is not.
    @exclusivity(unchecked) private var isClosed = false

    init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        self.count = count
        subscriptions = Array(repeating: nil, count: count)
        buffers = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
    }

    // MARK: Upstream side

    func receive(subscription: any Subscription, from index: Int) {
        guard !isTerminated, subscriptions[index] == nil, !finished[index] else { subscription.cancel(); return }
        subscriptions[index] = subscription
        subscription.request(demand.isUnlimited ? .unlimited : .max(1))
    }

    /// The unlimited-demand path forwards at once and touches nothing of type `Output?`: in this
    /// unspecialised generic code any use of the slots looks up `Optional<Output>`'s metadata
    /// (hoisted to the entry of whichever function mentions them), so that lives apart, in
    /// `receiveLimited`. With unlimited demand `request` is a no-op, so no `isDelivering` either.
    func receive(_ input: Output, from index: Int) -> Subscribers.Demand {
        guard !isClosed, !finished[index] else { return .none }
        if demand.isUnlimited { return downstream.receive(input) }
        return receiveLimited(input, from: index)
    }

    @inline(never)
    private func receiveLimited(_ input: Output, from index: Int) -> Subscribers.Demand {
        guard demand > 0 else {
            buffers[index] = input
            return .none
        }
        let more = deliver(input)
        demand = demand - 1 + more + pendingDemand
        pendingDemand = .none
        return .max(1)
    }

    func receive(completion: Subscribers.Completion<Failure>, from index: Int) {
        guard !isClosed, !finished[index] else { return }
        switch completion {
        case .finished:
            finished[index] = true
            finishedCount += 1
            subscriptions[index] = nil
            if finishedCount == count, buffers.allSatisfy({ $0 == nil }) { finish() }
        case .failure:
            guard !isTerminated else { return }
            subscriptions[index] = nil
            terminateAndCancelUpstreams()
            isClosed = true
            downstream.receive(completion: completion)
        }
    }

    // MARK: Downstream side

    func request(_ demand: Subscribers.Demand) {
        guard !isTerminated, demand > 0, !self.demand.isUnlimited else { return }
        guard !isDelivering else {
            pendingDemand += demand
            return
        }
        if demand.isUnlimited {
            self.demand = .unlimited
            for index in buffers.indices {
                guard let value = buffers[index] else { continue }
                buffers[index] = nil
                _ = deliver(value)
                if isTerminated { return }
            }
            if finishedCount == count {
                finish()
            } else {
                for subscription in subscriptions { subscription?.request(.unlimited) }
            }
            return
        }
        self.demand += demand
        var released: [(index: Int, value: Output)] = []
        for index in buffers.indices where self.demand > 0 {
            guard let value = buffers[index] else { continue }
            buffers[index] = nil
            self.demand -= 1
            released.append((index, value))
        }
        let finishes = finishedCount == count && buffers.allSatisfy { $0 == nil }
        var more: Subscribers.Demand = .none
        for (_, value) in released {
            more += deliver(value)
            if isTerminated { return }
        }
        more += pendingDemand
        pendingDemand = .none
        if finishes {
            finish()
            return
        }
        self.demand += more
        for (index, _) in released { subscriptions[index]?.request(.max(1)) }
    }

    func cancel() {
        guard !isTerminated else { return }
        terminateAndCancelUpstreams()
    }

    // MARK: Private

    private func deliver(_ value: Output) -> Subscribers.Demand {
        isDelivering = true
        defer { isDelivering = false }
        return downstream.receive(value)
    }

    private func finish() {
        terminateAndCancelUpstreams()
        isClosed = true
        downstream.receive(completion: .finished)
    }

    private func terminateAndCancelUpstreams() {
        isTerminated = true
        let live = subscriptions
        subscriptions = Array(repeating: nil, count: count)
        buffers = Array(repeating: nil, count: count)
        for subscription in live { subscription?.cancel() }
    }
}

/// One upstream's subscriber in a merge.
private final class MergerSide<Downstream: Subscriber>: Subscriber {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure
    private let merger: Merger<Downstream>
    private let index: Int

    init(merger: Merger<Downstream>, index: Int) {
        self.merger = merger
        self.index = index
    }

    func receive(subscription: any Subscription) { merger.receive(subscription: subscription, from: index) }
    func receive(_ input: Input) -> Subscribers.Demand { merger.receive(input, from: index) }
    func receive(completion: Subscribers.Completion<Failure>) { merger.receive(completion: completion, from: index) }
}

extension Publisher {
    /// Interleaves this publisher's values with `other`'s, as they arrive; finishes when both have.
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P> where P.Output == Output, P.Failure == Failure {
        Publishers.Merge(self, other)
    }

    /// Interleaves the values of this publisher and the others as they arrive; finishes when all have finished.
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C> where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
        Publishers.Merge3(self, b, c)
    }

    /// Interleaves the values of this publisher and the others as they arrive; finishes when all have finished.
    public func merge<B: Publisher, C: Publisher, D: Publisher>(with b: B, _ c: C, _ d: D) -> Publishers.Merge4<Self, B, C, D> where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure {
        Publishers.Merge4(self, b, c, d)
    }

    /// Interleaves the values of this publisher and the others as they arrive; finishes when all have finished.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(with b: B, _ c: C, _ d: D, _ e: E) -> Publishers.Merge5<Self, B, C, D, E> where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Interleaves the values of this publisher and the others as they arrive; finishes when all have finished.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F) -> Publishers.Merge6<Self, B, C, D, E, F> where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Interleaves the values of this publisher and the others as they arrive; finishes when all have finished.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) -> Publishers.Merge7<Self, B, C, D, E, F, G> where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Interleaves the values of this publisher and the others as they arrive; finishes when all have finished.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) -> Publishers.Merge8<Self, B, C, D, E, F, G, H> where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure, H.Output == Output, H.Failure == Failure {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}

extension Publishers {
    /// Merges two publishers of the same output and failure (see `MergeMany` for the rules).
    public struct Merge<A: Publisher, B: Publisher>: Publisher where A.Output == B.Output, A.Failure == B.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B

        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeMany<AnyPublisher<Output, Failure>>(AnyPublisher(a), AnyPublisher(b)).receive(subscriber: subscriber)
        }

        public func merge<Z: Publisher>(with z: Z) -> Merge3<A, B, Z> where Z.Output == Output, Z.Failure == Failure {
            Merge3(a, b, z)
        }

        public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Merge4<A, B, Z, Y> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
            Merge4(a, b, z, y)
        }

        public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X) -> Merge5<A, B, Z, Y, X> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure, X.Output == Output, X.Failure == Failure {
            Merge5(a, b, z, y, x)
        }

        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W) -> Merge6<A, B, Z, Y, X, W> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure, X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure {
            Merge6(a, b, z, y, x, w)
        }

        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V) -> Merge7<A, B, Z, Y, X, W, V> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure, X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure, V.Output == Output, V.Failure == Failure {
            Merge7(a, b, z, y, x, w, v)
        }

        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U) -> Merge8<A, B, Z, Y, X, W, V, U> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure, X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure, V.Output == Output, V.Failure == Failure, U.Output == Output, U.Failure == Failure {
            Merge8(a, b, z, y, x, w, v, u)
        }
    }

    /// Merges 3 publishers of the same output and failure (see `MergeMany` for the rules).
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher where A.Output == B.Output, A.Failure == B.Failure, A.Output == C.Output, A.Failure == C.Failure {
        public typealias Output = A.Output
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
            MergeMany<AnyPublisher<Output, Failure>>(AnyPublisher(a), AnyPublisher(b), AnyPublisher(c)).receive(subscriber: subscriber)
        }

        public func merge<Z: Publisher>(with z: Z) -> Merge4<A, B, C, Z> where Z.Output == Output, Z.Failure == Failure {
            Merge4(a, b, c, z)
        }

        public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Merge5<A, B, C, Z, Y> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
            Merge5(a, b, c, z, y)
        }

        public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X) -> Merge6<A, B, C, Z, Y, X> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure, X.Output == Output, X.Failure == Failure {
            Merge6(a, b, c, z, y, x)
        }

        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W) -> Merge7<A, B, C, Z, Y, X, W> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure, X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure {
            Merge7(a, b, c, z, y, x, w)
        }

        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V) -> Merge8<A, B, C, Z, Y, X, W, V> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure, X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure, V.Output == Output, V.Failure == Failure {
            Merge8(a, b, c, z, y, x, w, v)
        }
    }

    /// Merges 4 publishers of the same output and failure (see `MergeMany` for the rules).
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher where A.Output == B.Output, A.Failure == B.Failure, A.Output == C.Output, A.Failure == C.Failure, A.Output == D.Output, A.Failure == D.Failure {
        public typealias Output = A.Output
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
            MergeMany<AnyPublisher<Output, Failure>>(AnyPublisher(a), AnyPublisher(b), AnyPublisher(c), AnyPublisher(d)).receive(subscriber: subscriber)
        }

        public func merge<Z: Publisher>(with z: Z) -> Merge5<A, B, C, D, Z> where Z.Output == Output, Z.Failure == Failure {
            Merge5(a, b, c, d, z)
        }

        public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Merge6<A, B, C, D, Z, Y> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
            Merge6(a, b, c, d, z, y)
        }

        public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X) -> Merge7<A, B, C, D, Z, Y, X> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure, X.Output == Output, X.Failure == Failure {
            Merge7(a, b, c, d, z, y, x)
        }

        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W) -> Merge8<A, B, C, D, Z, Y, X, W> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure, X.Output == Output, X.Failure == Failure, W.Output == Output, W.Failure == Failure {
            Merge8(a, b, c, d, z, y, x, w)
        }
    }

    /// Merges 5 publishers of the same output and failure (see `MergeMany` for the rules).
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher where A.Output == B.Output, A.Failure == B.Failure, A.Output == C.Output, A.Failure == C.Failure, A.Output == D.Output, A.Failure == D.Failure, A.Output == E.Output, A.Failure == E.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E

        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeMany<AnyPublisher<Output, Failure>>(AnyPublisher(a), AnyPublisher(b), AnyPublisher(c), AnyPublisher(d), AnyPublisher(e)).receive(subscriber: subscriber)
        }

        public func merge<Z: Publisher>(with z: Z) -> Merge6<A, B, C, D, E, Z> where Z.Output == Output, Z.Failure == Failure {
            Merge6(a, b, c, d, e, z)
        }

        public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Merge7<A, B, C, D, E, Z, Y> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
            Merge7(a, b, c, d, e, z, y)
        }

        public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X) -> Merge8<A, B, C, D, E, Z, Y, X> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure, X.Output == Output, X.Failure == Failure {
            Merge8(a, b, c, d, e, z, y, x)
        }
    }

    /// Merges 6 publishers of the same output and failure (see `MergeMany` for the rules).
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher where A.Output == B.Output, A.Failure == B.Failure, A.Output == C.Output, A.Failure == C.Failure, A.Output == D.Output, A.Failure == D.Failure, A.Output == E.Output, A.Failure == E.Failure, A.Output == F.Output, A.Failure == F.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public let f: F

        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeMany<AnyPublisher<Output, Failure>>(AnyPublisher(a), AnyPublisher(b), AnyPublisher(c), AnyPublisher(d), AnyPublisher(e), AnyPublisher(f)).receive(subscriber: subscriber)
        }

        public func merge<Z: Publisher>(with z: Z) -> Merge7<A, B, C, D, E, F, Z> where Z.Output == Output, Z.Failure == Failure {
            Merge7(a, b, c, d, e, f, z)
        }

        public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Merge8<A, B, C, D, E, F, Z, Y> where Z.Output == Output, Z.Failure == Failure, Y.Output == Output, Y.Failure == Failure {
            Merge8(a, b, c, d, e, f, z, y)
        }
    }

    /// Merges 7 publishers of the same output and failure (see `MergeMany` for the rules).
    public struct Merge7<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>: Publisher where A.Output == B.Output, A.Failure == B.Failure, A.Output == C.Output, A.Failure == C.Failure, A.Output == D.Output, A.Failure == D.Failure, A.Output == E.Output, A.Failure == E.Failure, A.Output == F.Output, A.Failure == F.Failure, A.Output == G.Output, A.Failure == G.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public let f: F
        public let g: G

        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeMany<AnyPublisher<Output, Failure>>(AnyPublisher(a), AnyPublisher(b), AnyPublisher(c), AnyPublisher(d), AnyPublisher(e), AnyPublisher(f), AnyPublisher(g)).receive(subscriber: subscriber)
        }

        public func merge<Z: Publisher>(with z: Z) -> Merge8<A, B, C, D, E, F, G, Z> where Z.Output == Output, Z.Failure == Failure {
            Merge8(a, b, c, d, e, f, g, z)
        }
    }

    /// Merges 8 publishers of the same output and failure (see `MergeMany` for the rules).
    public struct Merge8<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>: Publisher where A.Output == B.Output, A.Failure == B.Failure, A.Output == C.Output, A.Failure == C.Failure, A.Output == D.Output, A.Failure == D.Failure, A.Output == E.Output, A.Failure == E.Failure, A.Output == F.Output, A.Failure == F.Failure, A.Output == G.Output, A.Failure == G.Failure, A.Output == H.Output, A.Failure == H.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public let f: F
        public let g: G
        public let h: H

        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            MergeMany<AnyPublisher<Output, Failure>>(AnyPublisher(a), AnyPublisher(b), AnyPublisher(c), AnyPublisher(d), AnyPublisher(e), AnyPublisher(f), AnyPublisher(g), AnyPublisher(h)).receive(subscriber: subscriber)
        }
    }
}
