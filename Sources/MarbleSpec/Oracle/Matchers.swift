import Reactive
import MarbleNotation
import MarbleSyntax

/// A value slot of an `expect` line that stands for more than one value: `{_}` matches any
/// value, `{where: PREDICATE}` any value for which the predicate (`$0` is the value) is true.
struct ValueMatcher {
    enum Kind {
        case any
        case predicate(ClosureValue)
    }

    var kind: Kind
    /// As written, braces included: `{_}`, `{where: $0.count > 2}`.
    var text: String

    /// The word that starts a predicate matcher.
    static let predicateLabel = "where:"

    /// Whether the text of a `{…}` literal is a matcher rather than a value.
    static func isMatcher(_ literal: String) -> Bool {
        let trimmed = literal.withoutSurroundingSpaces
        return trimmed == "_" || trimmed.hasPrefix(predicateLabel)
    }

    /// The matcher a `{…}` literal spells; `location` is its first character after `{`.
    /// A predicate is parsed here; its names are looked up when it runs.
    static func make(_ literal: String, at location: SourceLocation, globals: Environment) throws(SyntaxError) -> ValueMatcher {
        let trimmed = literal.withoutSurroundingSpaces
        guard trimmed != "_" else { return ValueMatcher(kind: .any, text: "{_}") }
        let afterLabel = literal.drop { $0 == " " }.dropFirst(predicateLabel.count)
        let leading = literal.count - afterLabel.count + afterLabel.prefix { $0 == " " }.count
        let predicate = String(literal.dropFirst(leading))
        let start = SourceLocation(line: location.line, column: location.column + leading)
        guard !predicate.withoutSurroundingSpaces.isEmpty else {
            throw SyntaxError(message: "expected a condition after 'where:'", location: start,
                              hint: "for example: {where: $0.count > 2}")
        }
        let expr = try MarbleFileParser.parseExpression(predicate, at: start)
        let closure = ClosureValue(syntax: Closure(parameters: nil, body: [.expression(expr)]), environment: globals, location: start)
        return ValueMatcher(kind: .predicate(closure), text: "{\(trimmed)}")
    }

    /// Whether `value` matches; `problem` says why a predicate could not answer (it failed, or
    /// gave something other than a `Bool`), which is a mismatch too.
    func matches(_ value: Value, _ interpreter: Interpreter) -> (matched: Bool, problem: String?) {
        guard case .predicate(let closure) = kind else { return (true, nil) }
        do throws(EvalError) {
            switch try interpreter.call(closure, with: [.value(value)]) {
            case .value(.bool(let result)): return (result, nil)
            case let other: return (false, "the predicate \(text) gave \(other.kindDescription), not a Bool")
            }
        } catch {
            switch error {
            case .fault(let diagnostic): return (false, "the predicate \(text) failed on \(value.literal): \(diagnostic.message)")
            case .thrown(let thrown): return (false, "the predicate \(text) threw \(thrown.value.literal) on \(value.literal)")
            case .returning, .nilInChain, .jump: return (false, "the predicate \(text) gave no value")
            }
        }
    }
}

/// How an `expect` line with matchers, an `expect NAME.values` line and an `expect A == B` line
/// compare, in the same sentences as an exact line (`Comparison`).
enum MatchingComparison {
    typealias Events = [TimedEvent<Value, StreamError>]

    /// An expected event: a value, a matcher (by index into the line's events) and the value it
    /// matched, or a matcher that matched nothing. A matched matcher equals the value it matched,
    /// and a sentence names the matcher, not the value: a frame that differs otherwise (a value
    /// more) reads `expected a value matching {_}, got 1 then 2`, not `expected 1, got 1 then 2`.
    private enum Slot: Equatable {
        case value(Value)
        case matched(Value, Int)
        case unmatched(Int)

        static func == (lhs: Slot, rhs: Slot) -> Bool {
            switch (lhs, rhs) {
            case (.value(let a), .value(let b)), (.matched(let a, _), .value(let b)), (.value(let a), .matched(let b, _)), (.matched(let a, _), .matched(let b, _)):
                return a == b
            case (.unmatched(let a), .unmatched(let b)):
                return a == b
            default:
                return false
            }
        }
    }

