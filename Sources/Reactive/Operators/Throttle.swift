extension Publishers {
    /// Emits at most one value per `interval` (iOS 14+ behaviour, which reproduces the
    /// runs measured on iOS 14.1–14.4).
    ///
    /// A value that finds no emission pending is reserved (one unit of demand) and emitted at
    /// `Swift.max(now, lastEmission + interval)`: by a hop when that is now (so the first value is
    /// leading but not synchronous), else by a timer. While one is pending, `latest: true`
    /// replaces it and `latest: false` keeps it. Values arriving without downstream demand are
    /// dropped before that choice. A completion or failure waits for the pending value.
    ///
    /// Downstream gets its subscription before upstream is asked for `.unlimited` (OpenCombine
    /// asks first; the measured iOS 14 run, whose `@Published` seed value comes through, needs
    /// this order). A cancel drops the pending emission even after upstream has completed
    /// (OpenCombine).
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let interval: Context.SchedulerTimeType.Stride
        public let scheduler: Context
        public let latest: Bool
        /// Told of each value that arrives while the subscriber has no demand (not Combine API).
        public var demandDrops: DemandDrops<Output>?

        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, interval: interval, clock: OperatorClock(scheduler, options: nil), latest: latest,
                                              dropped: demandDrops?.subscription()))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            let interval: Context.SchedulerTimeType.Stride
            let clock: OperatorClock<Context>
            let latest: Bool
            private var demand: Subscribers.Demand = .none
            private var lastEmission: Context.SchedulerTimeType?
            private var pendingValue: Output?
            private var pendingCompletion: Subscribers.Completion<Upstream.Failure>?
            private var emission: (any Cancellable)?
            /// Cancelled by downstream; unlike completion, this also drops the pending emission.
            private var isCancelled = false
            /// Told of a value dropped for lack of demand (see `DemandDrops`).
            private let dropped: ((Output) -> Void)?

            init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, clock: OperatorClock<Context>, latest: Bool, dropped: ((Output) -> Void)?) {
                self.interval = interval
                self.clock = clock
                self.latest = latest
                self.dropped = dropped
                super.init(downstream: downstream)
            }

            override func receive(subscription: any Subscription) {
                let accepted = upstream == nil && !isTerminated
                super.receive(subscription: subscription)
                if accepted { requestUpstream(.unlimited) }
            }

            override func receive(_ input: Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                guard demand > 0 else {
                    dropped?(input)
                    return .none
                }
                if pendingValue != nil {
                    if latest { pendingValue = input }
                    return .none
                }
                let now = clock.now
                let emitAt = lastEmission.map { Swift.max(now, $0.advanced(by: interval)) } ?? now
                demand -= 1
                pendingValue = input
                if emitAt == now {
                    clock.hop { [weak self] in self?.emit() }
                } else {
                    emission = clock.cancellable(at: emitAt) { [weak self] in self?.emit() }
                }
                return .none
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                pendingCompletion = completion
                // With a value pending, the completion leaves together with it.
                if pendingValue == nil {
                    clock.hop { [weak self] in self?.emit() }
                }
            }

            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated else { return }
                self.demand += demand
            }

            override func cancel() {
                isCancelled = true
                pendingValue = nil
                pendingCompletion = nil
                emission?.cancel()
                emission = nil
                super.cancel()
            }

            private func emit() {
                emission = nil
                guard !isCancelled else { return }
                let value = pendingValue
                let completion = pendingCompletion
                pendingValue = nil
                pendingCompletion = nil
                if let value {
                    lastEmission = clock.now
                    let more = downstream.receive(value)
                    if !isTerminated { demand += more }
                }
                if let completion, !isCancelled {
                    downstream.receive(completion: completion)
                }
            }
        }
    }
}

extension Publisher {
    /// Publishes at most one value per `interval` on `scheduler`, the latest or the first of each
    /// interval (Combine's `throttle(for:scheduler:latest:)`).
    public func throttle<S: Scheduler>(for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}
