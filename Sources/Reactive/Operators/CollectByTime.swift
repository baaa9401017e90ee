extension Publishers {
    /// How `collect(_:options:)` groups values in time (Combine's `TimeGroupingStrategy`).
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// Emit what arrived in each window of the interval.
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// Emit each window, or earlier as soon as `count` values have arrived.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// Groups values into arrays by time windows (`.byTime`) or by time or count (`.byTimeOrCount`).
    ///
    /// Windows are ticks of a repeating timer started at subscription, every `interval` (on the
    /// virtual clock at least 1 frame). A tick emits the buffer if it is not empty — never an empty array. For
    /// `.byTime` a tick also needs downstream demand; without it the buffer carries over.
    /// Upstream is asked for one value per request and per value (so effectively everything).
    /// For `.byTimeOrCount` a full buffer (`count`, at least 1) is emitted by a hop and the
    /// window timer keeps its phase (heckj `ReducingOperatorTests.testCollectByTimeOrCount`,
    /// measured on Apple's Combine: after a full array at 0.3 s the partial one still leaves at
    /// the 1 s tick; CombineX's source restarts the timer, but no spec of it pins that);
    /// upstream is asked for `demand × count`.
    /// At finish a non-empty buffer and `.finished` follow by a hop; at failure the buffer is
    /// discarded and the failure follows by a hop.
    ///
    /// Open point (only CombineX implements this operator): the tick is a repeating timer that keeps its queue place,
    /// so it runs before same-frame work queued after the subscription (pointfree scheduler
    /// rule, §1); CombineX re-creates the timer at each tick. For `.byTimeOrCount`, demand
    /// returned from a tick's array is not passed upstream (CombineX `VersioningCollectByTimeSpec`,
    /// iOS 13.3+ request records `[Swift.max(4), Swift.max(2)]`).
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let strategy: TimeGroupingStrategy<Context>
        public let options: Context.SchedulerOptions?

        public init(upstream: Upstream, strategy: TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            switch strategy {
            case let .byTime(scheduler, interval):
                upstream.receive(subscriber: ByTime(downstream: subscriber, clock: OperatorClock(scheduler, options: options), interval: interval))
            case let .byTimeOrCount(scheduler, interval, count):
                upstream.receive(subscriber: ByTimeOrCount(downstream: subscriber, clock: OperatorClock(scheduler, options: options), interval: interval, count: count))
            }
        }

        /// What both strategies share: the buffer, the window timer, the completion by hop.
        private class Window<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            let clock: OperatorClock<Context>
            let interval: Context.SchedulerTimeType.Stride
            var buffer: [Upstream.Output] = []
            private var timer: (any Cancellable)?

            init(downstream: Downstream, clock: OperatorClock<Context>, interval: Context.SchedulerTimeType.Stride) {
                self.clock = clock
                // The virtual clock's windows are at least a frame long.
                if let frames = clock.frames(interval), frames < 1 {
                    self.interval = Context.SchedulerTimeType.Stride(exactly: 1) ?? interval
                } else {
                    self.interval = interval
                }
                super.init(downstream: downstream)
            }

            override func receive(subscription: any Subscription) {
                if upstream == nil, !isTerminated { restartTimer() }
                super.receive(subscription: subscription)
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                stopTimer()
                var rest: [Upstream.Output]?
                if case .finished = completion, !buffer.isEmpty { rest = buffer }
                buffer = []
                clock.hop { [downstream] in
                    if let rest { _ = downstream.receive(rest) }
                    downstream.receive(completion: completion)
                }
            }

            override func cancel() {
                stopTimer()
                buffer = []
                super.cancel()
            }

            /// Called on every tick while the link is live.
            func tick() {}

            func restartTimer() {
                timer?.cancel()
                timer = clock.repeating(every: interval) { [weak self] in
                    guard let self, !self.isTerminated else { return }
                    self.tick()
                }
            }

            private func stopTimer() {
                timer?.cancel()
                timer = nil
            }
        }

        private final class ByTime<Downstream: Subscriber>: Window<Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            private var demand: Subscribers.Demand = .none

            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                buffer.append(input)
                return .max(1)
            }

            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated else { return }
                self.demand += demand
                upstream?.request(.max(1))
            }

            override func tick() {
                guard demand > 0, !buffer.isEmpty else { return }
                let output = buffer
                buffer = []
                demand -= 1
                let more = downstream.receive(output)
                if !isTerminated { demand += more }
            }
        }

        private final class ByTimeOrCount<Downstream: Subscriber>: Window<Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            let count: Int
            private var isCancelled = false

            init(downstream: Downstream, clock: OperatorClock<Context>, interval: Context.SchedulerTimeType.Stride, count: Int) {
                self.count = Swift.max(1, count)
                super.init(downstream: downstream, clock: clock, interval: interval)
            }

            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                buffer.append(input)
                guard buffer.count >= count else { return .none }
                let output = buffer
                buffer = []
                // The window timer keeps running: a full array leaving early does not restart it.
                clock.hop { [self] in
                    // Queued before any completion hop; only a downstream cancel drops it.
                    guard !isCancelled else { return }
                    let more = downstream.receive(output)
                    requestUpstream(more * count)
                }
                return .none
            }

            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated else { return }
                requestUpstream(demand * count)
            }

            override func cancel() {
                if !isTerminated { isCancelled = true }
                super.cancel()
            }

            override func tick() {
                guard !buffer.isEmpty else { return }
                let output = buffer
                buffer = []
                _ = downstream.receive(output)
            }
        }
    }
}

extension Publisher {
    /// Collects values into arrays by time windows, or by time or count (Combine's
    /// `collect(_:options:)` with a `TimeGroupingStrategy`).
    public func collect<S: Scheduler>(_ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}
