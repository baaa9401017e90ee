import MarbleNotation

/// Compares what a subscriber received with what a test expected, frame by frame, and explains
/// each difference in one sentence. It knows no engine: events are any `Equatable` value with
/// its frame, described by the caller, so the runner (the interpreter's values) and MarbleTesting
/// (Swift values, on Combine or on the engine) say the same things in the same words.
public enum Comparison {
    /// How a stream ended, for the notes on a difference.
    public enum End: Sendable, Hashable {
        case finished, failed
    }

    /// The frames at which `expected` and `actual` differ, each with a sentence
    /// ("expected c, got nothing") built from `describe`. `lastFrame` is the last frame the
    /// expectation covers: a run goes on until its scheduler has nothing left to do, and
    /// whatever the stream does after that frame is a difference too.
    public static func differences<Event: Equatable>(
        expected: [(frame: Int, event: Event)], actual: [(frame: Int, event: Event)], lastFrame: Int = .max,
        describe: (Event) -> String
    ) -> [Difference] {
        let expectedByFrame = Dictionary(grouping: expected, by: \.frame)
        let actualByFrame = Dictionary(grouping: actual, by: \.frame)
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

    private static func sentence<Event>(_ events: [Event], _ describe: (Event) -> String) -> String {
        events.isEmpty ? "nothing" : events.map(describe).joined(separator: " then ")
    }

    /// What an expectation says about the frames after its line ends.
    public static func nothingAfter(_ lastFrame: Int) -> String {
        "nothing after frame \(lastFrame)"
    }

    /// Notes that make a difference easier to understand, e.g. that the stream had already
    /// terminated when more was expected. `end` tells a completion (and how) from a value.
    public static func notes<Event>(stream: String, expected: [(frame: Int, event: Event)], actual: [(frame: Int, event: Event)],
                                    end: (Event) -> End?) -> [String] {
        var notes: [String] = []
        if let (frame, how) = firstEnd(actual, end), expected.contains(where: { $0.frame > frame }) {
            notes.append("\(stream) had already \(how == .failed ? "failed" : "finished") at frame \(frame)")
        }
        if let (frame, how) = firstEnd(expected, end), actual.contains(where: { $0.frame > frame }) {
            notes.append("\(stream) was expected to \(how == .failed ? "fail" : "finish") at frame \(frame)")
        }
        return notes
    }

    private static func firstEnd<Event>(_ events: [(frame: Int, event: Event)], _ end: (Event) -> End?) -> (Int, End)? {
        for event in events {
            if let how = end(event.event) { return (event.frame, how) }
        }
        return nil
    }

    // MARK: Subscriptions

    /// Compares one expected subscription (`^` at `start`, `!` at `end`) with one recorded one;
    /// either may be absent. `lastFrame` is the last frame the line covers (an end after it is
    /// reported as such).
    public static func subscriptionDifferences(stream: String, expected: (start: Int, end: Int?)?, actual: (start: Int, end: Int?)?, ordinal: Int,
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

    /// A subscription as a line: `^` at its start, `!` at its end.
    public static func render(_ span: (start: Int, end: Int?)?) -> [RenderedEvent] {
        guard let span else { return [] }
        var events = [RenderedEvent(frame: span.start, event: .subscribe)]
        if let end = span.end { events.append(RenderedEvent(frame: end, event: .cancel)) }
        return events
    }

    // MARK: Requests

    /// Compares the demand a stream was asked for with an expected requests line, frame by frame.
    /// `lastFrame` is the last frame the line covers: requests after it are differences too.
    public static func requestDifferences(stream: String, expected: [(frame: Int, demand: DemandRequest)], actual: [(frame: Int, demand: DemandRequest)],
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

    private static func describe(_ demands: [DemandRequest]) -> String {
        guard !demands.isEmpty else { return "nothing" }
        return demands.map { demand in
            switch demand {
            case .max(let count): ".max(\(count))"
            case .unlimited: ".unlimited"
            }
        }.joined(separator: " then ")
    }

    /// Requests as a line: a digit or `{n}` for `.max(n)`, `*` for `.unlimited`.
    public static func render(_ requests: [(frame: Int, demand: DemandRequest)]) -> [RenderedEvent] {
        requests.map { RenderedEvent(frame: $0.frame, event: .request($0.demand)) }
    }

    /// "first", "second", "third", then "4th", ….
    public static func ordinalText(_ n: Int) -> String {
        switch n {
        case 1: return "first"
        case 2: return "second"
        case 3: return "third"
        default: return "\(n)th"
        }
    }
}
