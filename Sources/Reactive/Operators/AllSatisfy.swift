extension Publishers {
    /// `allSatisfy(_:)` and `tryAllSatisfy(_:)`: `false` as soon as a value fails `predicate`
    /// (upstream is cancelled at that instant), `true` at upstream finish otherwise (also for an
    /// empty upstream). A throw (only `TryAllSatisfy`'s predicate can) cancels upstream and fails the stream.
    public struct AllSatisfyOrTry<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Bool
        public let upstream: Upstream
        public let predicate: (Upstream.Output) throws -> Bool
        private let kind: FailureKind<Upstream.Failure, Failure>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: kind.name("AllSatisfy"), downstream: subscriber, initial: true, kind: kind) { result, input in
                guard try !predicate(input) else { return .continue }
                result = false
                return .finish
            })
        }
    }

    /// `false` at the first value failing `predicate`, `true` at upstream finish otherwise.
    public typealias AllSatisfy<Upstream: Publisher> = AllSatisfyOrTry<Upstream, Upstream.Failure>
    /// Like `AllSatisfy`, but the predicate may throw, which cancels upstream and fails the stream.
    public typealias TryAllSatisfy<Upstream: Publisher> = AllSatisfyOrTry<Upstream, any Error>
}

extension Publishers.AllSatisfyOrTry where Failure == Upstream.Failure {
    /// The publisher of `allSatisfy(_:)`: fails only as upstream does.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .plain) }
}

extension Publishers.AllSatisfyOrTry where Failure == any Error {
    /// The publisher of `tryAllSatisfy(_:)`: a throw from the closure fails it with that error.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .throwing) }
}

extension Publisher {
    /// Emits `false` at the first value that fails `predicate` (cancelling upstream), or `true` when upstream finishes.
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// Like `allSatisfy(_:)`; a throw from `predicate` cancels upstream and fails the stream.
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}
