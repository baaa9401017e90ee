extension Publishers {
    /// Passes a value unless `predicate(previous, value)` says it duplicates the previous one;
    /// the first value always passes, and each dropped value is asked for again upstream.
    ///
    /// Disputed: "previous" is the last value *received*, not the last emitted (OpenCombine,
    /// compatibility-tested; CombineX compares with the last emitted). It only matters for
    /// non-transitive predicates.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Output, Output) -> Bool

        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, predicate: predicate))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
            let predicate: (Upstream.Output, Upstream.Output) -> Bool
            var last: Upstream.Output?
            init(downstream: Downstream, predicate: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
                self.predicate = predicate
                super.init(downstream: downstream)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                let previous = last
                last = input
                if let previous, predicate(previous, input) { return .max(1) }
                return downstream.receive(input)
            }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                downstream.receive(completion: completion)
            }
        }
    }

    /// Like `RemoveDuplicates`, but the predicate may throw, which cancels upstream and fails the stream.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error
        public let upstream: Upstream
        public let predicate: (Output, Output) throws -> Bool

        public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, predicate: predicate))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Upstream.Output, Downstream.Failure == any Error {
            let predicate: (Upstream.Output, Upstream.Output) throws -> Bool
            var last: Upstream.Output?
            init(downstream: Downstream, predicate: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
                self.predicate = predicate
                super.init(downstream: downstream)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                let previous = last
                last = input
                guard let previous else { return downstream.receive(input) }
                do {
                    if try predicate(previous, input) { return .max(1) }
                } catch {
                    cancel()
                    downstream.receive(completion: .failure(error))
                    return .none
                }
                return downstream.receive(input)
            }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                downstream.receive(completion: completion.eraseError)
            }
        }
    }
}

extension Publisher where Output: Equatable {
    /// Drops a value equal to the one received just before it.
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Drops a value that `predicate` says duplicates the one received just before it.
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }

    /// Like `removeDuplicates(by:)`; a throw from `predicate` cancels upstream and fails the stream.
    public func tryRemoveDuplicates(by predicate: @escaping (Output, Output) throws -> Bool) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}
