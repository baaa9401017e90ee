extension Publishers {
    /// Passes the non-nil results of `transform`; hands the upstream subscription straight
    /// through, like `Filter` (OpenCombine `CompactMapTests.testCompactMapCancelAlreadyCancelled`).
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let transform: (Upstream.Output) -> Output?

        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, transform: transform))
        }

        private final class Link<Downstream: Subscriber>: PassThroughSubscriber<Upstream.Output, Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Failure {
            let transform: (Upstream.Output) -> Output?
            init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output?) {
                self.transform = transform
                super.init(downstream: downstream)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard let output = transform(input) else { return .max(1) }
                return downstream.receive(output)
            }
            override func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }

    /// Like `CompactMap`, but `transform` may throw, which fails the stream.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error
        public let upstream: Upstream
        public let transform: (Upstream.Output) throws -> Output?

        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, transform: transform))
        }

        private final class Link<Downstream: Subscriber>: FilteringLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == any Error {
            let transform: (Upstream.Output) throws -> Output?
            init(downstream: Downstream, transform: @escaping (Upstream.Output) throws -> Output?) {
                self.transform = transform
                super.init(name: "TryCompactMap", downstream: downstream, kind: .throwing)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                do {
                    guard let output = try transform(input) else { return .max(1) }
                    return downstream.receive(output)
                } catch {
                    end(.failure(error))
                    return .none
                }
            }
        }
    }
}

extension Publisher {
    /// Emits the non-nil results of `transform`; a dropped value is asked for again from upstream.
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }

    /// Like `compactMap(_:)`; a throw from `transform` cancels upstream and fails the stream.
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}
