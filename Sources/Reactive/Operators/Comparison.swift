extension Publishers {
    /// The greatest value by `areInIncreasingOrder`, delivered at upstream finish; `min` uses the
    /// flipped order. A value replaces the current one only if strictly greater, so ties keep the
    /// first received. An empty upstream gives `.finished` only.
    public struct Comparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let isLess = areInIncreasingOrder
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "Comparison", downstream: subscriber, initial: nil, mapFailure: { $0 }) { result, input in
                if let current = result, !isLess(current, input) { return .continue }
                result = input
                return .continue
            })
        }
    }

    /// Like `Comparison`, but the ordering may throw, which cancels upstream and fails the stream.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error
        public let upstream: Upstream
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let isLess = areInIncreasingOrder
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "TryComparison", downstream: subscriber, initial: nil, mapFailure: { $0 }) { result, input in
                do {
                    if let current = result, try !isLess(current, input) { return .continue }
                    result = input
                    return .continue
                } catch {
                    return .fail(error)
                }
            })
        }
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
