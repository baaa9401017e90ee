extension Publishers {
    /// Delivers every value and the completion by a hop on `scheduler`: same frame, after the
    /// work already queued for it, in arrival order. The subscription, requests and cancel pass
    /// synchronously (iOS 13.3+). Cancelling drops values still queued, unless upstream has
    /// already completed (then the queued values and the completion still arrive).
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let scheduler: Context
        public let options: Context.SchedulerOptions?

        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let clock = OperatorClock(scheduler, options: options)
            upstream.receive(subscriber: ScheduledDeliveryLink(downstream: subscriber, deliver: clock.hop))
        }
    }
}

extension Publisher {
    /// Delivers values and the completion on `scheduler` (Combine's `receive(on:options:)`).
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}
