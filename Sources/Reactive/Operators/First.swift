// The first/last family are reducers (see `ReducingLink` in ReducingLink.swift): they ask upstream for
// `.unlimited` and hold their result until downstream has requested at least once.

extension Publishers {
    /// The first value: on it, upstream is cancelled and the value and `.finished` are sent at
    /// that instant (or at downstream's first request). An empty upstream gives `.finished` only.
    public struct First<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "First", downstream: subscriber, initial: nil, kind: .plain) { result, input in
                result = input
                return .finish
            })
        }
    }

    /// `first(where:)` and `tryFirst(where:)`: the first value satisfying `predicate`, as `First`.
    /// A throw (only `TryFirstWhere`'s predicate can) cancels upstream and fails the stream.
    public struct FirstWhereOrTry<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output
        public let upstream: Upstream
        public let predicate: (Output) throws -> Bool
        private let kind: FailureKind<Upstream.Failure, Failure>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: kind.name("FirstWhere"), downstream: subscriber, initial: nil, kind: kind) { result, input in
                guard try predicate(input) else { return .continue }
                result = input
                return .finish
            })
        }
    }

    /// The first value satisfying `predicate`, as `First`.
    public typealias FirstWhere<Upstream: Publisher> = FirstWhereOrTry<Upstream, Upstream.Failure>
    /// Like `FirstWhere`, but the predicate may throw, which cancels upstream and fails the stream.
    public typealias TryFirstWhere<Upstream: Publisher> = FirstWhereOrTry<Upstream, any Error>
}

extension Publishers.FirstWhereOrTry where Failure == Upstream.Failure {
    /// The publisher of `first(where:)`: fails only as upstream does.
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .plain) }
}

extension Publishers.FirstWhereOrTry where Failure == any Error {
    /// The publisher of `tryFirst(where:)`: a throw from the closure fails it with that error.
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .throwing) }
}

extension Publisher {
    /// Emits the first value and finishes, cancelling upstream; an empty upstream just finishes.
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }

    /// Emits the first value matching `predicate` and finishes, cancelling upstream.
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    /// Like `first(where:)`; a throw from `predicate` cancels upstream and fails the stream.
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}
