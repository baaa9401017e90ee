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
public typealias TimedEvent<Output, Failure: Error> = Timed<TimelineEvent<Output, Failure>>

// The clock's handles, as the engine's cancellables.
extension ScheduledAction: Cancellable {}
extension TimelinePlayback: Cancellable {}
