extension Publishers {
    /// Subscribes to upstream by a hop on `scheduler`, and passes every request and the cancel
    /// by a hop too; values and completions come through synchronously. Values that arrive
    /// between a cancel and its hop are dropped.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
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
            let link = Link(downstream: subscriber, clock: clock)
            clock.hop { [upstream] in upstream.receive(subscriber: link) }
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            let clock: OperatorClock<Context>

            init(downstream: Downstream, clock: OperatorClock<Context>) {
                self.clock = clock
                super.init(downstream: downstream)
            }

            override func receive(_ input: Output) -> Subscribers.Demand {
                isTerminated ? .none : downstream.receive(input)
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                forwardOnce(completion)
            }

            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated, let upstream else { return }
                clock.hop { upstream.request(demand) }
            }

            override func cancel() {
                let upstream = self.upstream
                // Stop passing events now; upstream hears of the cancel by a hop.
                guard terminate() else { return }
                clock.hop { upstream?.cancel() }
            }
        }
    }
}

extension Publisher {
    /// Subscribes, requests and cancels on `scheduler` (Combine's `subscribe(on:options:)`).
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}
