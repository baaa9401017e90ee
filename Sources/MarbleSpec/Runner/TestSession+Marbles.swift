import Reactive
import MarbleNotation
import MarbleSyntax

/// Marble lines to engine events: parsing, resolving value tokens through the value table, and the `{_}` / `{where: …}` matchers of `expect` lines.
extension TestSession {
    func parse(_ marbles: MarbleText, as kind: MarbleLineKind) -> ParsedMarbles? {
        do {
            let parsed = try MarbleParser(frameNanoseconds: frameNanoseconds, dialect: dialect).parse(marbles.text, as: kind)
            noteExtent(of: parsed, kind)
            writtenEvents += parsed.events.count
            return parsed
        } catch {
            diagnose(error.message, at: column(marbles, error.offset), length: error.length, hint: error.hint)
            return nil
        }
    }

    /// A hot, cold, send or expect line parsed straight into engine events (values resolved
    /// through the value table), without keeping the parsed tokens: a long line's tokens would
    /// otherwise be an array as large as its events. A line with a syntax error reports only that.
    func timeline(_ marbles: MarbleText, as kind: MarbleLineKind) -> [TimedEvent<Value, StreamError>]? {
        var events: [TimedEvent<Value, StreamError>] = []
        let reportedBefore = diagnostics.count
        lineMatchers = [:]
        matchersAllowed = kind == .expect
        defer { matchersAllowed = false }
        do {
            // Plain integer literals (most values of a long line) arrive as Ints, not as tokens.
            let parser = MarbleParser(frameNanoseconds: frameNanoseconds, dialect: dialect)
            let parsed = try parser.parse(marbles.text, as: kind, integer: { frame, value, _ in
                events.append(TimedEvent(frame, .value(.int(value))))
            }) { item in
                if let event = engineEvent(item, marbles) {
                    if let matcher = pendingMatcher { lineMatchers[events.count] = matcher }
                    events.append(event)
                }
                pendingMatcher = nil
            }
            noteExtent(of: parsed, kind)
            writtenEvents += events.count
            lastTimelineEnd = parsed.endFrame
            // Frames were counted from the first character; `^` moves frame 0.
            if parsed.firstFrame != 0 {
                for index in events.indices { events[index].time += parsed.firstFrame }
            }
            return events
        } catch {
            diagnostics.removeSubrange(reportedBefore...)
            diagnose(error.message, at: column(marbles, error.offset), length: error.length, hint: error.hint)
            return nil
        }
    }

    /// The run starts at the earliest `^`; the longest line's end is where settling begins.
    func noteExtent(of parsed: ParsedMarbles, _ kind: MarbleLineKind) {
        horizon = max(horizon, parsed.endFrame)
        if kind == .hot || kind == .expect { firstFrame = min(firstFrame, parsed.firstFrame) }
    }

    func column(_ marbles: MarbleText, _ offset: Int) -> SourceLocation {
        SourceLocation(line: marbles.location.line, column: marbles.location.column + offset)
    }

    /// The engine event of a parsed value, finish or failure (values resolved through the value
    /// table); nil for anything else, or a value whose literal had an error (reported).
    func engineEvent(_ item: TimedMarbleEvent, _ marbles: MarbleText) -> TimedEvent<Value, StreamError>? {
        switch item.event {
        case .value(let token):
            return resolve(token, marbles).map { TimedEvent(item.frame, .value($0)) }
        case .finished:
            return TimedEvent(item.frame, .completion(.finished))
        case .failure(let token):
            var error = StreamError.default
            if let token, let value = resolve(token, marbles) { error = StreamError(value) }
            if pendingMatcher != nil, let token {
                pendingMatcher = nil
                diagnose("a matcher cannot stand for an error; errors are compared by their message", at: column(marbles, token.offset),
                         length: token.text.count, hint: "write the error, such as #{\"offline\"}, or # for the default one")
                return nil
            }
            return TimedEvent(item.frame, .completion(.failure(error)))
        default:
            return nil
        }
    }

    func resolve(_ token: ValueToken, _ marbles: MarbleText) -> Value? {
        switch token.form {
        case .name(let name): return table.value(named: name)
        case .literal(let text):
            // Most literals in long timelines are plain integers: read them directly.
            if let value = Self.integerLiteral(text) { return .int(value) }
            let location = column(marbles, token.offset + 1)
            if ValueMatcher.isMatcher(text) { return matcherPlaceholder(text, at: location) }
            do {
                let expr = try MarbleFileParser.parseLiteral(text, at: location)
                switch Result(catching: { () throws(EvalError) -> Value in
                    try interpreter.valueOf(interpreter.evaluate(expr, in: Environment()), at: location, purpose: "a marble value")
                }) {
                case .success(let value): return value
                case .failure(let error): report(error, at: location)
                }
            } catch {
                diagnose(error.message, at: error.location, length: error.length, hint: error.hint)
            }
            return nil
        }
    }

    /// Notes the matcher spelled by a `{…}` literal (its text at `location`) for the event being
    /// parsed; the event's value is a placeholder that the comparison never reads.
    func matcherPlaceholder(_ text: String, at location: SourceLocation) -> Value? {
        guard matchersAllowed else {
            diagnose("a matcher such as {\(text)} can only stand in an expect line", at: SourceLocation(line: location.line, column: location.column - 1),
                     length: text.count + 2, hint: "a source sends values: write one, such as {42} or a")
            return nil
        }
        do {
            let matcher = try ValueMatcher.make(text, at: location, globals: interpreter.globals)
            if case .predicate(let closure) = matcher.kind,
               let (name, at) = NameCheck(known: knownNames).undefinedNames(in: Expr(kind: .closure(closure.syntax), location: closure.location)).first {
                diagnose("cannot find '\(name)' in scope", at: at, length: name.count,
                         hint: Suggestions.nearest(to: name, in: knownNames).map { "did you mean '\($0)'?" })
                return nil
            }
            pendingMatcher = matcher
            return .null
        } catch {
            diagnose(error.message, at: error.location, length: error.length, hint: error.hint)
            return nil
        }
    }

    /// `42` or `-7` (`MarbleParser.plainInteger`: ASCII digits, an optional leading minus, no
    /// leading zero unless it is `0`) as an `Int`; nil for anything else, which goes through the
    /// expression parser and interpreter (and so gets their diagnostics, e.g. for a number too
    /// large for Int).
    static func integerLiteral(_ text: String) -> Int? {
        var text = text
        return text.withUTF8(MarbleParser.plainInteger)
    }
}
