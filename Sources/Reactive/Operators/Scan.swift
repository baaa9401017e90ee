extension Publishers {
    /// Emits every intermediate result of folding the values into an accumulator, synchronously
    /// with each value. Nothing is emitted for the initial result itself. Hands the upstream
    /// subscription straight through, like `Map` (OpenCombine `ScanTests.testScanCancel`).
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let initialResult: Output
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        public init(upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, initialResult: initialResult, nextPartialResult: nextPartialResult))
        }

        private final class Link<Downstream: Subscriber>: PassThroughSubscriber<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            @exclusivity(unchecked) var result: Output
            let nextPartialResult: (Output, Upstream.Output) -> Output
            init(downstream: Downstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
                result = initialResult
                self.nextPartialResult = nextPartialResult
                super.init(downstream: downstream)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                result = nextPartialResult(result, input)
                return downstream.receive(result)
            }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }

    /// Like `Scan`, but the accumulator may throw: the error cancels upstream and fails the stream.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error
        public let upstream: Upstream
        public let initialResult: Output
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        public init(upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, initialResult: initialResult, nextPartialResult: nextPartialResult))
        }

        private final class Link<Downstream: Subscriber>: FilteringLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == any Error {
            var result: Output
            let nextPartialResult: (Output, Upstream.Output) throws -> Output
            init(downstream: Downstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output) {
                result = initialResult
                self.nextPartialResult = nextPartialResult
                super.init(name: "TryScan", downstream: downstream, kind: .throwing)
            }
            /// After a cancel values are still accumulated and forwarded; a throw then ends it
            /// silently, and an upstream completion is not forwarded (OpenCombine `Publishers.TryScan`).
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated || isCancelledByDownstream else { return .none }
                do {
                    result = try nextPartialResult(result, input)
                } catch {
                    if endPassThrough() { return .none }
                    cancel()
                    downstream.receive(completion: .failure(error))
                    return .none
                }
                return downstream.receive(result)
            }
        }
    }
}

extension Publisher {
    /// Emits each accumulation from `initialResult` as values arrive.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Like `scan(_:_:)`; a throw from `nextPartialResult` cancels upstream and fails the stream.
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}
