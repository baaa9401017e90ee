/// A piece of a string literal before its interpolations are parsed:
/// decoded text, or the index range of an interpolation's contents.
enum RawStringPart: Equatable, Sendable {
    case literal(String)
    case interpolation(start: Int, end: Int)
}

struct Token: Sendable {
    enum Kind: Equatable, Sendable {
        case identifier(String)
        case integer(String)        // digits, `_` removed
        case floating(String)       // as Double(_:) reads it, `_` removed
        case string([RawStringPart])
        case punctuation(String)    // ( ) [ ] { } , : ; . \ ->
        case op(String)             // one of Lexer.operators
        case genericArguments([String])
        /// Where lexing failed; the error is `Lexer.Result.error`.
        case invalid
        case end
    }

    var kind: Kind
    var start: Int
    var end: Int
    var spaceBefore: Bool
    var newlineBefore: Bool

    func isPunctuation(_ text: String) -> Bool { kind == .punctuation(text) }
    func isOperator(_ text: String) -> Bool { kind == .op(text) }
    func isIdentifier(_ text: String) -> Bool { kind == .identifier(text) }

    var identifier: String? {
        if case .identifier(let name) = kind { return name }
        return nil
    }
}

/// Splits expression source (a range of a `SourceText`) into tokens.
/// `//` and `/* */` comments and whitespace are skipped; each token records
/// whether whitespace or a newline preceded it.
struct Lexer {
    static let operators: Set<String> = [
        "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "??", "!", "?", "=",
        "+=", "-=", "*=", "/=", "%=",
    ]
    static let maximumStringNesting = 16

    let source: SourceText
    let end: Int
    var index: Int
    var tokens: [Token] = []
    private var sawSpace = true
    private var sawNewline = false

    private init(source: SourceText, start: Int, end: Int) {
        self.source = source
        self.index = start
        self.end = min(end, source.count)
    }

    /// The tokens of `start..<end`, ending with an `.end` token placed just after
    /// the last real token, or, when lexing fails, with an `.invalid` token and the error.
    /// Lexing errors are reported only when the parser reaches them, so errors come in
    /// source order.
    static func tokenize(_ source: SourceText, from start: Int, to end: Int) -> (tokens: [Token], error: SyntaxError?) {
        var lexer = Lexer(source: source, start: start, end: end)
        do throws(SyntaxError) {
            try lexer.run()
        } catch {
            let at = lexer.index
            lexer.tokens.append(Token(kind: .invalid, start: at, end: at, spaceBefore: lexer.sawSpace, newlineBefore: lexer.sawNewline))
            return (lexer.tokens, error)
        }
        let endIndex = lexer.tokens.last?.end ?? start
        lexer.tokens.append(Token(kind: .end, start: endIndex, end: endIndex,
                                  spaceBefore: lexer.sawSpace, newlineBefore: lexer.sawNewline))
        return (lexer.tokens, nil)
    }

    /// Lexes the string literal whose opening quote is at `start`, returning its
    /// parts and the index just after the closing quote.
    static func string(in source: SourceText, at start: Int, end: Int) throws(SyntaxError) -> (parts: [RawStringPart], end: Int) {
        var lexer = Lexer(source: source, start: start, end: end)
        let parts = try lexer.lexString(nesting: 0)
        return (parts, lexer.index)
    }

    private func peek(_ offset: Int = 0) -> Character? {
        source.character(index + offset, before: end)
    }

    private mutating func append(_ kind: Token.Kind, from start: Int) {
        tokens.append(Token(kind: kind, start: start, end: index, spaceBefore: sawSpace, newlineBefore: sawNewline))
        sawSpace = false
        sawNewline = false
    }

    private mutating func run() throws(SyntaxError) {
        while index < end {
            let c = source[index]
            if c.isNewline {
                sawNewline = true
                sawSpace = true
                index += 1
            } else if c.isWhitespace {
                sawSpace = true
                index += 1
            } else if c == "/" && peek(1) == "/" {
                while index < end && !source[index].isNewline { index += 1 }
                sawSpace = true
            } else if c == "/" && peek(1) == "*" {
                try skipBlockComment()
                sawSpace = true
            } else {
                try lexToken(c)
            }
        }
    }

