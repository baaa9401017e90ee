// The first/last family are reducers (see `ReducingLink` in ReducingLink.swift): they ask upstream for
// `.unlimited` and hold their result until downstream has requested at least once.

extension Publishers {
    /// The last value, sent with `.finished` when upstream finishes. Empty upstream: `.finished` only.
    public struct Last<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "Last", downstream: subscriber, initial: nil, kind: .plain) { result, input in
                result = input
                return .continue
            })
        }
    }

    /// `last(where:)` and `tryLast(where:)`: the last value satisfying `predicate`, as `Last`.
    /// A throw (only `TryLastWhere`'s predicate can) cancels upstream and fails the stream.
    public struct LastWhereOrTry<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output
        public let upstream: Upstream
        public let predicate: (Output) throws -> Bool
        private let kind: FailureKind<Upstream.Failure, Failure>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: kind.name("LastWhere"), downstream: subscriber, initial: nil, kind: kind) { result, input in
                if try predicate(input) { result = input }
                return .continue
            })
        }
    }

    /// The last value satisfying `predicate`, as `Last`.
    public typealias LastWhere<Upstream: Publisher> = LastWhereOrTry<Upstream, Upstream.Failure>
    /// Like `LastWhere`, but the predicate may throw, which cancels upstream and fails the stream.
    public typealias TryLastWhere<Upstream: Publisher> = LastWhereOrTry<Upstream, any Error>
}

extension Publishers.LastWhereOrTry where Failure == Upstream.Failure {
    /// The publisher of `last(where:)`: fails only as upstream does.
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .plain) }
}

extension Publishers.LastWhereOrTry where Failure == any Error {
    /// The publisher of `tryLast(where:)`: a throw from the closure fails it with that error.
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .throwing) }
}

extension Publisher {
    /// Emits the last value when upstream finishes; an empty upstream just finishes.
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }

    /// Emits the last value matching `predicate` when upstream finishes.
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// Like `last(where:)`; a throw from `predicate` cancels upstream and fails the stream.
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}
