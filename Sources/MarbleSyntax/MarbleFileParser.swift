import MarbleNotation

/// Parses `.marble` files and expressions into syntax trees.
///
/// The grammar, in short (see the format brief for the meaning):
///
/// - One statement per line, starting with a keyword (`statementKeywords`). Blank lines
///   and indentation are free. `//` starts a comment except inside a string literal of
///   an expression, a test name, or a `{…}` literal of a marble string.
/// - `frame` and `values` may come before the first `test`; everything else belongs
///   to the test above it.
/// - Marble strings are kept as written (`MarbleText`): the rest of the line after the
///   stream name, without the comment and trailing whitespace.
/// - The expression of a `let`, `subject` or `values` statement continues onto the
///   following lines while a `(`, `[` or `{` is open, and onto a following line that
///   starts with `.` (a method chain). While brackets are open, a line that plainly
///   starts another statement ends the expression anyway (see `expressionExtent`),
///   so one unclosed bracket costs one error, not the rest of the file.
/// - Errors: one per statement; a statement with an error is left out of the tree
///   and parsing resumes on the next line (or after the statement's extent).
public enum MarbleFileParser {
    /// The words a statement can start with, in the order the format brief lists them.
    /// How deeply brackets, closures and prefix operators may nest in an expression, and
    /// brackets and generic arguments in a written type.
    public static var maximumNesting: Int { ExpressionParser.maximumDepth }

    public static let statementKeywords = [
        "frame", "notation", "test", "hot", "cold", "subject", "send", "values", "let", "subscribe", "demand", "connect", "expect",
    ]

    /// Characters that cannot name a value in a `values` line: they mean something in
    /// marbles (or in the `values` line itself).
    public static let reservedValueNames: Set<Character> = ["-", "|", "#", "(", ")", "^", "!", "{", "}", "=", ","]

    /// Parses the whole file, collecting as many errors as it can (one per bad
    /// statement) without cascading. Statements with errors are left out of the tree.
    public static func parse(_ source: String) -> (file: MarbleFileSyntax, errors: [SyntaxError]) {
        var parser = FileParser(source: SourceText(source))
        parser.run()
        return (parser.file, parser.errors)
    }

    /// Parses the whole file as `parse` does, but hands each test to `eachTest` (with the
    /// file-level statements, complete by then) as soon as its last statement is read, and keeps
    /// none: the file returned has no tests. A file of a million tests need not be held whole.
    public static func parse(_ source: String, eachTest: ([Statement], TestSyntax) -> Void) -> (file: MarbleFileSyntax, errors: [SyntaxError]) {
        parseTests(source) { file, test in eachTest(file.statements, test) }
    }

    /// As `parse(_:eachTest:)`, with the file as read so far (its statements, its unparsed
    /// declarations and its structure errors before the test; no tests) instead of its statements.
    public static func parseTests(_ source: String, _ eachTest: (MarbleFileSyntax, TestSyntax) -> Void) -> (file: MarbleFileSyntax, errors: [SyntaxError]) {
        withoutActuallyEscaping(eachTest) { eachTest in
            var parser = FileParser(source: SourceText(source))
            parser.eachTest = eachTest
            parser.run()
            return (parser.file, parser.errors)
        }
    }

    /// Parses `text` as one expression; `location` is where its first character
    /// sits in the file, so locations in the tree and in errors are the file's.
    public static func parseExpression(_ text: String, at location: SourceLocation) throws(SyntaxError) -> Expr {
        let source = SourceText(text, startingAt: location)
        return try ExpressionParser.parse(source, from: 0, to: source.count)
    }

    /// Parses `text` as a literal (what a `values` entry or a marble `{…}` holds):
    /// a number, a string without interpolation, `true`/`false`, `nil`, or an array
    /// or tuple of literals.
    public static func parseLiteral(_ text: String, at location: SourceLocation) throws(SyntaxError) -> Expr {
        let expression = try parseExpression(text, at: location)
        if let offender = FileParser.nonLiteral(in: expression) {
            throw FileParser.literalError(offender)
        }
        return expression
    }
}

struct FileParser {
    let source: SourceText
    var file = MarbleFileSyntax()
    var errors: [SyntaxError] = []
    var testNames: [String: SourceLocation] = [:]
    /// When set, each test is handed over once the next begins (or the file ends), not kept.
    var eachTest: ((MarbleFileSyntax, TestSyntax) -> Void)?
    /// Set by the file's `notation` line: under an RxJS notation a marble string may be quoted.
    var dialect = MarbleDialect.native
    /// The line of the file's `notation` statement, once read.
    var notationLine: Int?

