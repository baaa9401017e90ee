/// A Swift string literal as written in the source.
public struct SwiftStringLiteral: Sendable, Equatable {
    /// Its bytes in the file, from its first `#` or `"` through its last.
    public var range: Range<Int>
    /// The `#`s around a raw string (`#"…"#` has 1).
    public var hashes: Int
    /// What it says, when it is a plain literal: on one line, without interpolation; escapes
    /// decoded. Nil otherwise.
    public var value: String?
    /// Why it is not plain ("an interpolated string", "a multi-line string literal").
    public var problem: String?

    /// `text` written as a literal of this literal's form (raw strings keep their `#`s when
    /// `text` fits in them; otherwise it is written as a plain literal with escapes).
    public func respelled(_ text: String) -> String {
        Self.spelled(text, hashes: hashes)
    }

    /// `text` as a single-line Swift string literal with `hashes` `#`s around it, escaped where it must be.
    public static func spelled(_ text: String, hashes: Int = 0) -> String {
        if hashes > 0 {
            let fence = String(repeating: "#", count: hashes)
            let fits = !text.contains("\"" + fence) && !text.contains("\\" + fence) && !text.contains(where: \.isNewline)
            if fits { return fence + "\"" + text + "\"" + fence }
        }
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case "\0": escaped += "\\0"
            default:
                if scalar.value < 0x20 || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator {
                    escaped += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped + "\""
    }
}

/// One token of Swift code, as far as finding a call's arguments needs: names, string
/// literals, brackets, and single punctuation bytes. Comments and whitespace are skipped.
struct SwiftToken: Equatable {
    enum Kind: Equatable {
        case identifier
        case string(SwiftStringLiteral)
        case number
        case open(UInt8)
        case close(UInt8)
        /// Any other punctuation byte: `,` `:` `.` `=` `?` `!` `+` …
        case punctuation(UInt8)
    }

    var kind: Kind
    var range: Range<Int>
}

/// Scans Swift code in a file's bytes, starting at a place the compiler vouches for as code
/// (a call's opening parenthesis): enough of Swift's lexical grammar to skip comments and
/// strings (raw, multi-line, interpolated) and to balance brackets.
struct SwiftScanner {
    let bytes: [UInt8]

    /// The arguments of the call whose `(` is at `open`, each as its tokens, and the offset of
    /// the matching `)`; nil when the text ends first or a bracket does not match.
    func arguments(openingAt open: Int) -> (arguments: [[SwiftToken]], close: Int)? {
        var arguments: [[SwiftToken]] = []
        var current: [SwiftToken] = []
        var stack: [UInt8] = []
        var offset = open + 1
        while let token = next(from: &offset) {
            switch token.kind {
            case .open(let byte):
                stack.append(byte)
            case .close(let byte):
                if stack.isEmpty {
                    guard byte == UInt8(ascii: ")") else { return nil }
                    // Nothing after the last comma: a trailing comma (Swift 6.1), not an argument.
                    if !current.isEmpty { arguments.append(current) }
                    return (arguments, token.range.lowerBound)
                }
                guard Self.matches(stack.removeLast(), byte) else { return nil }
            case .punctuation(UInt8(ascii: ",")) where stack.isEmpty:
                arguments.append(current)
                current = []
                continue
            default:
                break
            }
            current.append(token)
        }
        return nil
    }

    /// The offset just after the bracket that closes the one at `open`, or nil.
    func balanced(from open: Int) -> Int? {
        var stack: [UInt8] = []
        var offset = open
        while let token = next(from: &offset) {
            switch token.kind {
            case .open(let byte): stack.append(byte)
            case .close(let byte):
                guard let last = stack.popLast(), Self.matches(last, byte) else { return nil }
                if stack.isEmpty { return token.range.upperBound }
            default: break
            }
        }
        return nil
    }

    /// The tokens of `range` (which must not start inside a string or comment), or nil when
    /// one reaches past its end.
    func tokens(_ range: Range<Int>) -> [SwiftToken]? {
        var tokens: [SwiftToken] = []
        var offset = range.lowerBound
        while true {
            skipTrivia(from: &offset)
            guard offset < range.upperBound else { return tokens }
            guard let token = next(from: &offset), token.range.upperBound <= range.upperBound else { return nil }
            tokens.append(token)
        }
    }

    private static func matches(_ open: UInt8, _ close: UInt8) -> Bool {
        (open, close) == (UInt8(ascii: "("), UInt8(ascii: ")")) || (open, close) == (UInt8(ascii: "["), UInt8(ascii: "]"))
            || (open, close) == (UInt8(ascii: "{"), UInt8(ascii: "}"))
    }

