/// Source text as an array of `Character`s, with the location of every
/// character (and one extra entry for the end of the text).
struct SourceText: Sendable {
    let chars: [Character]
    let locations: [SourceLocation]

    init(_ text: String, startingAt start: SourceLocation = SourceLocation(line: 1, column: 1)) {
        var chars: [Character] = []
        var locations: [SourceLocation] = []
        var line = start.line
        var column = start.column
        for character in text {
            chars.append(character)
            locations.append(SourceLocation(line: line, column: column))
            if character.isNewline {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        locations.append(SourceLocation(line: line, column: column))
        self.chars = chars
        self.locations = locations
    }

    var count: Int { chars.count }

    /// The location of the character at `index`; past the end, the end of the text.
    /// The location of a newline character is the column just after its line's last character.
    func location(_ index: Int) -> SourceLocation {
        locations[min(max(index, 0), chars.count)]
    }

    func character(_ index: Int, before end: Int) -> Character? {
        index >= 0 && index < end && index < chars.count ? chars[index] : nil
    }

    func text(_ start: Int, _ end: Int) -> String {
        guard start < end else { return "" }
        return String(chars[start..<end])
    }

    /// The index of the newline that ends the line containing `index`, or `count`.
    func endOfLine(from index: Int) -> Int {
        var i = index
        while i < chars.count && !chars[i].isNewline { i += 1 }
        return i
    }

    /// The first index at or after `index` (and before `end`) that is not horizontal whitespace.
    func skipSpaces(from index: Int, to end: Int) -> Int {
        var i = index
        while i < end && chars[i].isHorizontalSpace { i += 1 }
        return i
    }

    /// True when a `//` comment starts at `index`.
    func isCommentStart(_ index: Int, before end: Int) -> Bool {
        character(index, before: end) == "/" && character(index + 1, before: end) == "/"
    }

    /// How many characters of `start..<end` lie on `start`'s line (at least 1).
    func lineLength(_ start: Int, _ end: Int) -> Int {
        var i = start
        while i < end && i < chars.count && !chars[i].isNewline { i += 1 }
        return max(1, i - start)
    }

    func error(_ message: String, at index: Int, length: Int = 1, hint: String? = nil) -> SyntaxError {
        SyntaxError(message: message, location: location(index), length: length, hint: hint)
    }
}

extension Character {
    var isHorizontalSpace: Bool { isWhitespace && !isNewline }
    var isIdentifierStart: Bool { isLetter || self == "_" }
    var isIdentifierContinue: Bool { isLetter || isNumber || self == "_" }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    var isHexDigit: Bool { hexDigitValue != nil && isASCII }
}

/// Words that cannot name a stream or a closure parameter because they mean
/// something in expressions.
let expressionKeywords: Set<String> = [
    "true", "false", "nil", "if", "else", "throw", "try", "let", "var", "return", "in", "_",
]

extension String {
    /// The string without leading and trailing whitespace (newlines included).
    var trimmingSpaces: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
