extension Publishers {
    /// `max(by:)`/`min(by:)` and their `try` twins: the greatest value by `areInIncreasingOrder`,
    /// delivered at upstream finish; `min` uses the flipped order. A value replaces the current
    /// one only if strictly greater, so ties keep the first received. An empty upstream gives
    /// `.finished` only. A throw (only `TryComparison`'s ordering can) cancels upstream and fails the stream.
    public struct ComparisonOrTry<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output
        public let upstream: Upstream
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool
        private let kind: FailureKind<Upstream.Failure, Failure>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let isLess = areInIncreasingOrder
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: kind.name("Comparison"), downstream: subscriber, initial: nil, kind: kind) { result, input in
                if let current = result, try !isLess(current, input) { return .continue }
                result = input
                return .continue
            })
        }
    }

    /// The greatest value by an ordering (`min` flips it), delivered at upstream finish.
    public typealias Comparison<Upstream: Publisher> = ComparisonOrTry<Upstream, Upstream.Failure>
    /// Like `Comparison`, but the ordering may throw, which cancels upstream and fails the stream.
    public typealias TryComparison<Upstream: Publisher> = ComparisonOrTry<Upstream, any Error>
}

extension Publishers.ComparisonOrTry where Failure == Upstream.Failure {
    /// The publisher of `max(by:)`: fails only as upstream does.
    public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
        self.init(upstream: upstream, areInIncreasingOrder: areInIncreasingOrder, kind: .plain)
    }
}

extension Publishers.ComparisonOrTry where Failure == any Error {
    /// The publisher of `tryMax(by:)`: a throw from the closure fails it with that error.
    public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
        self.init(upstream: upstream, areInIncreasingOrder: areInIncreasingOrder, kind: .throwing)
    }
}

extension Publisher {
    /// Emits the smallest value by `areInIncreasingOrder` when upstream finishes (the first of equals); nothing for an empty upstream.
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Emits the largest value by `areInIncreasingOrder` when upstream finishes (the first of equals); nothing for an empty upstream.
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// Like `min(by:)`; a throw from the ordering cancels upstream and fails the stream.
    public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Like `max(by:)`; a throw from the ordering cancels upstream and fails the stream.
    public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension Publisher where Output: Comparable {
    /// Emits the smallest value when upstream finishes (the first of equals).
    public func min() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: >)
    }

    /// Emits the largest value when upstream finishes (the first of equals).
    public func max() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: <)
    }
}
