extension Scheduler {
    /// A connectable publisher of ticks every `interval` on this scheduler, each tick's value
    /// the scheduler's time (combine-schedulers' `timerPublisher(every:tolerance:options:)`, the
    /// schedulable counterpart of Foundation's `Timer.publish(every:on:in:)`). Start it with
    /// `connect()` or `autoconnect()`.
    public func timerPublisher(every interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride? = nil, options: SchedulerOptions? = nil) -> Publishers.Timer<Self> {
        Publishers.Timer(every: interval, tolerance: tolerance, scheduler: self, options: options)
    }
}

extension Publishers {
    /// Ticks from `connect()`: the first at connect + interval, then every interval. A tick
    /// reaches only the subscribers with demand at that moment (the others miss it; nothing is
    /// buffered). Never completes. Cancelling a connection stops its ticks and detaches every
    /// current subscriber, which then hears nothing more (as OpenCombine's `TimerPublisher`).
    /// Each `connect()` starts its own clock.
    /// On the virtual clock the interval is at least one frame, and a tick keeps its first place
    /// in each frame's order (it was queued at `connect()`).
    public final class Timer<Context: Scheduler>: ConnectablePublisher {
        public typealias Output = Context.SchedulerTimeType
        public typealias Failure = Never

        public let interval: Context.SchedulerTimeType.Stride
        public let tolerance: Context.SchedulerTimeType.Stride?
        public let scheduler: Context
        public let options: Context.SchedulerOptions?
        private var subscriptions: [Tick] = []
        /// Told of each tick a subscriber misses for lack of demand (not Combine API).
        public var demandDrops: DemandDrops<Output>?

        public init(every interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride? = nil, scheduler: Context, options: Context.SchedulerOptions? = nil) {
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            let subscription = Tick(AnySubscriber(subscriber), parent: self, dropped: demandDrops?.subscription())
            subscriptions.append(subscription)
            subscriber.receive(subscription: subscription)
        }

        /// Starts a clock. The returned handle stops it; dropping the handle does not (as a
        /// run loop keeps a Foundation timer alive).
        public func connect() -> any Cancellable {
            var interval = self.interval
            if let frames = OperatorClock(scheduler, options: options).frames(interval), frames < 1 {
                interval = Context.SchedulerTimeType.Stride(exactly: 1) ?? interval
            }
            let clock = scheduler.schedule(after: scheduler.now.advanced(by: interval), interval: interval,
                                           tolerance: tolerance ?? scheduler.minimumTolerance, options: options) { [self] in
                fire()
            }
            return Connection(clock: clock, publisher: self)
        }

        private func fire() {
            let now = scheduler.now
            for subscription in subscriptions { subscription.send(now) }
        }

        private func disconnectAll() {
            let detached = subscriptions
            subscriptions = []
            for subscription in detached { subscription.detach() }
        }

        fileprivate func remove(_ subscription: Tick) {
            subscriptions.removeAll { $0 === subscription }
        }

        private final class Connection: Cancellable {
            private var clock: (any Cancellable)?
            private weak var publisher: Timer?

            init(clock: any Cancellable, publisher: Timer) {
                self.clock = clock
                self.publisher = publisher
            }

            func cancel() {
                guard let clock else { return }
                self.clock = nil
                clock.cancel()
                publisher?.disconnectAll()
            }
        }

        /// One subscriber's link to the timer, with its own demand.
        fileprivate final class Tick: Subscription {
            private var downstream: AnySubscriber<Output, Never>?
            private var demand: Subscribers.Demand = .none
            private weak var parent: Timer?
            private let dropped: ((Output) -> Void)?

            init(_ downstream: AnySubscriber<Output, Never>, parent: Timer, dropped: ((Output) -> Void)?) {
                self.downstream = downstream
                self.parent = parent
                self.dropped = dropped
            }

            func send(_ time: Output) {
                guard let downstream else { return }
                guard demand > 0 else {
                    dropped?(time)
                    return
                }
                demand -= 1
                let more = downstream.receive(time)
                if self.downstream != nil { demand += more }
            }

            func request(_ demand: Subscribers.Demand) {
                guard downstream != nil else { return }
                self.demand += demand
            }

            func cancel() {
                guard downstream != nil else { return }
                detach()
                parent?.remove(self)
            }

            func detach() { downstream = nil }
        }
    }
}