    init(source: SourceText) {
        self.source = source
    }


    mutating func run() {
        var index = 0
        while index < source.count {
            index = parseLine(at: index)
        }
        if let eachTest, let last = file.tests.popLast() { eachTest(file, last) }
    }

    /// Parses the statement starting on the line at `lineStart`; returns the index
    /// where the next unread line starts.
    mutating func parseLine(at lineStart: Int) -> Int {
        let lineEnd = source.endOfLine(from: lineStart)
        let start = source.skipSpaces(from: lineStart, to: lineEnd)
        var next = lineEnd + 1
        if start == lineEnd || source.isCommentStart(start, before: lineEnd) { return next }
        do throws(SyntaxError) {
            try parseStatement(at: start, lineEnd: lineEnd, next: &next)
        } catch {
            errors.append(error)
            place(error, ofStatementAt: start, lineEnd: lineEnd, next: next)
        }
        return next
    }

    /// Files the error of the statement at `start` (which spans the lines up to `next`): in the
    /// test it belongs to, among the file's unparsed declarations, or as breaking the structure.
    mutating func place(_ error: SyntaxError, ofStatementAt start: Int, lineEnd: Int, next: Int) {
        var wordEnd = start + (source[start] == "@" ? 1 : 0)
        while wordEnd < lineEnd && source[wordEnd].isIdentifierContinue { wordEnd += 1 }
        let keyword = source.text(start, wordEnd)
        // The test line itself, or a line before any test that declares nothing: the tests'
        // boundaries, or what every test sees, are unknown.
        let declaresForTests = ExpressionParser.declarationKeywords.contains(keyword) || keyword == "values"
        guard keyword != "test", !file.tests.isEmpty || declaresForTests else {
            file.structureErrors.append(error)
            return
        }
        var nameStart = source.skipSpaces(from: wordEnd, to: lineEnd)
        if keyword == "@Published" || keyword == "@" {
            // `@Published var NAME`
            var varEnd = nameStart
            while varEnd < lineEnd && source[varEnd].isIdentifierContinue { varEnd += 1 }
            if source.text(nameStart, varEnd) == "var" { nameStart = source.skipSpaces(from: varEnd, to: lineEnd) }
        }
        var nameEnd = nameStart
        if nameStart < lineEnd, source[nameStart].isIdentifierStart {
            while nameEnd < lineEnd && source[nameEnd].isIdentifierContinue { nameEnd += 1 }
        }
        let name = nameEnd > nameStart ? Identifier(name: source.text(nameStart, nameEnd), location: source.location(nameStart)) : nil
        let end = max(lineEnd, min(next - 1, source.count))
        let unparsed = UnparsedStatement(keyword: keyword, name: name, error: error,
                                         range: SourceRange(start: source.location(start), end: source.location(end)))
        if file.tests.isEmpty {
            file.unparsed.append(unparsed)
        } else {
            file.tests[file.tests.count - 1].unparsed.append(unparsed)
        }
    }

    // MARK: Statements