    /// A line with matchers at some of its events (by index): each matcher stands for the value
    /// the stream sent in its place (same frame, same position within the frame) if it matches.
    static func differences(expected: Events, matchers: [Int: ValueMatcher], actual: Events, table: ValueTable, lastFrame: Int,
                            interpreter: Interpreter) -> (differences: [Difference], notes: [String]) {
        var positions: [Int: [Int]] = [:]
        for (index, event) in actual.enumerated() { positions[event.time, default: []].append(index) }
        var seen: [Int: Int] = [:]
        var notes: [String] = []
        let slots = expected.enumerated().map { index, event -> TimedEvent<Slot, StreamError> in
            let position = seen[event.time, default: 0]
            seen[event.time] = position + 1
            switch event.event {
            case .completion(let completion): return TimedEvent(event.time, .completion(completion))
            case .value(let value):
                guard let matcher = matchers[index] else { return TimedEvent(event.time, .value(.value(value))) }
                if let candidates = positions[event.time], position < candidates.count, case .value(let got) = actual[candidates[position]].event {
                    let (matched, problem) = matcher.matches(got, interpreter)
                    if let problem { notes.append(problem) }
                    if matched { return TimedEvent(event.time, .value(.matched(got, index))) }
                }
                return TimedEvent(event.time, .value(.unmatched(index)))
            }
        }
        let got = actual.map { event -> TimedEvent<Slot, StreamError> in
            switch event.event {
            case .value(let value): TimedEvent(event.time, .value(.value(value)))
            case .completion(let completion): TimedEvent(event.time, .completion(completion))
            }
        }
        let differences = Comparison.differences(expected: slots, actual: got, lastFrame: lastFrame) { event in
            switch event {
            case .value(.value(let value)): Comparison.describe(.value(value), table)
            case .value(.unmatched(let index)), .value(.matched(_, let index)): "a value matching \(matchers[index]?.text ?? "{_}")"
            case .completion(let completion): Comparison.describe(.completion(completion), table)
            }
        }
        return (differences, notes)
    }

    /// `expect NAME.values`: the same events in the same order, at any frames.
    static func sequenceDifferences(expected: Events, matchers: [Int: ValueMatcher], actual: Events, table: ValueTable,
                                    interpreter: Interpreter) -> (differences: [Difference], notes: [String]) {
        var notes: [String] = []
        func describe(_ index: Int) -> String {
            if let matcher = matchers[index] { return "a value matching \(matcher.text)" }
            return Comparison.describe(expected[index].event, table)
        }
        for index in 0..<max(expected.count, actual.count) {
            guard index < actual.count else {
                let frame = actual.last?.time ?? 0
                let received = actual.isEmpty ? "nothing" : "only \(actual.count) event\(actual.count == 1 ? "" : "s")"
                return ([Difference(frame: frame, sentence: "expected \(describe(index)) as event \(index + 1), but the stream sent \(received)")], notes)
            }
            let got = actual[index]
            guard index < expected.count else {
                return ([Difference(frame: got.time, sentence: "expected nothing after event \(expected.count), got \(Comparison.describe(got.event, table)) as event \(index + 1)")], notes)
            }
            let same: Bool
            switch (expected[index].event, got.event) {
            case (.value(let want), .value(let value)):
                if let matcher = matchers[index] {
                    let (matched, problem) = matcher.matches(value, interpreter)
                    if let problem { notes.append(problem) }
                    same = matched
                } else {
                    same = want == value
                }
            case (let want, let value): same = Comparison.same([TimedEvent(0, want)], [TimedEvent(0, value)])
            }
            if !same {
                // After the first difference the events no longer line up: one sentence says it.
                return ([Difference(frame: got.time, sentence: "expected \(describe(index)) as event \(index + 1), got \(Comparison.describe(got.event, table))")], notes)
            }
        }
        return ([], notes)
    }

    /// The expected events of a `.values` line drawn where the stream's own events were, so that
    /// the diff lines up event by event; events beyond the stream's follow one frame apart.
    static func sequenceTimeline(expected: [RenderedEvent], actual: Events) -> [RenderedEvent] {
        let last = actual.last?.time ?? -1
        return expected.enumerated().map { index, event in
            RenderedEvent(frame: index < actual.count ? actual[index].time : last + 1 + index - actual.count, event: event.event)
        }
    }
}

private extension StringProtocol {
    var withoutSurroundingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
