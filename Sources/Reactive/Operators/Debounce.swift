extension Publishers {
    /// Emits a value only once `dueTime` frames have passed without a newer one. Each value
    /// replaces the pending one and restarts the wait. When the wait ends the value goes
    /// downstream if it has demand, otherwise it is dropped. At completion (finished or failed)
    /// the pending value is dropped and the completion is delivered by a hop (same frame, after
    /// work already queued). A cancel after upstream completed does not stop that hop
    /// (OpenCombine: cancel is a no-op once upstream has completed).
    public struct Debounce<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let dueTime: Int
        public let scheduler: VirtualTimeScheduler

        public init(upstream: Upstream, dueTime: Int, scheduler: VirtualTimeScheduler) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, dueTime: dueTime, scheduler: scheduler))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            let dueTime: Int
            let scheduler: VirtualTimeScheduler
            @exclusivity(unchecked) private var demand: Subscribers.Demand = .none
            @exclusivity(unchecked) private var pending: Output?
            @exclusivity(unchecked) private var timer: ScheduledAction?
            /// One closure for every wait (made once: a closure per value cost an allocation and a metadata lookup).
            private lazy var fire: () -> Void = { [weak self] in self?.due() }

            init(downstream: Downstream, dueTime: Int, scheduler: VirtualTimeScheduler) {
                self.dueTime = dueTime
                self.scheduler = scheduler
                super.init(downstream: downstream)
            }

            override func receive(subscription: any Subscription) {
                let accepted = upstream == nil && !isTerminated
                super.receive(subscription: subscription)
                // Downstream demand is kept here; upstream is asked for everything.
                if accepted { requestUpstream(.unlimited) }
            }

            override func receive(_ input: Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                pending = input
                timer?.cancel()
                timer = scheduler.schedule(after: dueTime, fire)
                return .none
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                dropPending()
                scheduler.schedule { [downstream] in downstream.receive(completion: completion) }
            }

            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated else { return }
                self.demand += demand
            }

            override func cancel() {
                dropPending()
                super.cancel()
            }

            private func due() {
                timer = nil
                guard !isTerminated, let value = pending else { return }
                pending = nil
                guard demand > 0 else { return }
                demand -= 1
                demand += downstream.receive(value)
            }

            private func dropPending() {
                timer?.cancel()
                timer = nil
                pending = nil
            }
        }
    }
}

extension Publisher {
    /// Combine's `debounce(for:scheduler:options:)`, with the wait in frames.
    public func debounce(for dueTime: Int, scheduler: VirtualTimeScheduler) -> Publishers.Debounce<Self> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler)
    }
}
