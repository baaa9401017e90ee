import MarbleNotation

/// Source text read by character offset. Locations are computed on demand from where each
/// line starts (one entry per line, not per character: marble lines can be a megabyte long).
struct SourceText: Sendable {
    let text: IndexedText
    /// The index of the first character of each line, in order.
    private let lineStarts: [Int]
    private let start: SourceLocation

    init(_ string: String, startingAt start: SourceLocation = SourceLocation(line: 1, column: 1)) {
        let text = IndexedText(string)
        var lineStarts = [0]
        if text.isASCII {
            // LF, VT, FF, CR: the ASCII newline characters ("\r\n" is one Character, so not ASCII here).
            for (index, byte) in text.bytes.enumerated() where (0x0A...0x0D).contains(byte) { lineStarts.append(index + 1) }
        } else {
            for index in 0..<text.count where text[index].isNewline { lineStarts.append(index + 1) }
        }
        self.text = text
        self.lineStarts = lineStarts
        self.start = start
    }

    subscript(index: Int) -> Character { text[index] }

    var count: Int { text.count }

    /// The location of the character at `index`; past the end, the end of the text.
    /// The location of a newline character is the column just after its line's last character.
    func location(_ index: Int) -> SourceLocation {
        let index = min(max(index, 0), text.count)
        // The last line starting at or before `index`.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        let column = index - lineStarts[low]
        return low == 0 ? SourceLocation(line: start.line, column: start.column + column)
                        : SourceLocation(line: start.line + low, column: 1 + column)
    }

    func character(_ index: Int, before end: Int) -> Character? {
        index >= 0 && index < end && index < text.count ? text[index] : nil
    }

    func text(_ start: Int, _ end: Int) -> String { start < end ? text.string(start..<end) : "" }

    /// The index of the newline that ends the line containing `index`, or `count`.
    func endOfLine(from index: Int) -> Int {
        var i = index
        if text.isASCII {
            while i < text.bytes.count && !(0x0A...0x0D).contains(text.bytes[i]) { i += 1 }
            return i
        }
        while i < text.count && !text[i].isNewline { i += 1 }
        return i
    }

    /// The first index at or after `index` (and before `end`) that is not horizontal whitespace.
    func skipSpaces(from index: Int, to end: Int) -> Int {
        var i = index
        while i < end && text[i].isHorizontalSpace { i += 1 }
        return i
    }

    /// True when a `//` comment starts at `index`.
    func isCommentStart(_ index: Int, before end: Int) -> Bool {
        character(index, before: end) == "/" && character(index + 1, before: end) == "/"
    }

    /// How many characters of `start..<end` lie on `start`'s line (at least 1).
    func lineLength(_ start: Int, _ end: Int) -> Int {
        var i = start
        while i < end && i < text.count && !text[i].isNewline { i += 1 }
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
