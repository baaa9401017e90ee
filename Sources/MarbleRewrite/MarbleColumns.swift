import MarbleNotation
import MarbleSyntax

/// One token of a marble string as written — `-`, `a`, `{42}`, `#{"e"}`, `(ab)`, `^`, `10ms` —
/// with the frame it starts at (frame 0 at `^` in hot, send and expect lines).
struct MarbleToken: Equatable {
    var text: String
    var frame: Int
    /// Frames it occupies: 1, or a time progression's length.
    var frames: Int
    var isProgression: Bool
    /// Where it starts in the marble string, in characters.
    var offset: Int

    var width: Int { text.count }
}

/// Splits marble strings into tokens and lays tokens out in columns, for `marbles fmt` and
/// `marbles run --update`. Spaces mean nothing in the notation except around time
/// progressions (which must stand apart), so only spaces are ever added or removed; every
/// result is checked by parsing it again.
enum MarbleColumns {
    /// The tokens of `text`, or nil when it is not a marble string this splitter understands
    /// (the caller then leaves the line alone).
    static func tokens(_ text: String, kind: MarbleLineKind, frameNanoseconds: Int64) -> [MarbleToken]? {
        let characters = Array(text)
        var tokens: [MarbleToken] = []
        var index = 0
        var frame = 0
        var zero: Int?
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
                continue
            }
            let start = index
            if character.isASCIIDigit, start == 0 || characters[start - 1].isWhitespace {
                var end = start
                while end < characters.count, !characters[end].isWhitespace { end += 1 }
                let word = String(characters[start..<end])
                if let nanoseconds = try? MarbleDuration.nanoseconds(word) {
                    guard frameNanoseconds > 0, nanoseconds % frameNanoseconds == 0, let frames = Int(exactly: nanoseconds / frameNanoseconds) else { return nil }
                    tokens.append(MarbleToken(text: word, frame: frame, frames: frames, isProgression: true, offset: start))
                    frame += frames
                    index = end
                    continue
                }
            }
            switch character {
            case "(":
                var position = start + 1
                var hasZero = false
                while position < characters.count, characters[position] != ")" {
                    switch characters[position] {
                    case "{":
                        guard let end = literalEnd(characters, openingAt: position) else { return nil }
                        position = end
                    case "#" where position + 1 < characters.count && characters[position + 1] == "{":
                        guard let end = literalEnd(characters, openingAt: position + 1) else { return nil }
                        position = end
                    case "^":
                        hasZero = true
                        position += 1
                    default:
                        position += 1
                    }
                }
                guard position < characters.count else { return nil }
                index = position + 1
                if hasZero, kind == .hot || kind == .expect { zero = frame }
            case "{":
                guard let end = literalEnd(characters, openingAt: start) else { return nil }
                index = end
            case "#":
                if start + 1 < characters.count, characters[start + 1] == "{" {
                    guard let end = literalEnd(characters, openingAt: start + 1) else { return nil }
                    index = end
                } else {
                    index = start + 1
                }
            case "^":
                if kind == .hot || kind == .expect { zero = frame }
                index = start + 1
            default:
                index = start + 1
            }
            tokens.append(MarbleToken(text: String(characters[start..<index]), frame: frame, frames: 1, isProgression: false, offset: start))
            frame += 1
        }
        if let zero {
            for position in tokens.indices { tokens[position].frame -= zero }
        }
        return tokens
    }

    /// The index just after the `}` that closes the literal opened at `open`: strings (with `\`
    /// escapes) are skipped and nested braces counted, as the marble parser does.
    private static func literalEnd(_ characters: [Character], openingAt open: Int) -> Int? {
        var position = open + 1
        var depth = 0
        var inString = false
        while position < characters.count {
            let character = characters[position]
            if inString {
                if character == "\\" { position += 2; continue }
                if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "{" {
                depth += 1
            } else if character == "}" {
                if depth == 0 { return position + 1 }
                depth -= 1
            }
            position += 1
        }
        return nil
    }

    /// Whether two neighbouring tokens must be kept apart by a space: a time progression stands
    /// apart from its neighbours, and a bare `#` before a literal would read as `#{…}`.
    static func needsSpace(_ previous: MarbleToken, _ next: MarbleToken) -> Bool {
        previous.isProgression || next.isProgression || (previous.text == "#" && next.text.hasPrefix("{"))
    }

    /// Places the tokens of several lines so that tokens starting at the same frame start in the
    /// same column, no two frames share a column, and each line's first token starts at or
    /// after its `start` column. Returns each token's column.
    static func align(_ lines: [[MarbleToken]], starts: [Int]) -> [[Int]] {
        var columns = lines.map { Array(repeating: 0, count: $0.count) }
        var next = Array(repeating: 0, count: lines.count)
        var ends = starts
        let frames = Set(lines.flatMap { $0.map(\.frame) }).sorted()
        var previousColumn: Int?
        for frame in frames {
            var column = previousColumn.map { $0 + 1 } ?? 0
            var placing: [Int] = []
            for line in lines.indices where next[line] < lines[line].count && lines[line][next[line]].frame == frame {
                placing.append(line)
                let index = next[line]
                let gap = index > 0 && needsSpace(lines[line][index - 1], lines[line][index]) ? 1 : 0
                column = max(column, ends[line] + gap)
            }
            for line in placing {
                let index = next[line]
                columns[line][index] = column
                ends[line] = column + lines[line][index].width
                next[line] += 1
            }
            previousColumn = column
        }
        return columns
    }

    /// A line's tokens written at their columns, the first at `start` (leading columns are the
    /// caller's), spaces between.
    static func render(_ tokens: [MarbleToken], columns: [Int], start: Int) -> String {
        var text = ""
        var cursor = start
        for (token, column) in zip(tokens, columns) {
            if column > cursor { text += String(repeating: " ", count: column - cursor) }
            text += token.text
            cursor = max(cursor, column) + token.width
        }
        return text
    }

    /// The events a marble string stands for, without the offsets (which change with spacing),
    /// and the frames it spans: what must stay equal when only spaces change.
    static func meaning(_ text: String, kind: MarbleLineKind, frameNanoseconds: Int64, dialect: MarbleDialect = .native) -> Meaning? {
        guard let parsed = try? MarbleParser(frameNanoseconds: frameNanoseconds, dialect: dialect).parse(text, as: kind) else { return nil }
        return Meaning(events: parsed.events.map { Meaning.Event(frame: $0.frame, text: $0.event.printable.text) },
                       firstFrame: parsed.firstFrame, endFrame: parsed.endFrame)
    }

    struct Meaning: Equatable {
        struct Event: Equatable {
            var frame: Int
            var text: String
        }
        var events: [Event]
        var firstFrame: Int
        var endFrame: Int
    }

    /// The line kind of a statement with marbles, and its marbles.
    static func marbles(of statement: Statement) -> (kind: MarbleLineKind, text: MarbleText)? {
        switch statement.kind {
        case .hot(_, let marbles), .send(_, let marbles): return (.hot, marbles)
        case .cold(_, let marbles): return (.cold, marbles)
        case .subscribe(_, let marbles), .connect(_, let marbles): return (.subscription, marbles)
        case .demand(_, let marbles): return (.demand, marbles)
        case .expect(_, let property, let marbles):
            switch property?.name {
            // `expect A == B` has no marbles; an `expect A.values` line's are an order, not frames.
            case nil where marbles.text.hasPrefix("=="), "values"?: return nil
            case nil: return (.expect, marbles)
            case "requests"?: return (.demand, marbles)
            default: return (.subscription, marbles)
            }
        default: return nil
        }
    }

    /// Where a marble string stands on its line, quotes included: 0-based columns.
    static func region(_ marbles: MarbleText) -> Range<Int> {
        let start = marbles.location.column - 1 - (marbles.quote == nil ? 0 : 1)
        return start..<(start + marbles.text.count + (marbles.quote == nil ? 0 : 2))
    }

    /// The frame length of a test: its own `frame` line, else the file's, else 1 ms (as the runner decides).
    static func frameNanoseconds(file: MarbleFileSyntax, test: TestSyntax) -> Int64 {
        var nanoseconds: Int64 = 1_000_000
        for statement in file.statements + test.statements {
            if case .frame(let duration) = statement.kind, let value = try? MarbleDuration.nanoseconds(duration.text), value > 0 {
                nanoseconds = value
            }
        }
        return nanoseconds
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
