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

        private final class Link<Downstream: Subscriber>: FilteringLink<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == any Error {
            let isIncluded: (Output) throws -> Bool
            init(downstream: Downstream, isIncluded: @escaping (Output) throws -> Bool) {
                self.isIncluded = isIncluded
                super.init(name: "TryFilter", downstream: downstream, kind: .throwing)
            }
            override func receive(_ input: Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                do {
                    return try isIncluded(input) ? downstream.receive(input) : .max(1)
                } catch {
                    end(.failure(error))
                    return .none
                }
            }
        }
    }
}

extension Publisher {
    /// Forwards the values `isIncluded` accepts; a dropped value is asked for again from upstream.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }

    /// Like `filter(_:)`; a throw from `isIncluded` cancels upstream and fails the stream.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}
