/// Something at a frame: an event of a scripted or recorded timeline (the engine's
/// `TimedEvent<Output, Failure>` is a `Timed<TimelineEvent<Output, Failure>>`).
public struct Timed<Event> {
    public var time: VirtualTime
    public var event: Event
    @inlinable
    public init(_ time: VirtualTime, _ event: Event) {
        self.time = time
        self.event = event
    }
}

extension Timed: Equatable where Event: Equatable {}
extension Timed: Hashable where Event: Hashable {}
extension Timed: Sendable where Event: Sendable {}

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
    public func play<Event>(_ events: [Timed<Event>], offset: VirtualTime = 0, deliver: @escaping (Event) -> Void) -> TimelinePlayback<Event> {
        let playback = TimelinePlayback(events: events, offset: offset, firstSequence: reserveSequence(count: events.count), scheduler: self, deliver: deliver)
        playback.start()
        return playback
    }
}

/// Feeds a timeline to the scheduler one event at a time. One queue entry — one closure, one
/// token — serves every event: each event's action asks for its own entry to be queued again for
/// the next event. The closure holds the playback alive while an event is queued; the entry is
/// dropped after the last event, or when it surfaces after a cancel.
public final class TimelinePlayback<Event> {
    @usableFromInline let events: [Timed<Event>]
    @usableFromInline let offset: VirtualTime
    @usableFromInline let firstSequence: Int
    /// The playback runs only from its scheduler's queue, so the scheduler outlives every use.
    @usableFromInline unowned(unsafe) let scheduler: VirtualTimeScheduler
    @exclusivity(unchecked) @usableFromInline var deliver: ((Event) -> Void)?
    @exclusivity(unchecked) @usableFromInline var index = 0
    @usableFromInline let token = ScheduledAction()

    @inlinable
    init(events: [Timed<Event>], offset: VirtualTime, firstSequence: Int, scheduler: VirtualTimeScheduler, deliver: @escaping (Event) -> Void) {
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

    /// Stops the playback: no further event is delivered.
    public func cancel() {
        deliver = nil
        token.cancel()
    }
}

/// One subscription to a recorded source: when it began and when it ended (cancelled, or the
/// source delivered its completion). `end == nil` while it is still active.
public struct SubscriptionSpan: Hashable, Sendable, CustomStringConvertible {
    public var start: VirtualTime
    public var end: VirtualTime?
    public init(start: VirtualTime, end: VirtualTime? = nil) {
        self.start = start
        self.end = end
    }
    public var description: String { "\(start)…\(end.map(String.init) ?? "")" }
}