    mutating func parseStatement(at start: Int, lineEnd: Int, next: inout Int) throws(SyntaxError) {
        let first = source[start]
        if first == "@" {
            let (kind, end) = try parsePublished(at: start, lineEnd: lineEnd, next: &next)
            guard !file.tests.isEmpty else {
                throw source.error("'@Published' must be inside a test", at: start, length: 10,
                                   hint: "a @Published property belongs to one test; declare it after test \"NAME\"")
            }
            file.tests[file.tests.count - 1].statements.append(Statement(kind: kind, location: source.location(start),
                                                                         range: SourceRange(start: source.location(start), end: end)))
            return
        }
        guard first.isIdentifierStart else {
            throw source.error("expected a statement, found '\(first)'", at: start,
                               hint: "a line starts with one of: \(MarbleFileParser.statementKeywords.joined(separator: ", "))")
        }
        var wordEnd = start
        while wordEnd < lineEnd && source[wordEnd].isIdentifierContinue { wordEnd += 1 }
        let keyword = source.text(start, wordEnd)
        let kind: StatementKind
        let end: SourceLocation
        switch keyword {
        case "test":
            try parseTest(keywordAt: start, after: wordEnd, lineEnd: lineEnd)
            return
        case "frame":
            (kind, end) = try parseFrame(after: wordEnd, lineEnd: lineEnd)
        case "notation":
            (kind, end) = try parseNotation(keywordAt: start, after: wordEnd, lineEnd: lineEnd)
            if case .notation(let notation) = kind { dialect = notation.dialect }
        case "values":
            (kind, end) = try parseValues(after: wordEnd, lineEnd: lineEnd, next: &next)
        case "let", "subject":
            (kind, end) = try parseBinding(keyword, after: wordEnd, lineEnd: lineEnd, next: &next)
        case "hot", "cold", "send", "subscribe", "demand", "connect", "expect":
            (kind, end) = try parseMarbleStatement(keyword, after: wordEnd, lineEnd: lineEnd)
        case _ where ExpressionParser.declarationKeywords.contains(keyword):
            (kind, end) = try parseDeclaration(at: start, lineEnd: lineEnd, next: &next)
        default:
            var hint = "a statement starts with one of: \(MarbleFileParser.statementKeywords.joined(separator: ", "))"
            if let near = Suggestions.nearest(to: keyword, in: MarbleFileParser.statementKeywords) {
                hint = "did you mean '\(near)'?"
            } else if keyword == "var" {
                // A test's names are fixed; what app code keeps in a `var` is said another way.
                hint = "a test's names are constants: write 'let'; state for one subscription is a var inside Deferred { … }, and a source that behaves differently on each attempt is several 'cold NAME' lines (the nth plays to the nth subscription)"
            } else if keyword == "const" {
                hint = "did you mean 'let'?"
            }
            throw source.error("unknown statement '\(keyword)'", at: start, length: keyword.count, hint: hint)
        }
        let statement = Statement(kind: kind, location: source.location(start),
                                  range: SourceRange(start: source.location(start), end: end))
        switch kind {
        case .frame, .notation, .values, .declaration:
            break
        default:
            guard !file.tests.isEmpty else {
                throw source.error("'\(keyword)' must be inside a test", at: start, length: keyword.count,
                                   hint: "only 'frame', 'notation', 'values' and type declarations may come before the first test; start one with: test \"NAME\"")
            }
        }
        if file.tests.isEmpty {
            file.statements.append(statement)
        } else {
            file.tests[file.tests.count - 1].statements.append(statement)
        }
    }

    /// `test "NAME"`
    mutating func parseTest(keywordAt start: Int, after wordEnd: Int, lineEnd: Int) throws(SyntaxError) {
        let quote = source.skipSpaces(from: wordEnd, to: lineEnd)
        guard quote < lineEnd, source[quote] == "\"", quote > wordEnd else {
            throw source.error("expected a quoted test name after 'test'", at: quote, length: tokenLength(at: quote, lineEnd: lineEnd),
                               hint: "write it as: test \"what the test shows\"")
        }
        let (parts, end) = try Lexer.string(in: source, at: quote, end: lineEnd)
        var name = ""
        for part in parts {
            switch part {
            case .literal(let text):
                name += text
            case .interpolation(let contentStart, _):
                throw source.error("a test name cannot contain interpolation", at: contentStart - 2, length: 2)
            }
        }
        try expectLineEnd(from: end, lineEnd: lineEnd, after: "the test name")
        guard !name.trimmingSpaces.isEmpty else {
            throw source.error("a test name cannot be empty", at: quote, length: end - quote)
        }
        if let eachTest, let previous = file.tests.popLast() { eachTest(file, previous) }
        file.tests.append(TestSyntax(name: name, location: source.location(start), nameLocation: source.location(quote)))
        if let earlier = testNames[name] {
            throw source.error("duplicate test name \"\(name)\"", at: quote, length: end - quote,
                               hint: "test names must be unique within a file; the first is at line \(earlier.line)")
        }
        testNames[name] = source.location(quote)
    }

    /// `frame DURATION`
    func parseFrame(after wordEnd: Int, lineEnd: Int) throws(SyntaxError) -> (StatementKind, SourceLocation) {
        let start = source.skipSpaces(from: wordEnd, to: lineEnd)
        guard start < lineEnd, start > wordEnd, !source.isCommentStart(start, before: lineEnd) else {
            throw source.error("expected a duration after 'frame'", at: start, hint: "for example: frame 100ms")
        }
        var end = start
        while end < lineEnd && !source[end].isWhitespace && !source.isCommentStart(end, before: lineEnd) { end += 1 }
        let text = source.text(start, end)
        guard FileParser.isDuration(text) else {
            throw source.error("'\(text)' is not a duration", at: start, length: end - start,
                               hint: "write a number and a unit, such as 100ms, 1s or 1.5s")
        }
        try expectLineEnd(from: end, lineEnd: lineEnd, after: "the duration")
        return (.frame(DurationSyntax(text: text, location: source.location(start))), source.location(end))
    }