    private mutating func skipBlockComment() throws(SyntaxError) {
        let start = index
        index += 2
        var depth = 1
        while index < end {
            if peek() == "*" && peek(1) == "/" {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else if peek() == "/" && peek(1) == "*" {
                depth += 1
                index += 2
            } else {
                if source[index].isNewline { sawNewline = true }
                index += 1
            }
        }
        throw source.error("unterminated '/*' comment", at: start, length: 2)
    }

    private mutating func lexToken(_ c: Character) throws(SyntaxError) {
        let start = index
        switch c {
        case _ where c.isIdentifierStart:
            try lexIdentifier()
        case _ where c.isASCIIDigit:
            if let last = tokens.last, last.isPunctuation("."), last.end == start {
                // A tuple member: `x.0.1` is `.0` then `.1`, never the number `0.1`.
                while let d = peek(), d.isASCIIDigit { index += 1 }
                append(.integer(source.text(start, index)), from: start)
            } else {
                try lexNumber()
            }
        case "$":
            index += 1
            if let d = peek(), d.isIdentifierStart {
                // `$query`: the publisher of a `@Published var query`.
                while let d = peek(), d.isIdentifierContinue { index += 1 }
                append(.identifier(source.text(start, index)), from: start)
                return
            }
            guard let d = peek(), d.isASCIIDigit else {
                throw source.error("expected a number after '$' (closure parameters are $0, $1, …)", at: start)
            }
            while let d = peek(), d.isASCIIDigit { index += 1 }
            append(.identifier(source.text(start, index)), from: start)
        case "`":
            index += 1
            let nameStart = index
            while let d = peek(), d.isIdentifierContinue { index += 1 }
            guard peek() == "`", index > nameStart, source[nameStart].isIdentifierStart else {
                throw source.error("expected an identifier between backticks", at: start)
            }
            let name = source.text(nameStart, index)
            index += 1
            append(.identifier(name), from: start)
        case "\"":
            let parts = try lexString(nesting: 0)
            append(.string(parts), from: start)
        case "(", ")", "[", "]", "{", "}", ",", ":", ";", "\\":
            index += 1
            append(.punctuation(String(c)), from: start)
        case ".":
            if peek(1) == "." && peek(2) == "." {
                index += 3
                append(.op("..."), from: start)
            } else if peek(1) == "." && peek(2) == "<" {
                index += 3
                append(.op("..<"), from: start)
            } else if peek(1) == "." {
                throw source.error("unknown operator '..'", at: start, length: 2, hint: "ranges are written '...' or '..<'")
            } else {
                index += 1
                append(.punctuation("."), from: start)
            }
        case "?":
            index += peek(1) == "?" ? 2 : 1
            append(.op(source.text(start, index)), from: start)
        case "!" where peek(1) != "=":
            index += 1
            append(.op("!"), from: start)
        case _ where Lexer.operatorCharacters.contains(c):
            index += 1
            while let d = peek(), Lexer.operatorCharacters.contains(d) || d == "!" {
                if d == "/" && (peek(1) == "/" || peek(1) == "*") { break }
                index += 1
            }
            let text = source.text(start, index)
            if text == "->" {
                append(.punctuation("->"), from: start)
            } else if Lexer.operators.contains(text) {
                append(.op(text), from: start)
            } else {
                var hint: String?
                if text == "&", let next = peek(), next.isIdentifierStart {
                    var nameEnd = index
                    while let d = source.character(nameEnd, before: end), d.isIdentifierContinue { nameEnd += 1 }
                    let name = source.text(index, nameEnd)
                    throw source.error("'&\(name)' passes a variable inout; a .marble test has no variables to pass", at: start, length: nameEnd - start,
                                       hint: "'.store(in: &\(name))' keeps an app's subscription alive; in a test the 'expect' line is the subscriber: drop it and write expect NAME MARBLES")
                }
                if text == "&" || text == "|" {
                    hint = "did you mean '\(text)\(text)'?"
                } else if let near = Suggestions.nearest(to: text, in: Lexer.operators.sorted()) {
                    hint = "did you mean '\(near)'?"
                }
                throw source.error("unknown operator '\(text)'", at: start, length: text.count, hint: hint)
            }
        default:
            throw source.error("unexpected character '\(c)' in expression", at: start)
        }
    }

    private static let operatorCharacters: Set<Character> = ["+", "-", "*", "/", "%", "=", "<", ">", "&", "|", "~", "^", "!"]

    private mutating func lexIdentifier() throws(SyntaxError) {
        let start = index
        while let d = peek(), d.isIdentifierContinue { index += 1 }
        let name = source.text(start, index)
        append(.identifier(name), from: start)
        if name.first?.isUppercase == true, peek() == "<", let (arguments, close) = try genericArguments(from: index) {
            let open = index
            index = close + 1
            append(.genericArguments(arguments), from: open)
        }
    }

    /// `<A, B<C>>` directly after a capitalised name, itself directly followed by
    /// `(` or `.`, or by a trailing closure's `{`: the type arguments as written, and the index of the closing `>`.
    /// Brackets nest at most `ExpressionParser.maximumDepth` levels, as in an expression: the
    /// scan, and every later reading of the type, stays linear in its length.
    private func genericArguments(from open: Int) throws(SyntaxError) -> ([String], Int)? {
        var depth = 0
        var brackets = 0
        var i = open
        var close: Int?
        while i < end {
            let c = source[i]
            if c == "<" || c == "[" || c == "(" {
                brackets += 1
                guard brackets <= ExpressionParser.maximumDepth else { throw ExpressionParser.typeNestedTooDeeply(in: source, at: i) }
            } else if c == ">" || c == "]" || c == ")" {
                brackets -= 1
            }
            if c == "<" {
                depth += 1
            } else if c == ">" {
                depth -= 1
                if depth == 0 {
                    close = i
                    break
                }
            } else if !(c.isIdentifierContinue || c.isHorizontalSpace || ",.[]:?()&".contains(c)) {
                return nil
            }
            i += 1
        }
        // A trailing closure may follow after spaces: `Future<Int, Never> { promise in … }`.
        guard let close, let after = source.character(close + 1, before: end) else { return nil }
        var afterSpaces = close + 1
        while let space = source.character(afterSpaces, before: end), space.isHorizontalSpace { afterSpaces += 1 }
        guard after == "(" || after == "." || source.character(afterSpaces, before: end) == "{" else { return nil }
        var arguments: [String] = []
        var current = ""
        var nesting = 0
        for position in open + 1..<close {
            let c = source[position]
            switch c {
            case "<", "[", "(": nesting += 1
            case ">", "]", ")": nesting -= 1
            default: break
            }
            if c == "," && nesting == 0 {
                arguments.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        arguments.append(current)
        let trimmed = arguments.map(\.trimmingSpaces)
        guard nesting == 0, !trimmed.contains(where: \.isEmpty) else { return nil }
        return (trimmed, close)
    }

    private mutating func lexNumber() throws(SyntaxError) {
        let start = index
        var isFloating = false
        func digits(_ lexer: inout Lexer) {
            while let d = lexer.peek(), d.isASCIIDigit || d == "_" { lexer.index += 1 }
        }
        digits(&self)
        if peek() == ".", let d = peek(1), d.isASCIIDigit {
            isFloating = true
            index += 1
            digits(&self)
        }
        if let e = peek(), e == "e" || e == "E" {
            var offset = 1
            if let sign = peek(1), sign == "+" || sign == "-" { offset = 2 }
            if let d = peek(offset), d.isASCIIDigit {
                isFloating = true
                index += offset
                digits(&self)
            }
        }
        if let bad = peek(), bad.isIdentifierContinue {
            let kind = isFloating ? "floating-point" : "integer"
            var hint: String?
            if !isFloating, let unit = peek(), unit == "m" || unit == "s" || unit == "u" || unit == "µ" || unit == "n" {
                hint = "a duration in an expression is written like .milliseconds(300) or .seconds(1); a bare integer counts frames"
            }
            throw source.error("'\(bad)' is not a valid digit in \(kind) literal", at: index, hint: hint)
        }
        let text = source.text(start, index).filter { $0 != "_" }
        append(isFloating ? .floating(text) : .integer(text), from: start)
    }

    /// Lexes a string literal starting at the opening quote at `index`, leaving
    /// `index` after the closing quote.
    private mutating func lexString(nesting: Int) throws(SyntaxError) -> [RawStringPart] {
        let start = index
        guard nesting <= Lexer.maximumStringNesting else {
            throw source.error("string literals are nested too deeply", at: start)
        }
        if peek(1) == "\"" && peek(2) == "\"" {
            throw source.error("multi-line string literals are not supported", at: start, length: 3)
        }
        index += 1
        var parts: [RawStringPart] = []
        var text = ""
        while true {
            guard let c = peek(), !c.isNewline else {
                throw source.error("unterminated string literal", at: start)
            }
            if c == "\"" {
                index += 1
                break
            }
            if c != "\\" {
                text.append(c)
                index += 1
                continue
            }
            guard let escaped = peek(1), !escaped.isNewline else {
                throw source.error("unterminated string literal", at: start)
            }
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\0")
            case "\\": text.append("\\")
            case "\"": text.append("\"")
            case "'": text.append("'")
            case "u":
                text.append(try unicodeEscape())
                continue
            case "(":
                if !text.isEmpty { parts.append(.literal(text)) }
                text = ""
                let contentStart = index + 2
                let close = try interpolationEnd(from: contentStart, stringStart: start, nesting: nesting)
                parts.append(.interpolation(start: contentStart, end: close))
                index = close + 1
                continue
            default:
                throw source.error("invalid escape sequence '\\\(escaped)' in literal", at: index, length: 2,
                                   hint: "the escapes are \\n \\t \\r \\0 \\\\ \\\" \\' \\u{…} and \\(…)")
            }
            index += 2
        }
        if !text.isEmpty { parts.append(.literal(text)) }
        return parts
    }

    /// `\u{1F600}` at `index` (the backslash); leaves `index` after the `}`.
    private mutating func unicodeEscape() throws(SyntaxError) -> Character {
        let start = index
        guard peek(2) == "{" else {
            throw source.error("expected hexadecimal code in braces after unicode escape", at: start, length: 2)
        }
        var i = 3
        var hex = ""
        while let d = peek(i), d.isHexDigit {
            hex.append(d)
            i += 1
        }
        guard peek(i) == "}", (1...8).contains(hex.count) else {
            throw source.error("expected hexadecimal code in braces after unicode escape", at: start, length: i)
        }
        index += i + 1
        guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
            throw source.error("invalid unicode scalar '\\u{\(hex)}'", at: start, length: i + 1)
        }
        return Character(scalar)
    }

    /// The index of the `)` that closes an interpolation whose contents start at `from`.
    private mutating func interpolationEnd(from contentStart: Int, stringStart: Int, nesting: Int) throws(SyntaxError) -> Int {
        let saved = index
        defer { index = saved }
        index = contentStart
        var depth = 1
        while let c = peek(), !c.isNewline {
            switch c {
            case "(":
                depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return index }
            case "\"":
                do throws(SyntaxError) {
                    _ = try lexString(nesting: nesting + 1)
                } catch {
                    // `"a\(b"`: the string the author left open is the outer one.
                    if error.message == "unterminated string literal" {
                        throw source.error("unterminated string literal", at: stringStart)
                    }
                    throw error
                }
                continue
            default:
                break
            }
            index += 1
        }
        throw source.error("unterminated string literal", at: stringStart)
    }
}
