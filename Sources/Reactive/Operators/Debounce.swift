extension Publishers {
    /// Emits a value only once `dueTime` has passed without a newer one. Each value
    /// replaces the pending one and restarts the wait. When the wait ends the value goes
    /// downstream if it has demand, otherwise it is dropped. At completion (finished or failed)
    /// the pending value is dropped and the completion is delivered by a hop (same frame, after
    /// work already queued). A cancel after upstream completed does not stop that hop
    /// (OpenCombine: cancel is a no-op once upstream has completed).
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let dueTime: Context.SchedulerTimeType.Stride
        public let scheduler: Context
        public let options: Context.SchedulerOptions?
        /// Told of each value whose wait ends while the subscriber has no demand (not Combine API).
        public var demandDrops: DemandDrops<Output>?

        public init(upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let clock = OperatorClock(scheduler, options: options)
            let dropped = demandDrops?.subscription()
            if let virtual = clock.virtual, let frames = clock.frames(dueTime) {
                upstream.receive(subscriber: VirtualLink(downstream: subscriber, dueTime: frames, scheduler: virtual, dropped: dropped))
            } else {
                upstream.receive(subscriber: SchedulerLink(downstream: subscriber, dueTime: dueTime, clock: clock, dropped: dropped))
            }
        }

        /// What both links share: downstream's demand is kept here and upstream is asked for
        /// everything; a cancel drops the pending value.
        private class Link<Downstream: Subscriber>: OperatorLink<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            @exclusivity(unchecked) final var demand: Subscribers.Demand = .none
            /// Told of a value dropped for lack of demand (see `DemandDrops`).
            final let dropped: ((Output) -> Void)?

            init(downstream: Downstream, dropped: ((Output) -> Void)?) {
                self.dropped = dropped
                super.init(downstream: downstream)
            }

            override func receive(subscription: any Subscription) {
                let accepted = upstream == nil && !isTerminated
                super.receive(subscription: subscription)
                if accepted { requestUpstream(.unlimited) }
            }

            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated else { return }
                self.demand += demand
            }

            override func cancel() {
                dropPending()
                super.cancel()
            }

            /// Forgets the pending value and its wait.
            func dropPending() {}

            /// A wait ended: `value` goes downstream if it has demand, else it is dropped.
            final func deliver(_ value: Output) {
                guard demand > 0 else {
                    dropped?(value)
                    return
                }
                demand -= 1
                demand += downstream.receive(value)
            }
        }

        /// The link on the virtual clock: the wait in frames, one re-armed timer.
        private final class VirtualLink<Downstream: Subscriber>: Link<Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            let dueTime: Int
            let scheduler: VirtualTimeScheduler
            /// The pending value, out of line with a flag rather than an `Output?`: this generic
            /// code is compiled once, unspecialised, and would look up `Optional<Output>`'s
            /// metadata at every access of an optional (a generic wrapper struct costs the same).
            private let pending = UnsafeMutablePointer<Output>.allocate(capacity: 1)
            @exclusivity(unchecked) private var hasPending = false
            /// One timer, re-armed for every value (`rearm` orders it exactly as cancelling the
            /// old wait and scheduling a new one would, without an allocation per value).
            private let timer = ScheduledAction.timer()
            /// The timer's action, made once. It holds the link unretained (a weak
            /// reference would make every retain of the link take the slow path): the link
            /// cancels the timer in `deinit`, so the action never runs after the link is gone.
            @exclusivity(unchecked) private var fire: () -> Void = {}

            init(downstream: Downstream, dueTime: Int, scheduler: VirtualTimeScheduler, dropped: ((Output) -> Void)?) {
                self.dueTime = dueTime
                self.scheduler = scheduler
                super.init(downstream: downstream, dropped: dropped)
                let link = Unmanaged.passUnretained(self)
                fire = {
                    // Held for the call: downstream may drop the whole chain from inside it.
                    _ = link.retain()
                    defer { link.release() }
                    link._withUnsafeGuaranteedRef { $0.due() }
                }
            }

            deinit {
                timer.cancel()
                if hasPending { pending.deinitialize(count: 1) }
                pending.deallocate()
            }

            override func receive(_ input: Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                if hasPending {
                    pending.pointee = input
                } else {
                    pending.initialize(to: input)
                    hasPending = true
                }
                scheduler.rearm(timer, at: scheduler.currentFrame.addingClamped(dueTime), fire)
                return .none
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                dropPending()
                scheduler.schedule { [downstream] in downstream.receive(completion: completion) }
            }

            private func due() {
                guard !isTerminated, hasPending else { return }
                hasPending = false
                deliver(pending.move())
            }

            override func dropPending() {
                timer.cancel()
                guard hasPending else { return }
                hasPending = false
                pending.deinitialize(count: 1)
            }
        }

        /// The link on any other scheduler. Combine's schedulers cannot take work back, so every
        /// value starts a wait, and a wait ends in a value only if no newer value (or a completion
        /// or cancel) came since: each is numbered.
        private final class SchedulerLink<Downstream: Subscriber>: Link<Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            let dueTime: Context.SchedulerTimeType.Stride
            let clock: OperatorClock<Context>
            private var pending: Output?
            private var generation = 0

            init(downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, clock: OperatorClock<Context>, dropped: ((Output) -> Void)?) {
                self.dueTime = dueTime
                self.clock = clock
                super.init(downstream: downstream, dropped: dropped)
            }

            override func receive(_ input: Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                pending = input
                generation &+= 1
                let expected = generation
                clock.once(at: clock.now.advanced(by: dueTime)) { [weak self] in
                    guard let self, self.generation == expected else { return }
                    self.due()
                }
                return .none
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                dropPending()
                clock.hop { [downstream] in downstream.receive(completion: completion) }
            }

            private func due() {
                guard !isTerminated, let value = pending else { return }
                pending = nil
                deliver(value)
            }

            override func dropPending() {
                generation &+= 1
                pending = nil
            }
        }
    }
}

extension Publisher {
    /// Publishes a value once `dueTime` has passed on `scheduler` without a newer one (Combine's
    /// `debounce(for:scheduler:options:)`).
    public func debounce<S: Scheduler>(for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}