    /// `notation native|rxjs|rxjs-legacy`: before the first test, once.
    mutating func parseNotation(keywordAt keyword: Int, after wordEnd: Int, lineEnd: Int) throws(SyntaxError) -> (StatementKind, SourceLocation) {
        let names = MarbleDialect.allCases.map(\.name)
        let start = source.skipSpaces(from: wordEnd, to: lineEnd)
        guard start < lineEnd, start > wordEnd, !source.isCommentStart(start, before: lineEnd) else {
            throw source.error("expected a notation after 'notation'", at: start, hint: "one of: \(names.joined(separator: ", ")); for example: notation rxjs")
        }
        var end = start
        while end < lineEnd && !source[end].isWhitespace && !source.isCommentStart(end, before: lineEnd) { end += 1 }
        let word = source.text(start, end)
        guard let dialect = MarbleDialect(rawValue: word) else {
            throw source.error("unknown notation '\(word)'", at: start, length: end - start,
                               hint: Suggestions.nearest(to: word, in: names).map { "did you mean '\($0)'?" } ?? "one of: \(names.joined(separator: ", "))")
        }
        try expectLineEnd(from: end, lineEnd: lineEnd, after: "the notation")
        guard file.tests.isEmpty else {
            throw source.error("'notation' must come before the first test: it says how every marble string of the file is read", at: keyword, length: 8,
                               hint: "move it to the top of the file")
        }
        if let notationLine {
            throw source.error("the file already has a notation line (line \(notationLine))", at: keyword, length: 8, hint: "keep one")
        }
        notationLine = source.location(keyword).line
        return (.notation(NotationSyntax(dialect: dialect, location: source.location(start))), source.location(end))
    }

    /// Digits, optionally `.` and more digits, then one or more letters.
    static func isDuration(_ text: String) -> Bool {
        var characters = Substring(text)
        let integer = characters.prefix(while: \.isASCIIDigit)
        guard !integer.isEmpty else { return false }
        characters = characters.dropFirst(integer.count)
        if characters.first == "." {
            let fraction = characters.dropFirst().prefix(while: \.isASCIIDigit)
            guard !fraction.isEmpty else { return false }
            characters = characters.dropFirst(1 + fraction.count)
        }
        return !characters.isEmpty && characters.allSatisfy(\.isLetter)
    }

    /// `hot|cold|send|subscribe|demand|connect|expect NAME MARBLES`, and `expect NAME.PROPERTY MARBLES`.
    func parseMarbleStatement(_ keyword: String, after wordEnd: Int, lineEnd: Int) throws(SyntaxError) -> (StatementKind, SourceLocation) {
        let example = [
            "hot": "hot taps  -a-b-|", "cold": "cold request  ---x|", "send": "send state  --l---d-|",
            "subscribe": "subscribe late  ---^---!", "demand": "demand ticks  2----1--",
            "connect": "connect shared  --^", "expect": "expect result  -a-b-|",
        ][keyword] ?? keyword
        let (name, nameEnd) = try readName(after: wordEnd, lineEnd: lineEnd, keyword: keyword,
                                           what: "a stream name", example: example)
        var index = nameEnd
        var property: Identifier?
        if index < lineEnd && source[index] == "." {
            guard keyword == "expect" else {
                throw source.error("only 'expect' lines can name a property such as '.subscriptions'", at: index)
            }
            let propertyStart = index + 1
            guard propertyStart < lineEnd, source[propertyStart].isIdentifierStart else {
                throw source.error("expected a property name after '.'", at: propertyStart,
                                   hint: "for example: expect \(name.name).subscriptions  -^--!")
            }
            index = propertyStart
            while index < lineEnd && source[index].isIdentifierContinue { index += 1 }
            property = Identifier(name: source.text(propertyStart, index), location: source.location(propertyStart))
        }
        let written = property.map { "\(name.name).\($0.name)" } ?? name.name
        if index < lineEnd && !source[index].isHorizontalSpace && !source.isCommentStart(index, before: lineEnd) {
            throw source.error("expected a space between '\(written)' and its marbles", at: index)
        }
        let marblesStart = source.skipSpaces(from: index, to: lineEnd)
        if dialect != .native, marblesStart < lineEnd, source[marblesStart] == "'" || source[marblesStart] == "\"" {
            let (marbles, end) = try quotedMarbles(at: marblesStart, lineEnd: lineEnd)
            return (marbleStatement(keyword, name: name, property: property, marbles: marbles), source.location(end))
        }
        let marblesEnd = marbleEnd(from: marblesStart, lineEnd: lineEnd)
        guard marblesEnd > marblesStart else {
            throw source.error("expected marbles after '\(keyword) \(written)'", at: marblesStart, hint: "for example: \(example)")
        }
        if source[marblesStart] == "=", source.character(marblesStart + 1, before: lineEnd)?.isWhitespace ?? true {
            throw source.error("unexpected '=' before the marbles", at: marblesStart,
                               hint: "write it without '=': \(keyword) \(written)  -a-b-|")
        }
        let marbles = MarbleText(text: source.text(marblesStart, marblesEnd), location: source.location(marblesStart))
        return (marbleStatement(keyword, name: name, property: property, marbles: marbles), source.location(marblesEnd))
    }

