#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import MarbleNotation
import VirtualClock

/// Marble text to events and back, for code that drives a `VirtualTimeScheduler` and its own
/// subscribers without a `TestScheduler`.
public enum Marbles {
    /// The events of a hot or expect line (absolute frames; `^` marks frame 0), values resolved
    /// as `TestScheduler.hot` resolves them. Throws a `MarbleMistake` naming the offending character.
    public static func events<Output, Failure: Error>(
        _ marbles: String, values: [Character: Output] = [:], error: Failure? = nil, errors: [String: Failure] = [:],
        frame: Duration = .milliseconds(1)
    ) throws(MarbleMistake) -> [TimedEvent<Output, Failure>] {
        let reader = MarbleReader(frameNanoseconds: TestScheduler.nanoseconds(frame))
        return try reader.events(marbles, as: .hot, MarbleValues(values: values, error: error, errors: errors), role: "hot").get()
    }

    /// Recorded events as marble text, one cell per frame from frame 0 (or the first event) to
    /// the last event: a one-character value as itself, a longer one as `{text}`, several events
    /// of one frame as a group; a failure as `#`, or `#{text}` unless `isBare` says it is `#`.
    public static func text<Output, Failure>(_ events: [TimedEvent<Output, Failure>], isBare: (Failure) -> Bool = { _ in true }) -> String {
        let printable: [(frame: Int, event: PrintableEvent)] = events.map { event in
            switch event.event {
            case .value(let value): return (event.time, .value(token(String(describing: value))))
            case .completion(.finished): return (event.time, .finished)
            case .completion(.failure(let error)): return (event.time, .failure(isBare(error) ? nil : ValueToken.braced(String(describing: error))))
            }
        }
        return MarblePrinter.render(printable)
    }

    /// Subscriptions as `.subscriptions` lines, one per subscription: `^` at its start, `!` at its end.
    public static func text(_ spans: [SubscriptionSpan]) -> [String] {
        spans.map { span in
            var events: [(frame: Int, event: PrintableEvent)] = [(span.start, .subscribe)]
            if let end = span.end { events.append((end, .cancel)) }
            return MarblePrinter.render(events)
        }
    }

    private static func token(_ text: String) -> String {
        if text.count == 1, let character = text.first, !"-|#()}{^!".contains(character), !character.isWhitespace { return text }
        return ValueToken.braced(text)
    }
}
