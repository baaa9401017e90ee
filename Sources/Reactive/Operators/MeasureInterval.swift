extension Publishers {
    /// Replaces each value, synchronously, with the time elapsed on the scheduler since the
    /// previous value (a `Stride`; on the virtual clock, whole frames); the first value is
    /// measured from the subscription. Completion passes through; demand the subscriber returns
    /// from `receive(_:)` is requested upstream.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Context.SchedulerTimeType.Stride
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let scheduler: Context

        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, scheduler: scheduler))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            let scheduler: Context
            private var last: Context.SchedulerTimeType

            init(downstream: Downstream, scheduler: Context) {
                self.scheduler = scheduler
                last = scheduler.now
                super.init(downstream: downstream)
            }

            override func receive(subscription: any Subscription) {
                if upstream == nil, !isTerminated { last = scheduler.now }
                super.receive(subscription: subscription)
            }

            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                let now = scheduler.now
                let elapsed = last.distance(to: now)
                last = now
                // Combine requests the subscriber's extra demand upstream rather than returning
                // it (OpenCombine `MeasureIntervalTests.testRequest`): a `zip` upstream then asks
                // every input, not only the one that completed the tuple.
                requestUpstream(downstream.receive(elapsed))
                return .none
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                forwardOnce(completion)
            }
        }
    }
}

extension Publisher {
    /// Replaces each value with the time since the previous one on `scheduler` (Combine's
    /// `measureInterval(using:options:)`; the options are not used).
    public func measureInterval<S: Scheduler>(using scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}
