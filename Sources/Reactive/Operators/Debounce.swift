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

            init(downstream: Downstream, dueTime: Int, scheduler: VirtualTimeScheduler) {
                self.dueTime = dueTime
                self.scheduler = scheduler
                super.init(downstream: downstream)
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

            override func receive(subscription: any Subscription) {
                let accepted = upstream == nil && !isTerminated
                super.receive(subscription: subscription)
                // Downstream demand is kept here; upstream is asked for everything.
                if accepted { requestUpstream(.unlimited) }
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

            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated else { return }
                self.demand += demand
            }

            override func cancel() {
                dropPending()
                super.cancel()
            }

            private func due() {
                guard !isTerminated, hasPending else { return }
                hasPending = false
                let value = pending.move()
                guard demand > 0 else { return }
                demand -= 1
                demand += downstream.receive(value)
            }

            private func dropPending() {
                timer.cancel()
                guard hasPending else { return }
                hasPending = false
                pending.deinitialize(count: 1)
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
