extension Publishers {
    /// `true` as soon as a value equals `output` (upstream is cancelled at that instant), `false`
    /// at upstream finish otherwise.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let output: Upstream.Output

        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let wanted = output
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "Contains", downstream: subscriber, initial: false, kind: .plain) { result, input in
                guard input == wanted else { return .continue }
                result = true
                return .finish
            })
        }
    }

    /// `contains(where:)` and `tryContains(where:)`: `true` as soon as a value satisfies
    /// `predicate` (upstream is cancelled at that instant), `false` at upstream finish otherwise.
    /// A throw (only `TryContainsWhere`'s predicate can) cancels upstream and fails the stream.
    public struct ContainsWhereOrTry<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Bool
        public let upstream: Upstream
        public let predicate: (Upstream.Output) throws -> Bool
        private let kind: FailureKind<Upstream.Failure, Failure>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: kind.name("ContainsWhere"), downstream: subscriber, initial: false, kind: kind) { result, input in
                guard try predicate(input) else { return .continue }
                result = true
                return .finish
            })
        }
    }

    /// `true` at the first value satisfying `predicate`, `false` at upstream finish otherwise.
    public typealias ContainsWhere<Upstream: Publisher> = ContainsWhereOrTry<Upstream, Upstream.Failure>
    /// Like `ContainsWhere`, but the predicate may throw, which cancels upstream and fails the stream.
    public typealias TryContainsWhere<Upstream: Publisher> = ContainsWhereOrTry<Upstream, any Error>
}

extension Publishers.ContainsWhereOrTry where Failure == Upstream.Failure {
    /// The publisher of `contains(where:)`: fails only as upstream does.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .plain) }
}

extension Publishers.ContainsWhereOrTry where Failure == any Error {
    /// The publisher of `tryContains(where:)`: a throw from the closure fails it with that error.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .throwing) }
}

extension Publisher {
    /// Emits `true` at the first value matching `predicate` (cancelling upstream), or `false` when upstream finishes.
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    /// Like `contains(where:)`; a throw from `predicate` cancels upstream and fails the stream.
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}

extension Publisher where Output: Equatable {
    /// Emits `true` at the first value equal to `output` (cancelling upstream), or `false` when upstream finishes.
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}
