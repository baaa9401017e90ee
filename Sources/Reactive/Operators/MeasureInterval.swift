extension Publishers {
    /// Replaces each value, synchronously, with the frames elapsed since the previous value;
    /// the first value is measured from the subscription. Completion passes through.
    public struct MeasureInterval<Upstream: Publisher>: Publisher {
        public typealias Output = Int
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let scheduler: VirtualTimeScheduler

        public init(upstream: Upstream, scheduler: VirtualTimeScheduler) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, scheduler: scheduler))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Int, Downstream.Failure == Upstream.Failure {
            let scheduler: VirtualTimeScheduler
            private var last: VirtualTime

            init(downstream: Downstream, scheduler: VirtualTimeScheduler) {
                self.scheduler = scheduler
                last = scheduler.currentFrame
                super.init(downstream: downstream)
            }

            override func receive(subscription: any Subscription) {
                if upstream == nil, !isTerminated { last = scheduler.currentFrame }
                super.receive(subscription: subscription)
            }

            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                let now = scheduler.currentFrame
                let elapsed = now - last
                last = now
                return downstream.receive(elapsed)
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Combine's `measureInterval(using:options:)`: the interval is a whole number of frames.
    public func measureInterval(using scheduler: VirtualTimeScheduler) -> Publishers.MeasureInterval<Self> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}