    func marbleStatement(_ keyword: String, name: Identifier, property: Identifier?, marbles: MarbleText) -> StatementKind {
        switch keyword {
        case "hot": .hot(name: name, marbles: marbles)
        case "cold": .cold(name: name, marbles: marbles)
        case "send": .send(name: name, marbles: marbles)
        case "subscribe": .subscribe(name: name, marbles: marbles)
        case "demand": .demand(name: name, marbles: marbles)
        case "connect": .connect(name: name, marbles: marbles)
        default: .expect(name: name, property: property, marbles: marbles)
        }
    }

    /// A marble string in quotes, as RxJS's tests write it (`'  ^--a--|'`): under an RxJS
    /// notation, where spaces can be frames and `//` values, what stands between the quotes is
    /// the string, every character of it. Only a comment may follow the closing quote.
    func quotedMarbles(at open: Int, lineEnd: Int) throws(SyntaxError) -> (MarbleText, Int) {
        let quote = source[open]
        var close = open + 1
        while close < lineEnd && source[close] != quote {
            if source[close] == "\\" {
                throw source.error("a quoted marble string is read as written: '\\' starts no escape here", at: close,
                                   hint: "write the character itself")
            }
            close += 1
        }
        guard close < lineEnd else {
            throw source.error("unterminated marble string: no closing \(quote)", at: open, length: lineEnd - open,
                               hint: "close it with \(quote)")
        }
        try expectLineEnd(from: close + 1, lineEnd: lineEnd, after: "the marble string")
        return (MarbleText(text: source.text(open + 1, close), location: source.location(open + 1), quote: quote), close + 1)
    }

    /// The end of the marble string starting at `start`: before a `//` comment that
    /// is not inside a `{…}` literal, with trailing whitespace trimmed.
    func marbleEnd(from start: Int, lineEnd: Int) -> Int {
        // Only ASCII characters matter here; `bytes` has 0 for any other.
        let index = source.text.bytes.withUnsafeBufferPointer { bytes in
            // Without a '/' on the line there is no comment: the usual case, found by memchr.
            guard IndexedText.firstIndex(of: UInt8(ascii: "/"), in: bytes, start..<lineEnd) != nil else { return lineEnd }
            var index = start
            var braces = 0
            var inString = false
            while index < lineEnd {
                let c = bytes[index]
                if inString {
                    if c == UInt8(ascii: "\\") {
                        index += 2
                        continue
                    }
                    if c == UInt8(ascii: "\"") { inString = false }
                } else if braces > 0 {
                    if c == UInt8(ascii: "\"") { inString = true }
                    if c == UInt8(ascii: "{") { braces += 1 }
                    if c == UInt8(ascii: "}") { braces -= 1 }
                } else if c == UInt8(ascii: "/"), index + 1 < lineEnd, bytes[index + 1] == UInt8(ascii: "/") {
                    break
                } else if c == UInt8(ascii: "{") {
                    braces = 1
                }
                index += 1
            }
            return index
        }
        var end = min(index, lineEnd)
        while end > start && source[end - 1].isWhitespace { end -= 1 }
        return end
    }

