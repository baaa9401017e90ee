extension Publishers {
    /// `removeDuplicates(by:)` and `tryRemoveDuplicates(by:)`: passes a value unless
    /// `predicate(previous, value)` says it duplicates the previous one; the first value always
    /// passes, and each dropped value is asked for again upstream. A throw (only
    /// `TryRemoveDuplicates`'s predicate can) cancels upstream and fails the stream.
    ///
    /// Disputed: "previous" is the last value *received*, not the last emitted (OpenCombine,
    /// compatibility-tested; CombineX compares with the last emitted). It only matters for
    /// non-transitive predicates.
    public struct RemoveDuplicatesOrTry<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output
        public let upstream: Upstream
        public let predicate: (Output, Output) throws -> Bool
        private let kind: FailureKind<Upstream.Failure, Failure>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(name: kind.name("RemoveDuplicates"), downstream: subscriber, kind: kind, predicate: predicate))
        }

        private final class Link<Downstream: Subscriber>: FilteringLink<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Failure {
            let predicate: (Output, Output) throws -> Bool
            var last: Output?
            init(name: String, downstream: Downstream, kind: FailureKind<Upstream.Failure, Downstream.Failure>, predicate: @escaping (Output, Output) throws -> Bool) {
                self.predicate = predicate
                super.init(name: name, downstream: downstream, kind: kind)
            }
            override func receive(_ input: Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                let previous = last
                last = input
                do {
                    if let previous, try predicate(previous, input) { return .max(1) }
                } catch {
                    fail(error)
                    return .none
                }
                return downstream.receive(input)
            }
        }
    }

    /// Drops a value that `predicate` says duplicates the one received just before it.
    public typealias RemoveDuplicates<Upstream: Publisher> = RemoveDuplicatesOrTry<Upstream, Upstream.Failure>
    /// Like `RemoveDuplicates`, but the predicate may throw, which cancels upstream and fails the stream.
    public typealias TryRemoveDuplicates<Upstream: Publisher> = RemoveDuplicatesOrTry<Upstream, any Error>
}

extension Publishers.RemoveDuplicatesOrTry where Failure == Upstream.Failure {
    /// The publisher of `removeDuplicates(by:)`: fails only as upstream does.
    public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .plain) }
}

extension Publishers.RemoveDuplicatesOrTry where Failure == any Error {
    /// The publisher of `tryRemoveDuplicates(by:)`: a throw from the closure fails it with that error.
    public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .throwing) }
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
