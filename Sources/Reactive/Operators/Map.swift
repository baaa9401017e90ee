extension Publishers {
    /// Transforms each value synchronously. Hands the upstream subscription straight through
    /// (see `PassThroughSubscriber`): demand and cancels pass untouched, and what upstream sends
    /// after a cancel still arrives (OpenCombine `MapTests.testMapCancel`).
    public struct Map<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let transform: (Upstream.Output) -> Output

        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, transform: transform))
        }

        private final class Link<Downstream: Subscriber>: PassThroughSubscriber<Upstream.Output, Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Failure {
            let transform: (Upstream.Output) -> Output
            init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output) {
                self.transform = transform
                super.init(downstream: downstream)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                downstream.receive(transform(input))
            }
            override func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }

    /// Transforms each value; a thrown error cancels upstream and fails the stream.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error
        public let upstream: Upstream
        public let transform: (Upstream.Output) throws -> Output

        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, transform: transform))
        }

        private final class Link<Downstream: Subscriber>: FilteringLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == any Error {
            let transform: (Upstream.Output) throws -> Output
            init(downstream: Downstream, transform: @escaping (Upstream.Output) throws -> Output) {
                self.transform = transform
                super.init(name: "TryMap", downstream: downstream, kind: .throwing)
            }
            /// After a cancel values are still transformed and forwarded, and a throw still
            /// fails the stream; an upstream completion is not forwarded (OpenCombine
            /// `MapTests.testTryMapCancel`, run against Combine: `.value(2)` after the cancel).
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated || isCancelledByDownstream else { return .none }
                do {
                    return downstream.receive(try transform(input))
                } catch {
                    cancel()
                    _ = endPassThrough()
                    downstream.receive(completion: .failure(error))
                    return .none
                }
            }
        }
    }
}

extension Publisher {
    /// Transforms each value with `transform`.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }

    /// Like `map(_:)`; a throw from `transform` cancels upstream and fails the stream.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}