    /// `let NAME = EXPRESSION` / `subject NAME = EXPRESSION`; the expression may continue
    /// onto following lines while its brackets are open.
    func parseBinding(_ keyword: String, after wordEnd: Int, lineEnd: Int, next: inout Int) throws(SyntaxError) -> (StatementKind, SourceLocation) {
        let example = keyword == "let" ? "let doubled = numbers.map { $0 * 2 }" : "subject state = CurrentValueSubject(0)"
        let (name, nameEnd) = try readName(after: wordEnd, lineEnd: lineEnd, keyword: keyword,
                                           what: keyword == "let" ? "a name" : "a subject name", example: example)
        let equals = source.skipSpaces(from: nameEnd, to: lineEnd)
        guard equals < lineEnd, source[equals] == "=" else {
            throw source.error("expected '=' after '\(keyword) \(name.name)'", at: equals,
                               length: tokenLength(at: equals, lineEnd: lineEnd), hint: "for example: \(example)")
        }
        let start = source.skipSpaces(from: equals + 1, to: lineEnd)
        guard start < lineEnd, !source.isCommentStart(start, before: lineEnd) else {
            throw source.error("expected expression after '='", at: start)
        }
        let end = expressionExtent(from: start, indentation: indentation(ofLineAt: wordEnd))
        next = end + 1
        let value = try ExpressionParser.parse(source, from: start, to: end)
        let kind: StatementKind = keyword == "let" ? .binding(name: name, value: value) : .subject(name: name, value: value)
        return (kind, value.range.end)
    }

    /// `values A = LITERAL, B = LITERAL, …`
    func parseValues(after wordEnd: Int, lineEnd: Int, next: inout Int) throws(SyntaxError) -> (StatementKind, SourceLocation) {
        let first = source.skipSpaces(from: wordEnd, to: lineEnd)
        guard first < lineEnd, first > wordEnd, !source.isCommentStart(first, before: lineEnd) else {
            throw source.error("expected a value binding after 'values'", at: first, hint: "for example: values A = (\"a\", 1), B = 12")
        }
        let extentEnd = expressionExtent(from: first, indentation: indentation(ofLineAt: wordEnd))
        next = extentEnd + 1
        var bindings: [ValueBinding] = []
        var index = first
        while true {
            index = skipTrivia(from: index, to: extentEnd)
            guard index < extentEnd else {
                throw source.error("expected a value binding after ','", at: index)
            }
            let name = source[index]
            if MarbleFileParser.reservedValueNames.contains(name) || name == "\"" {
                throw source.error("'\(name)' cannot name a value", at: index,
                                   hint: "'-', '|', '#', '(', ')', '^', '!', '{' and '}' mean something in marbles; choose a letter or digit")
            }
            var after = index + 1
            if after < extentEnd, !source[after].isWhitespace, source[after] != "=" {
                var end = after
                while end < extentEnd && !source[end].isWhitespace && source[end] != "=" && source[end] != "," { end += 1 }
                let written = source.text(index, end)
                throw source.error("value names are one character; '\(written)' has \(end - index)", at: index, length: end - index,
                                   hint: "choose one character, such as '\(name)', or write the value inline in the marbles as {…}")
            }
            after = source.skipSpaces(from: after, to: extentEnd)
            guard after < extentEnd, source[after] == "=" else {
                throw source.error("expected '=' after value name '\(name)'", at: after,
                                   length: tokenLength(at: after, lineEnd: extentEnd), hint: "for example: values \(name) = 1")
            }
            let valueStart = source.skipSpaces(from: after + 1, to: extentEnd)
            if valueStart >= extentEnd || source[valueStart] == "," || source[valueStart].isNewline
                || source.isCommentStart(valueStart, before: extentEnd) {
                throw source.error("expected a literal after '\(name) ='", at: valueStart)
            }
            let valueEnd = topLevelComma(from: valueStart, to: extentEnd)
            let value = try ExpressionParser.parse(source, from: valueStart, to: valueEnd) { found in
                "expected ',' between value bindings, found \(found)"
            }
            if let offender = FileParser.nonLiteral(in: value) {
                throw FileParser.literalError(offender)
            }
            bindings.append(ValueBinding(name: name, nameLocation: source.location(index), value: value))
            guard valueEnd < extentEnd else { break }
            index = valueEnd + 1
        }
        return (.values(bindings), bindings.last?.value.range.end ?? source.location(first))
    }

    // MARK: Literals

    /// The first part of `expression` that is not a literal, or nil.
    static func nonLiteral(in expression: Expr) -> Expr? {
        switch expression.kind {
        case .int, .double, .bool, .nilLiteral:
            return nil
        case .string(let parts):
            for part in parts {
                if case .interpolation(let inner) = part { return inner }
            }
            return nil
        case .array(let elements):
            return elements.lazy.compactMap(nonLiteral(in:)).first
        case .tuple(let elements):
            return elements.lazy.compactMap { nonLiteral(in: $0.value) }.first
        case .unary("-", let operand):
            switch operand.kind {
            case .int, .double: return nil
            default: return expression
            }
        case .identifier(let name) where name.first?.isUppercase == true:
            // A type's name, as the base of an enum case (`APIError.offline`).
            return nil
        case .member(let base, _):
            // An enum case: `APIError.offline`, `.offline`.
            return base.flatMap(nonLiteral(in:))
        case .call(let callee, let arguments):
            // A value of the file's types: `User(name: "Ann", age: 3)`, `APIError.status(404)`, `.loaded([1])`.
            switch callee.kind {
            case .identifier(let name) where name.first?.isUppercase == true: break
            case .member: if let offender = nonLiteral(in: callee) { return offender }
            default: return expression
            }
            return arguments.lazy.compactMap { nonLiteral(in: $0.value) }.first
        default:
            return expression
        }
    }

