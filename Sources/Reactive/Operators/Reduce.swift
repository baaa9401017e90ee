extension Publishers {
    /// Folds all values into one result, delivered at upstream finish (`initial` if there were none).
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let initial: Output
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "Reduce", downstream: subscriber, initial: initial, mapFailure: { $0 }) { result, input in
                if let current = result { result = next(current, input) }
                return .continue
            })
        }
    }

    /// Like `Reduce`, but the closure may throw, which cancels upstream and fails the stream.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error
        public let upstream: Upstream
        public let initial: Output
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "TryReduce", downstream: subscriber, initial: initial, mapFailure: { $0 }) { result, input in
                do {
                    if let current = result { result = try next(current, input) }
                    return .continue
                } catch {
                    return .fail(error)
                }
            })
        }
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
