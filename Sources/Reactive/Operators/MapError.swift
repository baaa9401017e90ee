extension Publishers {
    /// Transforms each failure; hands the upstream subscription straight through, like `Map`.
    public struct MapError<Upstream: Publisher, NewFailure: Error>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = NewFailure
        public let upstream: Upstream
        public let transform: (Upstream.Failure) -> NewFailure

        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> NewFailure) {
            self.upstream = upstream
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == NewFailure {
            upstream.receive(subscriber: Link(downstream: subscriber, transform: transform))
        }

        private final class Link<Downstream: Subscriber>: PassThroughSubscriber<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == NewFailure {
            let transform: (Upstream.Failure) -> NewFailure
            init(downstream: Downstream, transform: @escaping (Upstream.Failure) -> NewFailure) {
                self.transform = transform
                super.init(downstream: downstream)
            }
            override func receive(_ input: Output) -> Subscribers.Demand {
                downstream.receive(input)
            }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                downstream.receive(completion: completion.mapError(transform))
            }
        }
    }
}

extension Publisher {
    /// Transforms a failure with `transform`; values pass unchanged.
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}