    static func literalError(_ offender: Expr) -> SyntaxError {
        let range = offender.range
        let length = range.end.line == range.start.line ? range.end.column - range.start.column : 1
        return SyntaxError(message: "expected a literal value", location: range.start, length: length,
                           hint: "values are literals: numbers, strings, true, false, nil, arrays and tuples of them, and values of the file's types such as User(name: \"Ann\") or APIError.offline")
    }

    // MARK: Helpers

    /// A name after a statement keyword: a Swift identifier that is not an expression keyword.
    func readName(after wordEnd: Int, lineEnd: Int, keyword: String, what: String, example: String) throws(SyntaxError) -> (Identifier, Int) {
        var start = source.skipSpaces(from: wordEnd, to: lineEnd)
        // `expect $query …`: the publisher of a `@Published var query`.
        let projected = what == "a stream name" && start + 1 < lineEnd && source[start] == "$" && source[start + 1].isIdentifierStart
        if projected { start += 1 }
        guard start < lineEnd, start > wordEnd, source[start].isIdentifierStart, !source.isCommentStart(start, before: lineEnd) else {
            let hint = start < lineEnd && source[start].isNumber
                ? "names are Swift identifiers: a letter or '_' first, then letters, digits or '_'"
                : "for example: \(example)"
            throw source.error("expected \(what) after '\(keyword)'", at: start, length: tokenLength(at: start, lineEnd: lineEnd), hint: hint)
        }
        var end = start
        while end < lineEnd && source[end].isIdentifierContinue { end += 1 }
        let name = source.text(start, end)
        if expressionKeywords.contains(name) {
            throw source.error("'\(name)' is a keyword and cannot be used as a name", at: start, length: end - start)
        }
        if projected { return (Identifier(name: "$" + name, location: source.location(start - 1)), end) }
        return (Identifier(name: name, location: source.location(start)), end)
    }

    /// After a statement's last part: only whitespace or a comment may follow on the line.
    func expectLineEnd(from index: Int, lineEnd: Int, after what: String) throws(SyntaxError) {
        let rest = source.skipSpaces(from: index, to: lineEnd)
        guard rest < lineEnd, !source.isCommentStart(rest, before: lineEnd) else { return }
        let length = tokenLength(at: rest, lineEnd: lineEnd)
        throw source.error("unexpected '\(source.text(rest, rest + length))' after \(what)", at: rest, length: length)
    }

    /// The length of the whitespace-delimited word at `index` (at least 1).
    func tokenLength(at index: Int, lineEnd: Int) -> Int {
        var end = index
        while end < lineEnd && !source[end].isWhitespace { end += 1 }
        return max(1, end - index)
    }

    /// Skips whitespace (newlines included) and comments.
    func skipTrivia(from start: Int, to end: Int) -> Int {
        var index = start
        while index < end {
            if source[index].isWhitespace {
                index += 1
            } else if source.isCommentStart(index, before: end) {
                while index < end && !source[index].isNewline { index += 1 }
            } else {
                break
            }
        }
        return index
    }

    /// The index of the first `,` outside brackets, strings and comments in `start..<end`, or `end`.
    func topLevelComma(from start: Int, to end: Int) -> Int {
        var found = end
        scan(from: start, to: end) { index, depth in
            if depth == 0 && source[index] == "," {
                found = index
                return true
            }
            return false
        }
        return found
    }

    /// Where an expression starting at `start` ends: the newline at which all its
    /// brackets are closed (unless the next line starts with `.`, which continues
    /// it), or the end of the text. While brackets are open the expression runs on,
    /// except that a following line that clearly starts a statement ends it, so one
    /// unclosed bracket does not swallow the rest of the file: a statement keyword
    /// followed by a name, a quote or a digit (`expect x …`, `test "…"`), or — since
    /// closures may contain `let` — a `let NAME` indented no deeper than the
    /// statement itself (`indentation`).
    func expressionExtent(from start: Int, indentation: Int) -> Int {
        var result = source.count
        scan(from: start, to: source.count) { index, depth in
            guard source[index].isNewline else { return false }
            if depth == 0 {
                if startsWithDot(lineAt: index + 1) { return false }
                result = index
                return true
            }
            if startsStatement(lineAt: index + 1, indentation: indentation) {
                result = index
                return true
            }
            return false
        }
        return result
    }

