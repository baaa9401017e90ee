#if canImport(Combine)
import Combine
import VirtualClock

// On the Reactive engine these are the engine's own (Sources/Reactive/Testing/TimelineEvent.swift);
// on Combine, MarbleTesting declares them with Combine's completion, so that a recording reads
// the same on both: `.value(v)`, `.completion(.finished)`, `.completion(.failure(e))`.

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
#endif
