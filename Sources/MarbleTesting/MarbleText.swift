#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import MarbleNotation
import VirtualClock

/// A mistake in a marble string given to MarbleTesting, reported at the call that passed it.
public struct MarbleMistake: Error, Sendable, CustomStringConvertible {
    /// The complaint, the marbles and a caret under the offending characters, and a suggestion.
    public var message: String
    public var description: String { message }

    /// `error in marbles "-a-(b": …`, the marbles, a caret under the offending characters and the hint.
    @usableFromInline
    init(_ error: MarbleSyntaxError, in text: String, role: String) {
        let caret = String(repeating: " ", count: error.offset + 1) + String(repeating: "^", count: error.length)
        var lines = ["error in \(role) marbles: \(error.message)", "  \"\(text)\"", "  " + caret]
        if let hint = error.hint { lines.append("  " + String(repeating: " ", count: error.offset + 1) + hint) }
        message = lines.joined(separator: "\n")
    }
}

/// Marble strings read for one clock: its frame length decides what `100ms` is.
@usableFromInline
struct MarbleReader {
    @usableFromInline var frameNanoseconds: Int64

    @usableFromInline
    init(frameNanoseconds: Int64) { self.frameNanoseconds = frameNanoseconds }

    /// The events of a hot, cold or expect line with their values resolved. Parsed as a stream,
    /// without the parser's array of tokens; for `Int` values a plain integer literal (`{42}`)
    /// arrives as its `Int` (`MarbleParser.parse(_:as:integer:each:)`), the value `Int(_:)` reads
    /// from its text, without a `String` made and read back for each (most of the events of a
    /// long line). A syntax error anywhere in the line is reported before a value that does not
    /// resolve, as when the line was parsed whole first.
    @inlinable
    func events<Output, Failure>(_ text: String, as kind: MarbleLineKind, _ values: MarbleValues<Output, Failure>,
                                 role: String) -> Result<[TimedEvent<Output, Failure>], MarbleMistake> {
        var events: [TimedEvent<Output, Failure>] = []
        var unresolved: MarbleSyntaxError?
        let take = { (marble: TimedMarbleEvent) in
            guard unresolved == nil else { return }
            switch marble.event {
            case .value(let token):
                switch values.value(token) {
                case .success(let value): events.append(TimedEvent(marble.frame, .value(value)))
                case .failure(let error): unresolved = error
                }
            case .finished:
                events.append(TimedEvent(marble.frame, .completion(.finished)))
            case .failure(let token):
                switch values.failure(token, at: marble.offset) {
                case .success(let error): events.append(TimedEvent(marble.frame, .completion(.failure(error))))
                case .failure(let error): unresolved = error
                }
            case .subscribe, .cancel, .request:
                break  // not allowed by these line kinds: the parser rejects them
            }
        }
        let parsed: ParsedMarbles
        do {
            let parser = MarbleParser(frameNanoseconds: frameNanoseconds)
            if Output.self == Int.self {
                // Specialised for Int (this function is inlinable), the cast is no work.
                parsed = try parser.parse(text, as: kind, integer: { frame, value, _ in
                    if unresolved == nil, let value = value as? Output { events.append(TimedEvent(frame, .value(value))) }
                }, each: take)
            } else {
                parsed = try parser.parse(text, as: kind, each: take)
            }
        } catch {
            return .failure(MarbleMistake(error, in: text, role: role))
        }
        if let unresolved { return .failure(MarbleMistake(unresolved, in: text, role: role)) }
        // Frames were counted from the first character; `^` moves frame 0.
        if parsed.firstFrame != 0 {
            for index in events.indices { events[index].time += parsed.firstFrame }
        }
        return .success(events)
    }

    /// The frame of `^` and of `!` (if any) of a subscription line: exactly one `^`, at most one `!` after it.
    @usableFromInline
    func span(_ text: String, role: String) -> Result<SubscriptionSpan, MarbleMistake> {
        do {
            let parsed = try MarbleParser(frameNanoseconds: frameNanoseconds).parse(text, as: .subscription)
            guard let start = parsed.events.first(where: { $0.event == .subscribe }) else {
                return .failure(MarbleMistake(MarbleSyntaxError(message: "a subscription line needs a '^'", offset: 0, length: max(1, text.count),
                                                                hint: "mark the subscription's frame with '^'"), in: text, role: role))
            }
            let end = parsed.events.first { $0.event == .cancel }
            return .success(SubscriptionSpan(start: start.frame, end: end?.frame))
        } catch {
            return .failure(MarbleMistake(error, in: text, role: role))
        }
    }

    /// The requests of a demand line, in order.
    @usableFromInline
    func demands(_ text: String, role: String) -> Result<[(frame: Int, demand: Subscribers.Demand)], MarbleMistake> {
        do {
            let parsed = try MarbleParser(frameNanoseconds: frameNanoseconds).parse(text, as: .demand)
            return .success(parsed.events.compactMap { marble in
                guard case .request(let request) = marble.event else { return nil }
                switch request {
                case .max(let count): return (marble.frame, .max(count))
                case .unlimited: return (marble.frame, .unlimited)
                }
            })
        } catch {
            return .failure(MarbleMistake(error, in: text, role: role))
        }
    }
}
