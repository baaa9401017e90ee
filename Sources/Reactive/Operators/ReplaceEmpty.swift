extension Publishers {
    /// Sends `output` then `.finished` when upstream finishes without having sent a value; a
    /// failure passes through. As in Combine (OpenCombine `Publishers.ReplaceEmpty.swift`, compatibility
    /// test `testDemand`), after handing downstream its subscription it asks upstream for
    /// `.unlimited`, and the replacement waits until downstream has made a request.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let output: Upstream.Output

        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, output: output))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
            private let output: Upstream.Output
            private var receivedValue = false
            private var downstreamRequested = false
            private var owesReplacement = false

            init(downstream: Downstream, output: Upstream.Output) {
                self.output = output
                super.init(downstream: downstream)
            }

            override func receive(subscription: any Subscription) {
                guard upstream == nil, !isTerminated else { subscription.cancel(); return }
                super.receive(subscription: subscription)
                requestUpstream(.unlimited)
            }

            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                receivedValue = true
                return downstream.receive(input)
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard !isTerminated, !owesReplacement else { return }
                guard !receivedValue, case .finished = completion else {
                    terminate()
                    downstream.receive(completion: completion)
                    return
                }
                guard downstreamRequested else {
                    owesReplacement = true
                    return
                }
                terminate()
                _ = downstream.receive(output)
                downstream.receive(completion: .finished)
            }

            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated, demand > 0 else { return }
                downstreamRequested = true
                if owesReplacement {
                    terminate()
                    _ = downstream.receive(output)
                    downstream.receive(completion: .finished)
                    return
                }
                requestUpstream(demand)
            }
        }
    }
}

extension Publisher {
    /// Emits `output` and finishes if upstream finishes without a value; a failure passes through.
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}
