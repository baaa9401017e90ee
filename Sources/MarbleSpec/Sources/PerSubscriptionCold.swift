import Reactive

/// A cold source written on several `cold NAME` lines: its first subscription plays the first
/// line, the second the second, and every later one the last line (a retry that fails twice and
/// then succeeds is three lines). Each subscription is a `ColdTimeline` of its own, so demand,
/// buffering and cancellation are exactly a one-line cold source's.
struct PerSubscriptionCold: Publisher {
    typealias Output = Value
    typealias Failure = StreamError

    /// The lines, in file order; appended to while the test is prepared, read while it runs.
    final class Attempts {
        var timelines: [[TimedEvent<Value, StreamError>]]
        var subscriptions = 0
        init(_ first: [TimedEvent<Value, StreamError>]) { timelines = [first] }

        /// The timeline the next subscription plays.
        func next() -> [TimedEvent<Value, StreamError>] {
            defer { subscriptions += 1 }
            return timelines[Swift.min(subscriptions, timelines.count - 1)]
        }
    }

    let attempts: Attempts
    let scheduler: VirtualTimeScheduler

    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == StreamError {
        ColdTimeline(attempts.next(), scheduler: scheduler).receive(subscriber: subscriber)
    }
}
