extension Publishers {
    /// Ends the stream when upstream stays silent for `interval`: it cancels upstream and
    /// sends `.finished`, or `.failure(customError())` when a `customError` is given (Combine
    /// does not fail by default). The clock starts at subscription, restarts at the first
    /// downstream request and at every value. Values and upstream's completion are forwarded
    /// by a hop; demand passes through.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let interval: Context.SchedulerTimeType.Stride
        public let scheduler: Context
        public let options: Context.SchedulerOptions?
        public let customError: (() -> Upstream.Failure)?

        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions?, customError: (() -> Upstream.Failure)?) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, interval: interval, clock: OperatorClock(scheduler, options: options), customError: customError))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            let interval: Context.SchedulerTimeType.Stride
            let clock: OperatorClock<Context>
            /// The interval in frames on the virtual clock.
            let frames: Int?
            let customError: (() -> Upstream.Failure)?
            private var timer: (any Cancellable)?
            private var hasRequested = false
            /// Upstream has completed; its completion is on its way by a hop.
            private var upstreamCompleted = false

            init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, clock: OperatorClock<Context>, customError: (() -> Upstream.Failure)?) {
                self.interval = interval
                self.clock = clock
                frames = clock.frames(interval)
                self.customError = customError
                super.init(downstream: downstream)
            }

            override func receive(subscription: any Subscription) {
                if upstream == nil, !isTerminated { restartClock() }
                super.receive(subscription: subscription)
            }

            override func receive(_ input: Output) -> Subscribers.Demand {
                guard !isTerminated, !upstreamCompleted else { return .none }
                restartClock()
                clock.hop { [self] in
                    guard !isTerminated else { return }
                    requestUpstream(downstream.receive(input))
                }
                return .none
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard !isTerminated, !upstreamCompleted else { return }
                upstreamCompleted = true
                stopClock()
                clock.hop { [self] in
                    // A cancel before this hop drops the completion.
                    forwardOnce(completion)
                }
            }

            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated else { return }
                if !hasRequested, !upstreamCompleted {
                    hasRequested = true
                    restartClock()
                }
                super.request(demand)
            }

            override func cancel() {
                stopClock()
                super.cancel()
            }

            private func restartClock() {
                timer?.cancel()
                timer = clock.cancellable(after: interval, frames: frames) { [weak self] in self?.timedOut() }
            }

            private func stopClock() {
                timer?.cancel()
                timer = nil
            }

            private func timedOut() {
                timer = nil
                guard !isTerminated, !upstreamCompleted else { return }
                super.cancel()
                downstream.receive(completion: customError.map { .failure($0()) } ?? .finished)
            }
        }
    }
}

extension Publisher {
    /// Ends the stream when upstream stays silent for `interval` on `scheduler`: finishes, or
    /// fails with `customError()` (Combine's `timeout(_:scheduler:options:customError:)`).
    public func timeout<S: Scheduler>(_ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil, customError: (() -> Failure)? = nil) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}
