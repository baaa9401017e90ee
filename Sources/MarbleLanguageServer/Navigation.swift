import MarbleSyntax

/// What the server reads of a document's syntax: the word under the cursor, the test a line is
/// in, where streams and types are declared. Parsed by `MarbleFileParser` (the runner's parser),
/// which keeps every statement that parses even when others do not.
struct DocumentSyntax {
    let text: DocumentText
    let file: MarbleFileSyntax

    init(_ text: DocumentText) {
        self.text = text
        file = MarbleFileParser.parse(text.text).file
    }

    /// A word of the source: an identifier (letters, digits, `_`) and where it is.
    struct Word: Equatable {
        var text: String
        var line: Int
        /// The column of its first character.
        var column: Int
        /// The character just before it ("." for a member), if any.
        var before: Character?
    }

    /// The project's text of `line` (1-based), split into characters.
    func characters(ofLine line: Int) -> [Character] {
        let start = text.position(line: line, column: 1)
        let end = text.position(line: line, column: Int.max / 2)
        return Array(text.text(in: Range(start: start, end: end)))
    }

    static func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }

    /// The identifier at (or just before) an LSP position.
    func word(at position: Position) -> Word? {
        let (line, column) = text.projectLocation(of: position)
        let characters = characters(ofLine: line)
        var index = min(column - 1, characters.count)
        if index == characters.count || !Self.isWordCharacter(characters[index]) {
            // Just after a word counts as on it.
            guard index > 0, Self.isWordCharacter(characters[index - 1]) else { return nil }
            index -= 1
        }
        var start = index
        while start > 0, Self.isWordCharacter(characters[start - 1]) { start -= 1 }
        var end = index
        while end < characters.count, Self.isWordCharacter(characters[end]) { end += 1 }
        return Word(text: String(characters[start..<end]), line: line, column: start + 1, before: start > 0 ? characters[start - 1] : nil)
    }

    /// The test whose lines hold `line`, if any (a test runs to the next one).
    func test(atLine line: Int) -> TestSyntax? {
        file.tests.last { $0.location.line <= line }
    }

    /// The names a test declares as streams, each with where its name is written.
    static func streams(of statements: [Statement]) -> [Identifier] {
        statements.compactMap { statement in
            switch statement.kind {
            case .hot(let name, _), .cold(let name, _), .subject(let name, _), .binding(let name, _), .published(let name, _, _):
                return name
            default:
                return nil
            }
        }
    }

    /// The streams of `test`, in order, each once (a `cold` source written on several lines is
    /// declared by its first).
    func streams(of test: TestSyntax) -> [Identifier] {
        var seen: Set<String> = []
        return Self.streams(of: test.statements).filter { seen.insert($0.name).inserted }
    }

    /// The types (and functions) declared in the file and in `test`, nested ones by their own
    /// name, each with where its name is written.
    func declarations(visibleIn test: TestSyntax?) -> [TypeDeclaration] {
        func all(_ statements: [Statement]) -> [TypeDeclaration] {
            statements.flatMap { statement -> [TypeDeclaration] in
                guard case .declaration(let declaration) = statement.kind else { return [] }
                return flatten(declaration)
            }
        }
        func flatten(_ declaration: TypeDeclaration) -> [TypeDeclaration] { [declaration] + declaration.nested.flatMap(flatten) }
        return all(file.statements) + (test.map { all($0.statements) } ?? [])
    }

    /// The `values` bindings in force in `test`: the file's, then the test's.
    func valueBindings(in test: TestSyntax?) -> [ValueBinding] {
        func values(_ statements: [Statement]) -> [ValueBinding] {
            statements.flatMap { statement -> [ValueBinding] in
                if case .values(let bindings) = statement.kind { return bindings }
                return []
            }
        }
        return values(file.statements) + (test.map { values($0.statements) } ?? [])
    }

    /// The source text of an expression, as written.
    func source(of expression: Expr) -> String {
        text.text(in: Range(start: text.position(line: expression.range.start.line, column: expression.range.start.column),
                            end: text.position(line: expression.range.end.line, column: expression.range.end.column)))
    }

    /// The keywords whose line holds marbles after a name.
    static let marbleKeywords: Set<String> = ["hot", "cold", "send", "expect", "subscribe", "demand", "connect"]

    /// Whether an LSP position is inside the marbles of a marble line (after `KEYWORD NAME`).
    func isInMarbles(_ position: Position) -> Bool {
        let (line, column) = text.projectLocation(of: position)
        let characters = characters(ofLine: line)
        var index = 0
        func skipSpaces() { while index < characters.count, characters[index] == " " || characters[index] == "\t" { index += 1 } }
        func word() -> String {
            let start = index
            while index < characters.count, !(characters[index] == " " || characters[index] == "\t") { index += 1 }
            return String(characters[start..<index])
        }
        skipSpaces()
        guard Self.marbleKeywords.contains(word()) else { return false }
        skipSpaces()
        guard !word().isEmpty, index < characters.count else { return false }
        return column - 1 > index
    }
}
