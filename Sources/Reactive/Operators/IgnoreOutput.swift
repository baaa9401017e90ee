extension Publishers {
    /// Forwards only the completion. Hands the upstream subscription straight to downstream and
    /// then asks it for `.unlimited` itself, so upstream sees the subscriber's own requests (at
    /// subscription and later) besides that `.unlimited`, and every cancel (OpenCombine
    /// `IgnoreOutputTests.testDemand`, run against Combine).
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        public typealias Output = Never
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber))
        }

        private final class Link<Downstream: Subscriber>: PassThroughSubscriber<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Never, Downstream.Failure == Upstream.Failure {
            override func receive(subscription: any Subscription) {
                downstream.receive(subscription: subscription)
                subscription.request(.unlimited)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand { .none }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Drops every value and forwards only the completion.
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}
