import MarbleNotation
import MarbleSyntax

/// `marbles fmt --native`: rewrites a file written under `notation rxjs` or `rxjs-legacy` into
/// the native notation, every event on the frame it had, and removes the `notation` line.
///
/// - Only the marble strings (their quotes included) and the `notation` line change; every other
///   byte stays. Each string is written afresh from its events: a group takes one frame and is
///   followed by the frames its characters took, a space that was a frame becomes `-`, one that
///   was nothing goes; a value that is no native name (`{`, `}`, `/`, a tab, a character that
///   would join its neighbour) is written as a literal (`{"/"}`); long stretches that a time
///   progression wrote stay one. A rewritten string starts where the old one (or its quote)
///   started; `marbles fmt` then aligns the frames of a test in columns, if wanted.
/// - A `.subscriptions` line without `^` is left out by RxJS; the native notation reads each
///   line as one subscription, so such a line converts only as its stream's only line ("never
///   subscribed"); beside other lines it is refused, with where it is.
/// - Every rewritten string is read again with the native rules and must give the same events
///   at the same frames; a file in the native notation is returned unchanged.
public enum NativeConversion {
    public static func convert(_ source: String) -> Result<String, MarbleFormatter.Problem> {
        let (file, errors) = MarbleFileParser.parse(source)
        if let error = errors.first {
            return .failure(.init(message: error.message, place: .init(line: error.location.line, column: error.location.column,
                                                                       length: error.length, hint: error.hint)))
        }
        let dialect = file.dialect
        guard dialect != .native else { return .success(source) }
        var lines = SourceLines(source)
        var edits: [(edit: SnapshotWriter.Edit, test: String)] = []
        for statement in file.statements {
            if case .notation = statement.kind { edits.append((.remove(line: statement.location.line), "")) }
        }
        for test in file.tests {
            switch convert(test, file: file, dialect: dialect) {
            case .success(let testEdits): edits += testEdits.map { ($0, test.name) }
            case .failure(let problem): return .failure(problem)
            }
        }
        _ = SnapshotWriter.apply(edits, to: &lines)
        return .success(lines.text)
    }

    private static func convert(_ test: TestSyntax, file: MarbleFileSyntax, dialect: MarbleDialect) -> Result<[SnapshotWriter.Edit], MarbleFormatter.Problem> {
        let frameNanoseconds = MarbleColumns.frameNanoseconds(file: file, test: test)
        let parser = MarbleParser(frameNanoseconds: frameNanoseconds, dialect: dialect)
        let native = MarbleParser(frameNanoseconds: frameNanoseconds)
        // `.subscriptions` lines by stream: a line without '^' converts only when it is alone.
        var subscriptionLines: [String: Int] = [:]
        for statement in test.statements {
            if case .expect(let name, let property?, _) = statement.kind, property.name == "subscriptions" { subscriptionLines[name.name, default: 0] += 1 }
        }
        var edits: [SnapshotWriter.Edit] = []
        for statement in test.statements {
            var kind: MarbleLineKind
            let marbles: MarbleText
            var isValues = false
            var subscriptionsOf: String?
            switch statement.kind {
            case .expect(let name, let property?, let text) where property.name == "values":
                (kind, marbles, isValues) = (.expect, text, true)
                _ = name
            case .expect(let name, let property?, let text) where property.name == "subscriptions":
                (kind, marbles, subscriptionsOf) = (.subscription, text, name.name)
            default:
                guard let found = MarbleColumns.marbles(of: statement) else { continue }
                (kind, marbles) = found
            }
            func problem(_ message: String, _ offset: Int = 0, length: Int = 1, hint: String? = nil) -> MarbleFormatter.Problem {
                .init(message: message, place: .init(line: marbles.location.line, column: marbles.location.column + offset, length: length, hint: hint))
            }
            let parsed: ParsedMarbles
            do {
                parsed = try parser.parse(marbles.text, as: kind)
            } catch {
                return .failure(problem(error.message, error.offset, length: error.length, hint: error.hint))
            }
            var events = parsed.events.map { (frame: $0.frame, event: printable($0.event)) }
            if kind == .subscription, !parsed.events.contains(where: { $0.event == .subscribe }) {
                if let stream = subscriptionsOf {
                    guard subscriptionLines[stream] == 1 else {
                        return .failure(problem("RxJS leaves this line out (it has no '^'), and the native notation reads every `.subscriptions` line as a subscription",
                                                hint: "remove the line, or mark its subscription with '^', then convert"))
                    }
                    events = []
                } else if case .subscribe = statement.kind {
                    // RxJS's expectObservable subscribes at 0 where the line has no '^'.
                    events.insert((0, .subscribe), at: 0)
                } else if !events.isEmpty {
                    events.insert((0, .subscribe), at: 0)
                }
            }
            let text: String
            if isValues {
                text = events.map(\.event.text).joined(separator: " ")
            } else {
                // A line that a time progression stretched keeps long gaps as time progressions.
                let stretched = parsed.endFrame - parsed.firstFrame > marbles.text.count
                let rendered = MarblePrinter.render(events, through: max(parsed.endFrame - 1, events.last.map(\.frame) ?? 0), frameNanoseconds: frameNanoseconds,
                                                    compressingGapsLongerThan: stretched ? 20 : nil)
                text = rendered.isEmpty ? "-" : rendered
            }
            // The native reading must give every event at its frame.
            let check: ParsedMarbles
            do {
                check = try native.parse(text, as: kind)
            } catch {
                return .failure(problem("in the native notation this line reads \(text): \(error.message)", hint: "change the line so that the native notation can say it, then convert"))
            }
            let written = check.events.map { "\(isValues ? 0 : $0.frame):\($0.event.printable.text)" }
            let wanted = events.sorted { $0.frame < $1.frame }.map { "\(isValues ? 0 : $0.frame):\($0.event.text)" }
            guard written.sorted() == wanted.sorted() else {
                return .failure(problem("the native notation cannot give this line's events their frames (it would read \(text))"))
            }
            let region = MarbleColumns.region(marbles)
            edits.append(.replace(line: marbles.location.line, column: region.lowerBound + 1, length: region.count, text: text))
        }
        return .success(edits)
    }

    /// An event as the native notation writes it: a value that is no native name as a literal.
    static func printable(_ event: MarbleEvent) -> PrintableEvent {
        guard case .value(let token) = event, case .name(let character) = token.form else { return event.printable }
        return .value(nativeName(character))
    }

    static func nativeName(_ character: Character) -> String {
        let reserved: Set<Character> = ["-", "|", "#", "(", ")", "^", "!", "{", "}", "/", "\\", "\"", "'"]
        if let ascii = character.asciiValue, ascii > 0x20, ascii < 0x7F, !reserved.contains(character) { return String(character) }
        if character.isASCII, let ascii = character.asciiValue, ascii > 0x20, ascii < 0x7F {
            return character == "\\" || character == "\"" ? "{\"\\\(character)\"}" : "{\"\(character)\"}"
        }
        return "{\"" + character.unicodeScalars.map { "\\u{" + String($0.value, radix: 16, uppercase: true) + "}" }.joined() + "\"}"
    }
}
