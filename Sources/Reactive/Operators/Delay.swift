extension Publishers {
    /// Shifts every event `interval` later: each value and the completion (a failure
    /// too) received at `t` is delivered at `t + interval`, in arrival order. Demand passes
    /// through; what downstream returns from a delayed value is asked of upstream then.
    /// Cancelling drops undelivered values, unless upstream has already completed: from then on
    /// cancel does nothing and the pending events are still delivered (as in Combine).
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let interval: Context.SchedulerTimeType.Stride
        public let tolerance: Context.SchedulerTimeType.Stride
        public let scheduler: Context
        public let options: Context.SchedulerOptions?

        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions? = nil) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let clock = OperatorClock(scheduler, options: options)
            upstream.receive(subscriber: ScheduledDeliveryLink(downstream: subscriber) { [interval, tolerance] action in
                clock.once(at: clock.now.advanced(by: interval), tolerance: tolerance, action)
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
    /// Delivers every value and the completion `interval` later on `scheduler` (Combine's
    /// `delay(for:tolerance:scheduler:options:)`; no tolerance means the scheduler's minimum).
    public func delay<S: Scheduler>(for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.Delay<Self, S> {
        Publishers.Delay(upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance, scheduler: scheduler, options: options)
    }
}
