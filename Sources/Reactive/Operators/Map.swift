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

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == any Error {
            let transform: (Upstream.Output) throws -> Output
            init(downstream: Downstream, transform: @escaping (Upstream.Output) throws -> Output) {
                self.transform = transform
                super.init(downstream: downstream)
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
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                downstream.receive(completion: completion.eraseError)
            }
        }
    }

    /// Transforms each failure; hands the upstream subscription straight through, like `Map`.
    public struct MapError<Upstream: Publisher, NewFailure: Error>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = NewFailure
        public let upstream: Upstream
        public let transform: (Upstream.Failure) -> NewFailure

        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> NewFailure) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == NewFailure {
            upstream.receive(subscriber: Link(downstream: subscriber, transform: transform))
        }

        private final class Link<Downstream: Subscriber>: PassThroughSubscriber<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == NewFailure {
            let transform: (Upstream.Failure) -> NewFailure
            init(downstream: Downstream, transform: @escaping (Upstream.Failure) -> NewFailure) {
                self.transform = transform
                super.init(downstream: downstream)
            }
            override func receive(_ input: Output) -> Subscribers.Demand {
                downstream.receive(input)
            }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                downstream.receive(completion: completion.mapError(transform))
            }
        }
    }
}

extension Publisher {
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }

    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }

    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}

extension Publisher {
    /// Replaces every `nil` value with `output` (Combine's `replaceNil(with:)`).
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        map { $0 ?? output }
    }
}
