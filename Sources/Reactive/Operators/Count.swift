extension Publishers {
    /// The number of values, delivered at upstream finish (0 if there were none).
    public struct Count<Upstream: Publisher>: Publisher {
        public typealias Output = Int
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "Count", downstream: subscriber, initial: 0, kind: .plain) { result, _ in
                result = (result ?? 0) + 1
                return .continue
            })
        }
    }
}

extension Publisher {
    /// Emits the number of values when upstream finishes; a failure discards it.
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}
