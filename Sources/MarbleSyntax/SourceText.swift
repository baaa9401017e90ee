/// Source text as an array of `Character`s. Locations are computed on demand from where each
/// line starts (one entry per line, not per character: marble lines can be a megabyte long).
struct SourceText: Sendable {
    let chars: [Character]
    /// The index of the first character of each line, in order.
    private let lineStarts: [Int]
    private let start: SourceLocation
    /// The text's UTF-8 bytes when every character is one byte (ASCII): then character offsets
    /// are byte offsets and pieces of text are copied as bytes, not rebuilt character by character.
    private let asciiBytes: [UInt8]?

    init(_ text: String, startingAt start: SourceLocation = SourceLocation(line: 1, column: 1)) {
        let chars = Array(text)
        let bytes = Array(text.utf8)
        let ascii = bytes.count == chars.count
        var lineStarts = [0]
        if ascii {
            // "\r\n" is one Character but two bytes, so an ASCII text has lone '\n' or '\r' only.
            for (index, byte) in bytes.enumerated() where byte == 0x0A || byte == 0x0D { lineStarts.append(index + 1) }
        } else {
            for (index, character) in chars.enumerated() where character.isNewline { lineStarts.append(index + 1) }
        }
        self.chars = chars
        self.lineStarts = lineStarts
        self.start = start
        asciiBytes = ascii ? bytes : nil
    }

    var count: Int { chars.count }

    /// The location of the character at `index`; past the end, the end of the text.
    /// The location of a newline character is the column just after its line's last character.
    func location(_ index: Int) -> SourceLocation {
        let index = min(max(index, 0), chars.count)
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
        index >= 0 && index < end && index < chars.count ? chars[index] : nil
    }

    /// The byte at `index` when the text is ASCII (then it is the character), else nil.
    func asciiByte(_ index: Int) -> UInt8? { asciiBytes?[index] }

    func text(_ start: Int, _ end: Int) -> String {
        guard start < end else { return "" }
        if let asciiBytes { return String(decoding: asciiBytes[start..<end], as: UTF8.self) }
        return String(chars[start..<end])
    }

    /// The index of the newline that ends the line containing `index`, or `count`.
    func endOfLine(from index: Int) -> Int {
        var i = index
        if let asciiBytes {
            while i < asciiBytes.count && asciiBytes[i] != 0x0A && asciiBytes[i] != 0x0D { i += 1 }
            return i
        }
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
