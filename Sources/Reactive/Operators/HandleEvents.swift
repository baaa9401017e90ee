extension Publishers {
    /// Runs side-effect closures synchronously *before* forwarding each event: the subscription
    /// (before downstream gets it), each value, each downstream request (and each non-zero
    /// demand returned from downstream's `receive`), the completion, and a cancel (before
    /// upstream is cancelled). The closures are released after the terminal event.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public var receiveSubscription: ((any Subscription) -> Void)?
        public var receiveOutput: ((Upstream.Output) -> Void)?
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        public var receiveCancel: (() -> Void)?
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Upstream.Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, events: self))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
            var receiveSubscription: ((any Subscription) -> Void)?
            var receiveOutput: ((Upstream.Output) -> Void)?
            var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
            var receiveCancel: (() -> Void)?
            var receiveRequest: ((Subscribers.Demand) -> Void)?

            init(downstream: Downstream, events: HandleEvents) {
                receiveSubscription = events.receiveSubscription
                receiveOutput = events.receiveOutput
                receiveCompletion = events.receiveCompletion
                receiveCancel = events.receiveCancel
                receiveRequest = events.receiveRequest
                super.init(downstream: downstream)
            }

            override func receive(subscription: any Subscription) {
                receiveSubscription?(subscription)
                super.receive(subscription: subscription)
            }

            /// After a cancel the closures are gone, but what upstream still sends is forwarded
            /// (OpenCombine `Publishers.HandleEvents`: its value and completion paths check no state).
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated || isCancelledByDownstream else { return .none }
                receiveOutput?(input)
                let demand = downstream.receive(input)
                if demand > 0 { receiveRequest?(demand) }
                return demand
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                if endPassThrough() {
                    downstream.receive(completion: completion)
                    return
                }
                guard !isTerminated else { return }
                receiveCompletion?(completion)
                release()
                forwardOnce(completion)
            }

            override func request(_ demand: Subscribers.Demand) {
                receiveRequest?(demand)
                super.request(demand)
            }

            override func cancel() {
                receiveCancel?()
                release()
                super.cancel()
            }

            private func release() {
                receiveSubscription = nil
                receiveOutput = nil
                receiveCompletion = nil
                receiveCancel = nil
                receiveRequest = nil
            }
        }
    }
}

extension Publisher {
    /// Calls the given closures on each event before forwarding it unchanged.
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion,
            receiveCancel: receiveCancel,
            receiveRequest: receiveRequest
        )
    }
}
