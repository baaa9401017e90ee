/// One event of a scripted or recorded timeline.
public enum TimelineEvent<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)

    public var isTerminal: Bool {
        if case .completion = self { return true }
        return false
    }
}

extension TimelineEvent: Equatable where Output: Equatable, Failure: Equatable {}
extension TimelineEvent: Hashable where Output: Hashable, Failure: Hashable {}

/// An event at a frame.
public struct TimedEvent<Output, Failure: Error> {
    public var time: VirtualTime
    public var event: TimelineEvent<Output, Failure>
    public init(_ time: VirtualTime, _ event: TimelineEvent<Output, Failure>) {
        self.time = time
        self.event = event
    }
}

extension TimedEvent: Equatable where Output: Equatable, Failure: Equatable {}
extension TimedEvent: Hashable where Output: Hashable, Failure: Hashable {}

extension VirtualTimeScheduler {
    /// Plays `events` (sorted by time) through `deliver`, queueing one event at a time under
    /// sequence numbers reserved now, so the result is ordered exactly as if every event had been
    /// queued at once — but the queue never holds more than one entry for the whole timeline.
    /// `offset` is added to every event's time. Returns a handle that stops the playback.
    @discardableResult
    public func play<Output, Failure>(
        _ events: [TimedEvent<Output, Failure>],
        offset: VirtualTime = 0,
        deliver: @escaping (TimelineEvent<Output, Failure>) -> Void
    ) -> any Cancellable {
        let playback = TimelinePlayback(events: events, offset: offset, firstSequence: reserveSequence(count: events.count), deliver: deliver)
        playback.start(on: self)
        return playback
    }
}

private final class TimelinePlayback<Output, Failure: Error>: Cancellable {
    private let events: [TimedEvent<Output, Failure>]
    private let offset: VirtualTime
    private let firstSequence: Int
    private var deliver: ((TimelineEvent<Output, Failure>) -> Void)?
    private var index = 0
    private var pending: ScheduledAction?

    init(events: [TimedEvent<Output, Failure>], offset: VirtualTime, firstSequence: Int, deliver: @escaping (TimelineEvent<Output, Failure>) -> Void) {
        self.events = events
        self.offset = offset
        self.firstSequence = firstSequence
        self.deliver = deliver
    }

    func start(on scheduler: VirtualTimeScheduler) { queueNext(on: scheduler) }

    private func queueNext(on scheduler: VirtualTimeScheduler) {
        guard index < events.count, deliver != nil else { return }
        let event = events[index]
        pending = scheduler.schedule(at: event.time.addingClamped(offset), sequence: firstSequence + index) { [self, unowned scheduler] in
            index += 1
            // Queue the next event before delivering, so that work the delivery schedules for
            // the same instant keeps its place behind it, as if all events had been queued up front.
            queueNext(on: scheduler)
            deliver?(event.event)
        }
    }

    func cancel() {
        deliver = nil
        pending?.cancel()
        pending = nil
    }
}
