extension Publishers {
    /// `false` as soon as a value fails `predicate` (upstream is cancelled at that instant),
    /// `true` at upstream finish otherwise (also for an empty upstream).
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Upstream.Output) -> Bool

        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "AllSatisfy", downstream: subscriber, initial: true, mapFailure: { $0 }) { result, input in
                guard !predicate(input) else { return .continue }
                result = false
                return .finish
            })
        }
    }

    /// Like `AllSatisfy`, but the predicate may throw, which cancels upstream and fails the stream.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = any Error
        public let upstream: Upstream
        public let predicate: (Upstream.Output) throws -> Bool

        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "TryAllSatisfy", downstream: subscriber, initial: true, mapFailure: { $0 }) { result, input in
                do {
                    guard try !predicate(input) else { return .continue }
                } catch {
                    return .fail(error)
                }
                result = false
                return .finish
            })
        }
    }
}

extension Publisher {
    /// Emits `false` at the first value that fails `predicate` (cancelling upstream), or `true` when upstream finishes.
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// Like `allSatisfy(_:)`; a throw from `predicate` cancels upstream and fails the stream.
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}
