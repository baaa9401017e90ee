/// A cold source: every subscription plays the timeline from its own subscription frame.
/// Values that arrive while downstream has no demand are buffered, with the completion behind
/// them, and delivered in order as soon as demand arrives.
public struct ColdTimeline<Output, Failure: Error>: Publisher {
    public let events: [TimedEvent<Output, Failure>]
    public let scheduler: VirtualTimeScheduler

    /// `events` are relative to the subscription and sorted by time.
    public init(_ events: [TimedEvent<Output, Failure>], scheduler: VirtualTimeScheduler) {
        self.events = events
        self.scheduler = scheduler
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = ColdTimelineSubscription(downstream: subscriber)
        subscriber.receive(subscription: subscription)
        subscription.start(events, on: scheduler)
    }
}

private final class ColdTimelineSubscription<Downstream: Subscriber>: Subscription {
    typealias Event = TimelineEvent<Downstream.Input, Downstream.Failure>
    private var downstream: Downstream?
    private var demand: Subscribers.Demand = .none
    private var buffer: [Event] = []
    private var bufferStart = 0
    private var playback: (any Cancellable)?
    private var isDraining = false

    init(downstream: Downstream) { self.downstream = downstream }

    func start(_ events: [TimedEvent<Downstream.Input, Downstream.Failure>], on scheduler: VirtualTimeScheduler) {
        guard downstream != nil else { return }
        playback = scheduler.play(events, offset: scheduler.currentFrame) { [weak self] event in
            self?.arrive(event)
        }
    }

    private func arrive(_ event: Event) {
        buffer.append(event)
        if event.isTerminal { playback = nil }
        drain()
    }

    func request(_ demand: Subscribers.Demand) {
        guard downstream != nil, demand > 0 else { return }
        self.demand += demand
        drain()
    }

    private func drain() {
        guard !isDraining else { return }
        isDraining = true
        defer { isDraining = false }
        while bufferStart < buffer.count, let downstream {
            switch buffer[bufferStart] {
            case .value(let value):
                guard demand > 0 else { return }
                bufferStart += 1
                demand -= 1
                demand += downstream.receive(value)
            case .completion(let completion):
                bufferStart += 1
                self.downstream = nil
                downstream.receive(completion: completion)
            }
            if bufferStart > 64, bufferStart * 2 > buffer.count {
                buffer.removeFirst(bufferStart)
                bufferStart = 0
            }
        }
    }

    func cancel() {
        downstream = nil
        buffer = []
        playback?.cancel()
        playback = nil
    }
}
