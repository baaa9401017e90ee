/// The test's own subscriber: attaches when told, requests what it is told, cancels when told,
/// and records every event it receives with its frame.
public final class TestSubscriber<Input, Failure: Error>: Subscriber, Cancellable {
    public let scheduler: VirtualTimeScheduler
    /// Every event received, with its frame, in order (values, then at most one completion).
    /// Inlinable so that callers build it specialised for their types (generic, it would look
    /// up metadata per element).
    @inlinable public var events: [TimedEvent<Input, Failure>] {
        var events = zip(valueFrames, values).map { TimedEvent<Input, Failure>($0, .value($1)) }
        if let completion { events.append(TimedEvent(completion.frame, .completion(completion.completion))) }
        return events
    }
    /// How many events `events` holds.
    @inlinable public var eventCount: Int { values.count + (completion == nil ? 0 : 1) }
    // Values and their frames are kept in two plain arrays: making a `TimedEvent` per value in
    // this generic class would look up its type metadata every time, the costliest step of
    // recording a long timeline.
    @exclusivity(unchecked) @usableFromInline var valueFrames: [VirtualTime] = []
    @exclusivity(unchecked) @usableFromInline var values: [Input] = []
    /// Appends a value and its frame. Made by the inlinable initialiser, so its body is compiled
    /// for the caller's `Input`: appending to `[Input]` from this generic class would look up
    /// `Array<Input>`'s metadata for every value.
    /// Read for every value: unchecked like the arrays it appends to (the check cost about 76
    /// instructions a value, callgrind e2e W1).
    @exclusivity(unchecked) @usableFromInline var record: (Input, VirtualTime) -> Void = { _, _ in }
    @exclusivity(unchecked) @usableFromInline private(set) var completion: (frame: VirtualTime, completion: Subscribers.Completion<Failure>)?
    /// Frames at which a value arrived beyond the demand this subscriber had signalled —
    /// a broken contract in the publisher under test.
    @exclusivity(unchecked) public private(set) var valuesWithoutDemand: [VirtualTime] = []
    /// Frames at which events arrived after this subscriber's completion.
    @exclusivity(unchecked) public private(set) var eventsAfterCompletion: [VirtualTime] = []
    /// When the subscription arrived and when the subscriber cancelled.
    @exclusivity(unchecked) public private(set) var subscribedAt: VirtualTime?
    @exclusivity(unchecked) public private(set) var cancelledAt: VirtualTime?

    @usableFromInline let initialDemand: Subscribers.Demand
    @exclusivity(unchecked) private var subscription: (any Subscription)?
    @exclusivity(unchecked) private var outstanding: Subscribers.Demand = .none
    @exclusivity(unchecked) private var isCompleted = false

    @inlinable
    public init(scheduler: VirtualTimeScheduler, initialDemand: Subscribers.Demand = .unlimited) {
        self.scheduler = scheduler
        self.initialDemand = initialDemand
        // The subscriber owns the closure and is the only caller, so the closure need not retain it.
        record = { [unowned(unsafe) self] value, frame in
            self.valueFrames.append(frame)
            self.values.append(value)
        }
    }

    public func receive(subscription: any Subscription) {
        // `subscribedAt`, not `subscription`: the subscription is let go at completion, and a second one is still refused.
        guard subscribedAt == nil, cancelledAt == nil else { subscription.cancel(); return }
        self.subscription = subscription
        subscribedAt = scheduler.currentFrame
        if initialDemand > 0 {
            outstanding += initialDemand
            subscription.request(initialDemand)
        }
    }

    public func receive(_ input: Input) -> Subscribers.Demand {
        guard !isCompleted else {
            eventsAfterCompletion.append(scheduler.currentFrame)
            return .none
        }
        if outstanding == .none { valuesWithoutDemand.append(scheduler.currentFrame) } else { outstanding -= 1 }
        record(input, scheduler.currentFrame)
        return .none
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
        guard !isCompleted else {
            eventsAfterCompletion.append(scheduler.currentFrame)
            return
        }
        isCompleted = true
        self.completion = (scheduler.currentFrame, completion)
        // Let go of the finished subscription, as Combine's Sink does (OpenCombine Sink.swift):
        // a pipeline that holds the test's scheduler (debounce, delay) would otherwise keep the
        // scheduler, and through it this subscriber, alive after the test.
        subscription = nil
    }

    /// Asks for more values (no effect before the subscription arrives or after cancellation).
    public func request(_ demand: Subscribers.Demand) {
        guard let subscription, demand > 0, cancelledAt == nil else { return }
        outstanding += demand
        subscription.request(demand)
    }

    public func cancel() {
        guard cancelledAt == nil else { return }
        cancelledAt = scheduler.currentFrame
        let subscription = self.subscription
        self.subscription = nil
        subscription?.cancel()
    }
}
