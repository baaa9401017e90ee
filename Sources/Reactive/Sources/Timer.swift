/// The virtual counterpart of Foundation's `Timer.publish(every:on:in:)`, which runs on a
/// run loop and cannot be virtualised.
public enum VirtualTimer {
    /// A connectable publisher of ticks every `interval` frames (at least 1); each tick's value
    /// is its frame. Use `connect()` or `autoconnect()` to start it.
    public static func publish(every interval: Int, scheduler: VirtualTimeScheduler) -> TimerPublisher {
        TimerPublisher(interval: interval, scheduler: scheduler)
    }

    /// Ticks from `connect()`: the first at connect + interval, then every interval. A tick
    /// reaches only the subscribers with demand at that moment (the others miss it; nothing is
    /// buffered). Never completes. Cancelling a connection stops its ticks and detaches every
    /// current subscriber, which then hears nothing more (as OpenCombine's `TimerPublisher`).
    /// Each `connect()` starts its own clock.
    public final class TimerPublisher: ConnectablePublisher {
        public typealias Output = VirtualTime
        public typealias Failure = Never

        public let interval: Int
        public let scheduler: VirtualTimeScheduler
        private var subscriptions: [Tick] = []

        public init(interval: Int, scheduler: VirtualTimeScheduler) {
            self.interval = Swift.max(1, interval)
            self.scheduler = scheduler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == VirtualTime, S.Failure == Never {
            let subscription = Tick(AnySubscriber(subscriber), parent: self)
            subscriptions.append(subscription)
            subscriber.receive(subscription: subscription)
        }

        /// Starts a clock. The returned handle stops it; dropping the handle does not (as a
        /// run loop keeps a Foundation timer alive).
        public func connect() -> any Cancellable {
            let clock = scheduler.schedule(at: scheduler.currentFrame.addingClamped(interval), interval: interval) { [self] in
                fire()
            }
            return Connection(clock: clock, publisher: self)
        }

        private func fire() {
            let now = scheduler.currentFrame
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
            private var clock: ScheduledAction?
            private weak var publisher: TimerPublisher?

            init(clock: ScheduledAction, publisher: TimerPublisher) {
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
            private var downstream: AnySubscriber<VirtualTime, Never>?
            private var demand: Subscribers.Demand = .none
            private weak var parent: TimerPublisher?

            init(_ downstream: AnySubscriber<VirtualTime, Never>, parent: TimerPublisher) {
                self.downstream = downstream
                self.parent = parent
            }

            func send(_ time: VirtualTime) {
                guard let downstream, demand > 0 else { return }
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
