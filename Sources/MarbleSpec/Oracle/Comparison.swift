import Reactive
import MarbleNotation

/// Compares what a subscriber received with what a test expected, frame by frame, and
/// explains each difference in one sentence. The generic parts are public: MarbleTesting
/// compares Swift values with them, in the same words.
public enum Comparison {
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

    /// The frames at which `expected` and `actual` differ, each with a sentence
    /// ("expected c, got nothing") built from `describe`.
    public static func differences<Output: Equatable, Failure: Equatable>(
        expected: [TimedEvent<Output, Failure>], actual: [TimedEvent<Output, Failure>], lastFrame: Int = .max,
        describe: (TimelineEvent<Output, Failure>) -> String
    ) -> [Difference] {
        let expectedByFrame = Dictionary(grouping: expected, by: \.time)
        let actualByFrame = Dictionary(grouping: actual, by: \.time)
        let frames = Set(expectedByFrame.keys).union(actualByFrame.keys).sorted()
        var differences: [Difference] = []
        for frame in frames {
            let want = expectedByFrame[frame, default: []].map(\.event)
            let got = actualByFrame[frame, default: []].map(\.event)
            guard want != got else { continue }
            let expectation = want.isEmpty && frame > lastFrame ? nothingAfter(lastFrame) : sentence(want, describe)
            differences.append(Difference(frame: frame, sentence: "expected \(expectation), got \(sentence(got, describe))"))
        }
        return differences
    }

    private static func sentence<Output, Failure>(_ events: [TimelineEvent<Output, Failure>], _ describe: (TimelineEvent<Output, Failure>) -> String) -> String {
        events.isEmpty ? "nothing" : events.map(describe).joined(separator: " then ")
    }

    /// What an expectation says about the frames after its line ends.
    static func nothingAfter(_ lastFrame: Int) -> String {
        "nothing after frame \(lastFrame)"
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

    /// Notes that make a difference easier to understand, e.g. that the stream had already
    /// terminated when more was expected.
    public static func notes<Output, Failure>(stream: String, expected: [TimedEvent<Output, Failure>], actual: [TimedEvent<Output, Failure>]) -> [String] {
        var notes: [String] = []
        if let end = actual.first(where: { $0.event.isTerminal }), expected.contains(where: { $0.time > end.time }) {
            notes.append("\(stream) had already \(end.event.isFailure ? "failed" : "finished") at frame \(end.time)")
        }
        if let end = expected.first(where: { $0.event.isTerminal }), actual.contains(where: { $0.time > end.time }) {
            notes.append("\(stream) was expected to \(end.event.isFailure ? "fail" : "finish") at frame \(end.time)")
        }
        return notes
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

    // MARK: Subscriptions

    /// Compares one `expect X.subscriptions` line with one recorded span (either may be absent).
    /// `lastFrame` is the last frame the line covers (an end after it is reported as such).
    public static func subscriptionDifferences(stream: String, expected: SubscriptionSpan?, actual: SubscriptionSpan?, ordinal: Int,
                                        lastFrame: Int = .max) -> [Difference] {
        let which = ordinalText(ordinal)
        switch (expected, actual) {
        case (nil, nil):
            return []
        case let (expected?, nil):
            return [Difference(frame: expected.start, sentence: "expected the \(which) subscription to \(stream) here, but there was none")]
        case let (nil, actual?):
            return [Difference(frame: actual.start, sentence: "\(stream) was subscribed a \(which) time here, which no line expects")]
        case let (expected?, actual?):
            var differences: [Difference] = []
            if expected.start != actual.start {
                differences.append(Difference(frame: expected.start, sentence: "expected the \(which) subscription to \(stream) here, but it began at frame \(actual.start)"))
            }
            switch (expected.end, actual.end) {
            case let (e?, a?) where e != a:
                differences.append(Difference(frame: e, sentence: "expected the \(which) subscription to end here, but it ended at frame \(a)"))
            case let (e?, nil):
                differences.append(Difference(frame: e, sentence: "expected the \(which) subscription to end here, but it was never cancelled or completed"))
            case let (nil, a?):
                let when = a > lastFrame ? ", after frame \(lastFrame)" : ""
                differences.append(Difference(frame: a, sentence: "the \(which) subscription ended here\(when) (cancelled or completed), but the line expects it to stay active"))
            default: break
            }
            return differences
        }
    }

    public static func render(_ span: SubscriptionSpan?) -> [RenderedEvent] {
        guard let span else { return [] }
        var events = [RenderedEvent(frame: span.start, event: .subscribe)]
        if let end = span.end { events.append(RenderedEvent(frame: end, event: .cancel)) }
        return events
    }

    // MARK: Requests

    /// Compares the demand a stream was asked for with an `expect X.requests` line, frame by frame.
    /// `lastFrame` is the last frame the line covers: requests after it are differences too.
    public static func requestDifferences(stream: String, expected: [(frame: Int, demand: Subscribers.Demand)], actual: [(frame: Int, demand: Subscribers.Demand)],
                                   lastFrame: Int = .max) -> [Difference] {
        let want = Dictionary(grouping: expected, by: \.frame).mapValues { $0.map(\.demand) }
        let got = Dictionary(grouping: actual, by: \.frame).mapValues { $0.map(\.demand) }
        return Set(want.keys).union(got.keys).sorted().compactMap { frame in
            let w = want[frame, default: []]
            let g = got[frame, default: []]
            guard w != g else { return nil }
            let expectation = w.isEmpty && frame > lastFrame ? nothingAfter(lastFrame) : describe(w)
            return Difference(frame: frame, sentence: "expected \(stream) to be asked for \(expectation), got \(describe(g))")
        }
    }

    private static func describe(_ demands: [Subscribers.Demand]) -> String {
        demands.isEmpty ? "nothing" : demands.map { $0.isUnlimited ? ".unlimited" : ".max(\($0.max ?? 0))" }.joined(separator: " then ")
    }

    public static func render(_ requests: [(frame: Int, demand: Subscribers.Demand)]) -> [RenderedEvent] {
        requests.map { RenderedEvent(frame: $0.frame, event: .request($0.demand.max.map(DemandRequest.max) ?? .unlimited)) }
    }

    public static func ordinalText(_ n: Int) -> String {
        switch n {
        case 1: return "first"
        case 2: return "second"
        case 3: return "third"
        default: return "\(n)th"
        }
    }
}

extension TimelineEvent {
    var isFailure: Bool {
        if case .completion(.failure) = self { return true }
        return false
    }
}
