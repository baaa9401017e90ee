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
    ///
    /// Inlinable so that the per-event path is specialised for the caller's value type: a
    /// playback allocates nothing per event and looks up no generic metadata.
    @inlinable
    @discardableResult
    public func play<Output, Failure>(
        _ events: [TimedEvent<Output, Failure>],
        offset: VirtualTime = 0,
        deliver: @escaping (TimelineEvent<Output, Failure>) -> Void
    ) -> any Cancellable {
        let playback = TimelinePlayback(events: events, offset: offset, firstSequence: reserveSequence(count: events.count), scheduler: self, deliver: deliver)
        playback.start()
        return playback
    }
}

/// Feeds a timeline to the scheduler one event at a time. One queue entry — one closure, one
/// token — serves every event: each event's action asks for its own entry to be queued again for
/// the next event. The closure holds the playback alive while an event is queued; the entry is
/// dropped after the last event, or when it surfaces after a cancel.
@usableFromInline
final class TimelinePlayback<Output, Failure: Error>: Cancellable {
    @usableFromInline let events: [TimedEvent<Output, Failure>]
    @usableFromInline let offset: VirtualTime
    @usableFromInline let firstSequence: Int
    /// The playback runs only from its scheduler's queue, so the scheduler outlives every use.
    @usableFromInline unowned(unsafe) let scheduler: VirtualTimeScheduler
    @exclusivity(unchecked) @usableFromInline var deliver: ((TimelineEvent<Output, Failure>) -> Void)?
    @exclusivity(unchecked) @usableFromInline var index = 0
    @usableFromInline let token = ScheduledAction()

    @inlinable
    init(events: [TimedEvent<Output, Failure>], offset: VirtualTime, firstSequence: Int, scheduler: VirtualTimeScheduler,
         deliver: @escaping (TimelineEvent<Output, Failure>) -> Void) {
        self.events = events
        self.offset = offset
        self.firstSequence = firstSequence
        self.scheduler = scheduler
        self.deliver = deliver
    }

    @inlinable
    func start() {
        guard !events.isEmpty, deliver != nil else { return }
        // The queued closure keeps the playback alive until its last event has run.
        scheduler.enqueueReserved(at: events[0].time.addingClamped(offset), sequence: firstSequence, action: { [self] in next() }, token: token)
    }

    @inlinable
    func next() {
        let event = events[index].event
        index += 1
        // The next event keeps the sequence number reserved for it, so work the delivery
        // schedules for the same instant stays behind it, as if every event had been queued up
        // front. This runs as the queued action: its own entry is queued again once it returns.
        if index < events.count, deliver != nil {
            scheduler.requeueRunningAction(at: events[index].time.addingClamped(offset), sequence: firstSequence &+ index)
        }
        deliver?(event)
    }

    @usableFromInline
    func cancel() {
        deliver = nil
        token.cancel()
    }
}
