import Reactive
import MarbleNotation

/// The comparison (MarbleReport's `Comparison`) for the interpreter's values, and for the
/// engine's recorded timelines, subscriptions and requests.
extension Comparison {
    typealias Event = TimelineEvent<Value, StreamError>

    /// `lastFrame` is the last frame the `expect` line covers: a run goes on until its scheduler
    /// has nothing left to do, and whatever the stream does after that frame is a difference too.
    static func differences(expected: [TimedEvent<Value, StreamError>], actual: [TimedEvent<Value, StreamError>], table: ValueTable,
                            lastFrame: Int = .max) -> [Difference] {
        // The usual case, a passing check: the same events in the same order mean the same
        // events at every frame, so there is nothing to group and compare frame by frame.
        if same(expected, actual) { return [] }
        return differences(expected: expected, actual: actual, lastFrame: lastFrame) { describe($0, table) }
    }

    /// The frames at which two recorded timelines differ, each with a sentence built from `describe`.
    static func differences<Output: Equatable, Failure: Equatable>(
        expected: [TimedEvent<Output, Failure>], actual: [TimedEvent<Output, Failure>], lastFrame: Int = .max,
        describe: (TimelineEvent<Output, Failure>) -> String
    ) -> [Difference] {
        differences(expected: framed(expected), actual: framed(actual), lastFrame: lastFrame, describe: describe)
    }

    /// `expected == actual`, written out: `Array.==` on the engine's generic event types, called
    /// from this module, looks up their type metadata for every element (a tenth of a long run).
    static func same(_ expected: [TimedEvent<Value, StreamError>], _ actual: [TimedEvent<Value, StreamError>]) -> Bool {
        guard expected.count == actual.count else { return false }
        for (want, got) in zip(expected, actual) {
            guard want.time == got.time else { return false }
            switch (want.event, got.event) {
            case let (.value(a), .value(b)) where a == b: continue
            case (.completion(.finished), .completion(.finished)): continue
            case let (.completion(.failure(a)), .completion(.failure(b))) where a == b: continue
            default: return false
            }
        }
        return true
    }

    /// Notes that make a difference easier to understand (see `notes(stream:expected:actual:end:)`).
    static func notes<Output, Failure>(stream: String, expected: [TimedEvent<Output, Failure>], actual: [TimedEvent<Output, Failure>]) -> [String] {
        notes(stream: stream, expected: framed(expected), actual: framed(actual)) { event in
            switch event {
            case .value: nil
            case .completion(.finished): .finished
            case .completion(.failure): .failed
            }
        }
    }

    private static func framed<Output, Failure>(_ events: [TimedEvent<Output, Failure>]) -> [(frame: Int, event: TimelineEvent<Output, Failure>)] {
        events.map { ($0.time, $0.event) }
    }

    static func describe(_ event: Event, _ table: ValueTable) -> String {
        switch event {
        case .value(let value): return table.describe(value)
        case .completion(.finished): return "finished"
        case .completion(.failure(let error)):
            if case .record(let instance) = error.value { return "failure \(instance.literal)" }
            return "failure \(Value.string(error.message).literal)"
        }
    }

    static func render(_ events: [TimedEvent<Value, StreamError>], _ table: ValueTable) -> [RenderedEvent] {
        events.map { event in
            switch event.event {
            case .value(let value): return RenderedEvent(frame: event.time, event: .value(table.token(for: value)))
            case .completion(.finished): return RenderedEvent(frame: event.time, event: .finished)
            case .completion(.failure(let error)): return RenderedEvent(frame: event.time, event: .failure(table.failureToken(for: error)))
            }
        }
    }

    /// Compares one `expect X.subscriptions` line with one recorded span (either may be absent).
    static func subscriptionDifferences(stream: String, expected: SubscriptionSpan?, actual: SubscriptionSpan?, ordinal: Int,
                                        lastFrame: Int = .max) -> [Difference] {
        subscriptionDifferences(stream: stream, expected: expected.map { ($0.start, $0.end) }, actual: actual.map { ($0.start, $0.end) },
                                ordinal: ordinal, lastFrame: lastFrame)
    }

    static func render(_ span: SubscriptionSpan?) -> [RenderedEvent] {
        render(span.map { ($0.start, $0.end) })
    }

    /// Compares the demand a stream was asked for with an `expect X.requests` line, frame by frame.
    static func requestDifferences(stream: String, expected: [(frame: Int, demand: Subscribers.Demand)], actual: [(frame: Int, demand: Subscribers.Demand)],
                                   lastFrame: Int = .max) -> [Difference] {
        requestDifferences(stream: stream, expected: requests(expected), actual: requests(actual), lastFrame: lastFrame)
    }

    static func render(_ requests: [(frame: Int, demand: Subscribers.Demand)]) -> [RenderedEvent] {
        render(Self.requests(requests))
    }

    private static func requests(_ requests: [(frame: Int, demand: Subscribers.Demand)]) -> [(frame: Int, demand: DemandRequest)] {
        requests.map { ($0.frame, $0.demand.max.map(DemandRequest.max) ?? .unlimited) }
    }
}

extension TimelineEvent {
    var isFailure: Bool {
        if case .completion(.failure) = self { return true }
        return false
    }
}
