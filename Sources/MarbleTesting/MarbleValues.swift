#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import MarbleNotation
import MarbleReport
import VirtualClock

/// What the names of a marble string stand for: `values` for value names and `{literals}`,
/// `error` for a bare `#`, `errors` for `#{name}`. Without an entry, a name or literal is read
/// as the value itself when the value type can be written as text (`a` is "a" for `String`,
/// `7` is 7 and `{42}` is 42 for `Int`, `{"two words"}` is "two words" for `String`).
@usableFromInline
struct MarbleValues<Output, Failure: Error> {
    @usableFromInline var values: [Character: Output]
    @usableFromInline var error: Failure?
    @usableFromInline var errors: [String: Failure]
    /// Reads a token as the value itself; decided once per table, not per token (a long line
    /// has a million of them).
    @usableFromInline let parse: (String) -> Output?

    @inlinable
    init(values: [Character: Output], error: Failure?, errors: [String: Failure]) {
        self.values = values
        self.error = error
        self.errors = errors
        parse = Self.textParser()
    }

    /// The value a token stands for, or why there is none.
    @inlinable
    func value(_ token: ValueToken) -> Result<Output, MarbleSyntaxError> {
        switch token.form {
        case .name(let name):
            // Index, not subscript: `values["n"]` for `["n": nil]` would read as a missing entry.
            if let index = values.index(forKey: name) { return .success(values[index].value) }
            if let value = parse(String(name)) { return .success(value) }
            return .failure(MarbleSyntaxError(message: "no value named '\(name)'", offset: token.offset,
                                              hint: "add \"\(name)\": … to values:"))
        case .literal(let literal):
            if let value = parse(Self.unquoted(literal)) { return .success(value) }
            return .failure(MarbleSyntaxError(message: "'{\(literal)}' is not a \(Output.self)", offset: token.offset,
                                              length: literal.count + 2, hint: "name the value with a letter and add it to values:"))
        }
    }

    /// The error a `#` or `#{name}` stands for, or why there is none.
    @inlinable
    func failure(_ token: ValueToken?, at offset: Int) -> Result<Failure, MarbleSyntaxError> {
        guard let token else {
            if let error { return .success(error) }
            return .failure(MarbleSyntaxError(message: "'#' fails the stream, but no error was given", offset: offset,
                                              hint: "pass error: (the \(Failure.self) that '#' stands for)"))
        }
        let name = token.text.dropFirst().dropLast()
        if let error = errors[String(name)] { return .success(error) }
        return .failure(MarbleSyntaxError(message: "no error named '\(name)'", offset: token.offset,
                                          length: token.text.count, hint: "add \"\(name)\": … to errors:"))
    }

    /// How a token is read as the value itself: the text for `String`, `Int(_:)` for `Int`,
    /// `init?(_:)` for other types that can be written as text, nothing otherwise.
    @inlinable
    static func textParser() -> (String) -> Output? {
        if Output.self == String.self { return { $0 as? Output } }
        if Output.self == Int.self { return { Int($0) as? Output } }
        guard let type = Output.self as? any LosslessStringConvertible.Type else { return { _ in nil } }
        return { type.init($0) as? Output }
    }

    @inlinable
    static func unquoted(_ literal: String) -> String {
        guard literal.count >= 2, literal.first == "\"", literal.last == "\"" else { return literal }
        return String(literal.dropFirst().dropLast())
    }
}

extension MarbleValues where Output: Equatable, Failure: Equatable {
    /// How `value` is written in a diff: its name in `values`, else its text (`a`, `{42}`,
    /// `{"two words"}`, `{Item(id: 1)}`).
    func token(for value: Output) -> String {
        if let name = values.filter({ $0.value == value }).keys.min() { return String(name) }
        let text = String(describing: value)
        if text.count == 1, let character = text.first, !MarbleValues.reserved.contains(character), !character.isWhitespace,
           parse(text) == value {
            return text
        }
        return ValueToken.braced(value is String ? "\"\(text)\"" : text)
    }

    /// How `error` is written after `#`: nothing for `error`, `{name}` for an entry of `errors`.
    func token(for error: Failure) -> String? {
        if error == self.error { return nil }
        if let name = errors.filter({ $0.value == error }).keys.min() { return ValueToken.braced(name) }
        return ValueToken.braced(String(describing: error))
    }

    /// An event in a sentence: `c`, `finished`, `failure #{timeout}`.
    @usableFromInline
    func describe(_ event: TimelineEvent<Output, Failure>) -> String {
        switch event {
        case .value(let value): return token(for: value)
        case .completion(.finished): return "finished"
        case .completion(.failure(let error)): return "failure #" + (token(for: error) ?? "")
        }
    }

    @usableFromInline
    func rendered(_ event: TimedEvent<Output, Failure>) -> RenderedEvent {
        switch event.event {
        case .value(let value): return RenderedEvent(frame: event.time, event: .value(token(for: value)))
        case .completion(.finished): return RenderedEvent(frame: event.time, event: .finished)
        case .completion(.failure(let error)): return RenderedEvent(frame: event.time, event: .failure(token(for: error)))
        }
    }

    private static var reserved: Set<Character> { ["-", "|", "#", "(", ")", "{", "}", "^", "!"] }
}
