extension Publishers {
    /// Passes the values `isIncluded` accepts; each dropped value is asked for again upstream.
    /// Hands the upstream subscription straight through, like `Map` (OpenCombine
    /// `FilterTests.testFilterCancelAlreadyCancelled`); `tryFilter` does not.
    public struct Filter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let isIncluded: (Output) -> Bool

        public init(upstream: Upstream, isIncluded: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, isIncluded: isIncluded))
        }

        private final class Link<Downstream: Subscriber>: PassThroughSubscriber<Output, Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Failure {
            let isIncluded: (Output) -> Bool
            init(downstream: Downstream, isIncluded: @escaping (Output) -> Bool) {
                self.isIncluded = isIncluded
                super.init(downstream: downstream)
            }
            override func receive(_ input: Output) -> Subscribers.Demand {
                isIncluded(input) ? downstream.receive(input) : .max(1)
            }
            override func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }

    /// Like `Filter`, but the predicate may throw, which fails the stream.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error
        public let upstream: Upstream
        public let isIncluded: (Output) throws -> Bool

        public init(upstream: Upstream, isIncluded: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, isIncluded: isIncluded))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == any Error {
            let isIncluded: (Output) throws -> Bool
            init(downstream: Downstream, isIncluded: @escaping (Output) throws -> Bool) {
                self.isIncluded = isIncluded
                super.init(downstream: downstream)
            }
            override func receive(_ input: Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                do {
                    return try isIncluded(input) ? downstream.receive(input) : .max(1)
                } catch {
                    cancel()
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

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == any Error {
            let transform: (Upstream.Output) throws -> Output?
            init(downstream: Downstream, transform: @escaping (Upstream.Output) throws -> Output?) {
                self.transform = transform
                super.init(downstream: downstream)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                do {
                    guard let output = try transform(input) else { return .max(1) }
                    return downstream.receive(output)
                } catch {
                    cancel()
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
}

extension Publisher {
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }

    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }

    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }

    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}