    /// Skips spaces, tabs and comments from `offset` (and line breaks when `skippingNewlines`);
    /// returns whether a line break was met (a `//` comment counts as one).
    @discardableResult
    func skipTrivia(from offset: inout Int, skippingNewlines: Bool = true) -> Bool {
        var sawNewline = false
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C:
                offset += 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                sawNewline = true
                guard skippingNewlines else { return true }
                offset += 1
            case UInt8(ascii: "/") where offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: "/"):
                while offset < bytes.count, bytes[offset] != UInt8(ascii: "\n"), bytes[offset] != UInt8(ascii: "\r") { offset += 1 }
                sawNewline = true
                guard skippingNewlines else { return true }
            case UInt8(ascii: "/") where offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: "*"):
                guard let end = blockCommentEnd(from: offset) else {
                    offset = bytes.count
                    return sawNewline
                }
                if bytes[offset..<end].contains(UInt8(ascii: "\n")) { sawNewline = true }
                offset = end
            default:
                return sawNewline
            }
        }
        return sawNewline
    }

    /// The next token at or after `offset` (trivia skipped), advancing `offset` past it; nil at
    /// the end of the text or of what can be read (an unterminated string or comment).
    func next(from offset: inout Int) -> SwiftToken? {
        skipTrivia(from: &offset)
        guard offset < bytes.count else { return nil }
        let start = offset
        let byte = bytes[offset]
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "#"):
            if let literal = string(at: offset) {
                offset = literal.range.upperBound
                return SwiftToken(kind: .string(literal), range: literal.range)
            }
            guard byte == UInt8(ascii: "#") else { return nil }
            // `#line`, `#selector(…)`: a name.
            offset += 1
            while offset < bytes.count, Self.isIdentifierByte(bytes[offset]) { offset += 1 }
            return SwiftToken(kind: .identifier, range: start..<offset)
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
            offset += 1
            return SwiftToken(kind: .open(byte), range: start..<offset)
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
            offset += 1
            return SwiftToken(kind: .close(byte), range: start..<offset)
        case UInt8(ascii: "`"):
            offset += 1
            while offset < bytes.count, bytes[offset] != UInt8(ascii: "`") {
                guard bytes[offset] != UInt8(ascii: "\n") else { return nil }
                offset += 1
            }
            guard offset < bytes.count else { return nil }
            offset += 1
            return SwiftToken(kind: .identifier, range: start..<offset)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            while offset < bytes.count {
                let next = bytes[offset]
                let fraction = next == UInt8(ascii: ".") && offset + 1 < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset + 1])
                guard Self.isIdentifierByte(next) || fraction else { break }
                offset += 1
            }
            return SwiftToken(kind: .number, range: start..<offset)
        default:
            if Self.isIdentifierByte(byte) {
                while offset < bytes.count, Self.isIdentifierByte(bytes[offset]) { offset += 1 }
                return SwiftToken(kind: .identifier, range: start..<offset)
            }
            offset += 1
            return SwiftToken(kind: .punctuation(byte), range: start..<offset)
        }
    }

    /// Letters, digits, `_`, `$` and every byte of a non-ASCII character (Swift allows most in names).
    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...:
            return true
        default:
            return false
        }
    }

    /// The offset after the `*/` that closes the comment opening at `offset` (block comments nest).
    private func blockCommentEnd(from offset: Int) -> Int? {
        var depth = 0
        var index = offset
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return index }
            } else {
                index += 1
            }
        }
        return nil
    }

    /// The string literal starting at `offset` (`"`, `"""`, or `#`s then one of them), or nil
    /// when there is none there or it does not end.
    func string(at offset: Int) -> SwiftStringLiteral? {
        var index = offset
        var hashes = 0
        while index < bytes.count, bytes[index] == UInt8(ascii: "#") {
            hashes += 1
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let quote = UInt8(ascii: "\"")
        let multiline = index + 2 < bytes.count && bytes[index + 1] == quote && bytes[index + 2] == quote
        index += multiline ? 3 : 1
        var value: [UInt8] = []
        var problem: String? = multiline ? "a multi-line string literal" : nil
        /// Whether `count` `#`s start at `at`.
        func fence(at start: Int) -> Bool {
            start + hashes <= bytes.count && bytes[start..<(start + hashes)].allSatisfy { $0 == UInt8(ascii: "#") }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                let quotes = multiline ? 3 : 1
                if index + quotes <= bytes.count, bytes[index..<(index + quotes)].allSatisfy({ $0 == quote }), fence(at: index + quotes) {
                    let end = index + quotes + hashes
                    return SwiftStringLiteral(range: offset..<end, hashes: hashes, value: problem == nil ? String(decoding: value, as: UTF8.self) : nil,
                                              problem: problem)
                }
                value.append(byte)
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\\"), fence(at: index + 1) {
                let escape = index + 1 + hashes
                guard escape < bytes.count else { return nil }
                switch bytes[escape] {
                case UInt8(ascii: "("):
                    problem = problem ?? "an interpolated string"
                    guard let end = balanced(from: escape) else { return nil }
                    index = end
                    continue
                case UInt8(ascii: "n"): value.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): value.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "r"): value.append(UInt8(ascii: "\r"))
                case UInt8(ascii: "0"): value.append(0)
                case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): value.append(bytes[escape])
                case UInt8(ascii: "u"):
                    guard escape + 1 < bytes.count, bytes[escape + 1] == UInt8(ascii: "{"),
                          let close = bytes[(escape + 2)...].firstIndex(of: UInt8(ascii: "}")),
                          let code = UInt32(String(decoding: bytes[(escape + 2)..<close], as: UTF8.self), radix: 16),
                          let scalar = Unicode.Scalar(code) else { return nil }
                    value += Array(String(Character(scalar)).utf8)
                    index = close + 1
                    continue
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: " "), UInt8(ascii: "\t"):
                    // A line continuation: only in multi-line literals, which are not plain anyway.
                    guard multiline else { return nil }
                default:
                    return nil
                }
                index = escape + 1
                continue
            }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                guard multiline else { return nil }
            }
            value.append(byte)
            index += 1
        }
        return nil
    }
}
