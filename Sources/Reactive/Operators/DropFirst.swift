extension Publishers {
    /// Skips the first `count` values. Downstream gets its subscription before upstream is
    /// subscribed; upstream is then asked for the demand gathered so far plus `count` at once,
    /// so the skipped values cost no downstream demand (Combine's `Drop`).
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let count: Int

        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            precondition(count >= 0, "dropFirst: count must not be negative")
            let link = Link(downstream: subscriber, count: count)
            subscriber.receive(subscription: link)
            upstream.receive(subscriber: link)
        }

        private final class Link<Downstream: Subscriber>: Subscriber, Subscription where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
            typealias Input = Upstream.Output
            typealias Failure = Upstream.Failure

            let downstream: Downstream
            var upstream: (any Subscription)?
            var remaining: Int
            var pendingDemand: Subscribers.Demand = .none
            /// Cancelled or completed: requests and cancels go no further.
            var isTerminated = false
            /// Upstream completed: nothing more passes.
            var isCompleted = false

            init(downstream: Downstream, count: Int) {
                self.downstream = downstream
                remaining = count
            }

            func receive(subscription: any Subscription) {
                guard upstream == nil, !isTerminated else { subscription.cancel(); return }
                upstream = subscription
                let demand = pendingDemand + remaining
                pendingDemand = .none
                if demand > 0 { subscription.request(demand) }
            }

            /// No check for a cancel: Combine's `Drop` keeps counting and forwarding what its
            /// upstream still sends after one (OpenCombine `DropTests.testReusableSubscription`).
            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isCompleted else { return .none }
                if remaining > 0 {
                    remaining -= 1
                    return .none
                }
                return downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard !isCompleted else { return }
                isCompleted = true
                isTerminated = true
                upstream = nil
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                guard !isTerminated, demand > 0 else { return }
                if let upstream { upstream.request(demand) } else { pendingDemand += demand }
            }

            func cancel() {
                guard !isTerminated else { return }
                isTerminated = true
                let upstream = self.upstream
                self.upstream = nil
                upstream?.cancel()
            }
        }
    }
}

extension Publisher {
    /// Skips the first `count` values; upstream is asked for the downstream demand plus `count`.
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}
