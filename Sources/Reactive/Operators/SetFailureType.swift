extension Publishers {
    /// Changes the failure type of a publisher that cannot fail; values and completion pass
    /// through, and the upstream subscription is handed straight through (like `Map`).
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        public typealias Output = Upstream.Output
        public let upstream: Upstream

        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber))
        }

        public func setFailureType<E: Error>(to failureType: E.Type) -> SetFailureType<Upstream, E> {
            SetFailureType<Upstream, E>(upstream: upstream)
        }

        private final class Link<Downstream: Subscriber>: PassThroughSubscriber<Upstream.Output, Never, Downstream> where Downstream.Input == Upstream.Output {
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                downstream.receive(input)
            }

            override func receive(completion: Subscribers.Completion<Never>) {
                downstream.receive(completion: .finished)
            }
        }
    }
}

extension Publisher where Failure == Never {
    /// Gives a publisher that cannot fail the failure type `failureType`; events pass unchanged.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}
