extension Publishers {
    /// Shifts every event `interval` frames later: each value and the completion (a failure
    /// too) received at `t` is delivered at `t + interval`, in arrival order. Demand passes
    /// through; what downstream returns from a delayed value is asked of upstream then.
    /// Cancelling drops undelivered values, unless upstream has already completed: from then on
    /// cancel does nothing and the pending events are still delivered (as in Combine).
    public struct Delay<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let interval: Int
        public let scheduler: VirtualTimeScheduler

        public init(upstream: Upstream, interval: Int, scheduler: VirtualTimeScheduler) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ScheduledDeliveryLink(downstream: subscriber) { [interval, scheduler] action in
                scheduler.schedule(afterFrames: interval, action)
            })
        }
    }
}

/// The machinery shared by `delay` and `receive(on:)`: every event is handed to `deliver`,
/// which queues it on the scheduler. Once upstream has completed, cancel is a no-op and the
/// queued events still arrive; a cancel before that drops them.
final class ScheduledDeliveryLink<Downstream: Subscriber>: OperatorLink<Downstream.Input, Downstream.Failure, Downstream> {
    private let deliver: (@escaping () -> Void) -> Void
    private var isCancelled = false

    init(downstream: Downstream, deliver: @escaping (@escaping () -> Void) -> Void) {
        self.deliver = deliver
        super.init(downstream: downstream)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        guard !isTerminated else { return .none }
        deliver { [self] in
            guard !isCancelled else { return }
            requestUpstream(downstream.receive(input))
        }
        return .none
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        guard terminate() else { return }
        deliver { [downstream] in downstream.receive(completion: completion) }
    }

    override func cancel() {
        guard !isTerminated else { return }
        isCancelled = true
        super.cancel()
    }
}

extension Publisher {
    /// Combine's `delay(for:scheduler:options:)`, with the delay in frames.
    public func delay(for interval: Int, scheduler: VirtualTimeScheduler) -> Publishers.Delay<Self> {
        Publishers.Delay(upstream: self, interval: interval, scheduler: scheduler)
    }
}
