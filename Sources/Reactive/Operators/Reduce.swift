extension Publishers {
    /// `reduce(_:_:)` and `tryReduce(_:_:)`: folds all values into one result, delivered at
    /// upstream finish (`initial` if there were none). A throw (only `TryReduce`'s closure can)
    /// cancels upstream and fails the stream.
    public struct ReduceOrTry<Upstream: Publisher, Output, Failure: Error>: Publisher {
        public let upstream: Upstream
        public let initial: Output
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output
        private let kind: FailureKind<Upstream.Failure, Failure>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: kind.name("Reduce"), downstream: subscriber, initial: initial, kind: kind) { result, input in
                if let current = result { result = try next(current, input) }
                return .continue
            })
        }
    }

    /// Folds all values into one result, delivered at upstream finish.
    public typealias Reduce<Upstream: Publisher, Output> = ReduceOrTry<Upstream, Output, Upstream.Failure>
    /// Like `Reduce`, but the closure may throw, which cancels upstream and fails the stream.
    public typealias TryReduce<Upstream: Publisher, Output> = ReduceOrTry<Upstream, Output, any Error>
}

extension Publishers.ReduceOrTry where Failure == Upstream.Failure {
    /// The publisher of `reduce(_:_:)`: fails only as upstream does.
    public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
        self.init(upstream: upstream, initial: initial, nextPartialResult: nextPartialResult, kind: .plain)
    }
}

extension Publishers.ReduceOrTry where Failure == any Error {
    /// The publisher of `tryReduce(_:_:)`: a throw from the closure fails it with that error.
    public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output) {
        self.init(upstream: upstream, initial: initial, nextPartialResult: nextPartialResult, kind: .throwing)
    }
}

extension Publisher {
    /// Emits the accumulation of every value from `initialResult` when upstream finishes; a failure discards it.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Like `reduce(_:_:)`; a throw from `nextPartialResult` cancels upstream and fails the stream.
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}
