// The first/last family are reducers (see `ReducingLink` in ReducingLink.swift): they ask upstream for
// `.unlimited` and hold their result until downstream has requested at least once.

extension Publishers {
    /// The last value, sent with `.finished` when upstream finishes. Empty upstream: `.finished` only.
    public struct Last<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "Last", downstream: subscriber, initial: nil, mapFailure: { $0 }) { result, input in
                result = input
                return .continue
            })
        }
    }

    /// The last value satisfying `predicate`, as `Last`.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Output) -> Bool

        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "LastWhere", downstream: subscriber, initial: nil, mapFailure: { $0 }) { result, input in
                if predicate(input) { result = input }
                return .continue
            })
        }
    }

    /// Like `LastWhere`, but the predicate may throw, which cancels upstream and fails the stream.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error
        public let upstream: Upstream
        public let predicate: (Output) throws -> Bool

        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "TryLastWhere", downstream: subscriber, initial: nil, mapFailure: { $0 }) { result, input in
                do {
                    if try predicate(input) { result = input }
                    return .continue
                } catch {
                    return .fail(error)
                }
            })
        }
    }
}

extension Publisher {
    /// Emits the last value when upstream finishes; an empty upstream just finishes.
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }

    /// Emits the last value matching `predicate` when upstream finishes.
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// Like `last(where:)`; a throw from `predicate` cancels upstream and fails the stream.
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}