    /// Calls `visit` with the index and nesting depth (open brackets, strings and
    /// interpolations) of every character of code in `start..<end`, that is outside
    /// string literals (interpolations are code) and comments; stops when `visit`
    /// returns true. A newline ends every string that is still open, since string
    /// literals are single-line.
    func scan(from start: Int, to end: Int, _ visit: (Int, Int) -> Bool) {
        enum Open: Equatable { case bracket(Character), string, interpolation }
        var stack: [Open] = []
        var firstString: Int?  // index in `stack` of the outermost open string
        var index = start
        while index < end {
            let c = source[index]
            if c.isNewline, let outer = firstString {
                stack.removeSubrange(outer...)
                firstString = nil
            }
            if stack.last == .string {
                if c == "\\" {
                    if source.character(index + 1, before: end) == "(" {
                        stack.append(.interpolation)
                        index += 2
                    } else if let escaped = source.character(index + 1, before: end), !escaped.isNewline {
                        index += 2
                    } else {
                        index += 1
                    }
                    continue
                }
                if c == "\"" {
                    stack.removeLast()
                    if firstString == stack.count { firstString = nil }
                }
                index += 1
                continue
            }
            if source.isCommentStart(index, before: end) {
                while index < end && !source[index].isNewline { index += 1 }
                continue
            }
            if c == "/" && source.character(index + 1, before: end) == "*" {
                index += 2
                while index < end && !(source[index] == "*" && source.character(index + 1, before: end) == "/") { index += 1 }
                index += 2
                continue
            }
            if visit(index, stack.count) { return }
            switch c {
            case "\"":
                if firstString == nil { firstString = stack.count }
                stack.append(.string)
            case "(", "[", "{":
                stack.append(.bracket(c))
            case ")", "]", "}":
                let opener: Character = c == ")" ? "(" : c == "]" ? "[" : "{"
                if c == ")" && stack.last == .interpolation {
                    stack.removeLast()
                } else if stack.last == .bracket(opener) {
                    stack.removeLast()
                }
                // A mismatched closer, as in `f(x]`, is left for the parser to report.
            default:
                break
            }
            index += 1
        }
    }

    /// True when the line starting at `index` begins (after indentation) with a single `.`.
    func startsWithDot(lineAt index: Int) -> Bool {
        let lineEnd = source.endOfLine(from: index)
        let first = source.skipSpaces(from: index, to: lineEnd)
        return source.character(first, before: lineEnd) == "." && source.character(first + 1, before: lineEnd) != "."
    }

    /// The number of whitespace characters before the first other character of the line containing `index`.
    func indentation(ofLineAt index: Int) -> Int {
        var lineStart = min(index, source.count)
        while lineStart > 0 && !source[lineStart - 1].isNewline { lineStart -= 1 }
        return source.skipSpaces(from: lineStart, to: source.count) - lineStart
    }

    /// True when the line starting at `index` clearly starts a statement (see `expressionExtent`).
    func startsStatement(lineAt index: Int, indentation: Int) -> Bool {
        let lineEnd = source.endOfLine(from: index)
        let first = source.skipSpaces(from: index, to: lineEnd)
        var end = first
        while end < lineEnd && source[end].isIdentifierContinue { end += 1 }
        let word = source.text(first, end)
        guard MarbleFileParser.statementKeywords.contains(word) || ExpressionParser.declarationKeywords.contains(word) else { return false }
        // A `let` or a declaration indented under the line is part of it (a closure's `let`, a
        // struct's `func`).
        if (word == "let" || ExpressionParser.declarationKeywords.contains(word)) && first - index > indentation { return false }
        let after = source.skipSpaces(from: end, to: lineEnd)
        // `indirect case` is a member of an enum body; `indirect enum` starts a declaration.
        if word == "indirect" {
            var wordEnd = after
            while wordEnd < lineEnd && source[wordEnd].isIdentifierContinue { wordEnd += 1 }
            return source.text(after, wordEnd) == "enum"
        }
        guard after > end, let next = source.character(after, before: lineEnd) else { return false }
        return next.isIdentifierStart || next == "\"" || next.isASCIIDigit
    }
}
