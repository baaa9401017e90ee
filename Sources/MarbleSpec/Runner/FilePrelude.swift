import MarbleSyntax

/// What the lines before a file's first test give its tests — `frame`, `values` and the type
/// declarations — checked once on their own, and what a mistake among them costs.
///
/// A declaration or `values` line with a mistake (it did not parse, or checking it found one)
/// costs the tests that use it: a test whose lines name what it declares (a type, an extension's
/// member, a value name in a marble) reports the mistake as its own and does not run; so does a
/// test that uses a declaration that uses it. The other tests are prepared without it (and
/// without what uses it), and run. A mistake no test uses is the file's own, and voids nothing.
/// A mistake in the file's `frame` (or `notation`) voids the file: every test uses it.
///
/// "Names" is read from the text, so it errs on the side of cost: a test that mentions a broken
/// type's name in a comment or a string does not run either.
struct FilePrelude {
    /// The file-level statements every test is prepared with: all but the broken ones and those using them.
    let statements: [Statement]
    /// Mistakes that void the file.
    let fileErrors: [FileDiagnostic]
    /// The statements with a mistake, or that use one, and what a test that uses each reports.
    private let broken: [Broken]
    /// The mistakes among the prelude's statements (roots of `broken`'s diagnostics), by index.
    private let mistakes: [[FileDiagnostic]]

    private struct Broken {
        /// What a test must name to use the statement.
        var names: Set<String>
        /// Indexes into `mistakes`: the mistakes the statement is, or uses.
        var mistakes: Set<Int>
    }

    private init(statements: [Statement], fileErrors: [FileDiagnostic], broken: [Broken], mistakes: [[FileDiagnostic]]) {
        self.statements = statements
        self.fileErrors = fileErrors
        self.broken = broken
        self.mistakes = mistakes
    }

    /// Checks `file`'s statements before its first test (and those that did not parse) on their own.
    init(_ file: MarbleFileSyntax, path: String, lines: LineTable, options: RunOptions) {
        guard file.unparsed.isEmpty, file.statements.allSatisfy(\.isForEveryTest) else {
            self.init(checking: file, path: path, lines: lines, options: options)
            return
        }
        // Only `frame` and `notation` lines (the common case): checked without a probe.
        var errors: [FileDiagnostic] = []
        for statement in file.statements {
            if case .frame(let duration) = statement.kind { errors += TestSession.frameLength(duration, path: path, lines: lines, current: 1_000_000).1 }
        }
        self.init(statements: file.statements, fileErrors: errors, broken: [], mistakes: [])
    }

    /// Checks file-level statements that declare something.
    private init(checking file: MarbleFileSyntax, path: String, lines: LineTable, options: RunOptions) {
        struct Node {
            var lines: ClosedRange<Int>
            var names: Set<String>
            var words: Set<String>
            var diagnostics: [FileDiagnostic] = []
            /// Into `file.statements`; nil for one that did not parse.
            var statement: Int?
        }
        let typeNames = Set(file.statements.compactMap { statement -> String? in
            guard case .declaration(let declaration) = statement.kind, declaration.keyword != "extension" else { return nil }
            return declaration.name.name
        })
        var nodes: [Node] = []
        for (index, statement) in file.statements.enumerated() {
            let span = statement.range.start.line...max(statement.range.start.line, statement.range.end.line)
            // Every test uses these: a mistake in one is the file's (below).
            if statement.isForEveryTest { continue }
            nodes.append(Node(lines: span, names: Self.declaredNames(of: statement, typeNames: typeNames, lines: lines),
                              words: SourceWords.words(in: span, of: lines), statement: index))
        }
        for unparsed in file.unparsed {
            let span = unparsed.range.start.line...max(unparsed.range.start.line, unparsed.range.end.line)
            var names = Self.declaredNames(of: unparsed, lines: lines)
            if unparsed.keyword == "extension", let extended = unparsed.name?.name, typeNames.contains(extended) { names.insert(extended) }
            nodes.append(Node(lines: span, names: names, words: SourceWords.words(in: span, of: lines),
                              diagnostics: [FileDiagnostic(unparsed.error, path: path, lines: lines)], statement: nil))
        }
        // Which statements use which: a statement whose words name another's names.
        let uses = nodes.indices.map { index in
            nodes.indices.filter { other in other != index && !nodes[other].names.isDisjoint(with: nodes[index].words) }
        }
        /// Each statement's mistakes and those of what it uses, directly or not (indexes into `nodes`).
        func reached(from index: Int) -> Set<Int> {
            var reached: Set<Int> = [index]
            var stack = [index]
            while let next = stack.popLast() {
                for used in uses[next] where reached.insert(used).inserted { stack.append(used) }
            }
            return reached.filter { !nodes[$0].diagnostics.isEmpty }
        }

        // Checked as a test with no lines of its own would see them; again without what was found
        // broken (checking stops at the first kind of mistake), until nothing new is.
        var fileErrors: [FileDiagnostic] = []
        var unusable: Set<Int> = []
        while true {
            let probe = TestSession(TestSyntax(name: "", location: SourceLocation(line: 1, column: 1)), path: path, lines: lines,
                                    fileStatements: file.statements.enumerated().filter { !unusable.contains($0.offset) }.map(\.element),
                                    options: options)
            let found = probe.diagnostics
            probe.tearDown()
            // What a statement left out would have declared is missing: what reports it missing
            // follows from that statement's mistake.
            let missing = Set(nodes.filter { $0.statement.map(unusable.contains) ?? true }.flatMap(\.names))
            var grew = false
            for diagnostic in found where !missing.contains(Self.pointedName(diagnostic)) {
                if let node = nodes.firstIndex(where: { $0.lines.contains(diagnostic.line) }) {
                    nodes[node].diagnostics.append(diagnostic)
                    grew = true
                } else {
                    // In the file's frame, or (none is known) outside every statement: the file's.
                    fileErrors.append(diagnostic)
                }
            }
            let before = unusable.count
            for index in nodes.indices where !reached(from: index).isEmpty {
                if let statement = nodes[index].statement { unusable.insert(statement) }
            }
            guard fileErrors.isEmpty, grew, unusable.count > before else { break }
        }

        var mistakes: [[FileDiagnostic]] = []
        var mistakeOf: [Int: Int] = [:]
        for (index, node) in nodes.enumerated() where !node.diagnostics.isEmpty {
            mistakeOf[index] = mistakes.count
            mistakes.append(node.diagnostics)
        }
        let broken = nodes.indices.compactMap { index -> Broken? in
            let roots = Set(reached(from: index).compactMap { mistakeOf[$0] })
            return roots.isEmpty ? nil : Broken(names: nodes[index].names, mistakes: roots)
        }
        self.init(statements: file.statements.enumerated().filter { !unusable.contains($0.offset) }.map(\.element),
                  fileErrors: fileErrors, broken: broken, mistakes: mistakes)
    }

    /// Whether any file-level statement has a mistake.
    var hasMistakes: Bool { !mistakes.isEmpty }

    /// The mistakes a test uses (indexes, for `unusedMistakes`), found from the words of its lines.
    func mistakes(usedBy test: TestSyntax, lines: LineTable) -> Set<Int> {
        guard !broken.isEmpty else { return [] }
        let words = SourceWords.words(of: test, in: lines)
        return broken.reduce(into: Set<Int>()) { used, statement in
            if !statement.names.isDisjoint(with: words) { used.formUnion(statement.mistakes) }
        }
    }

    /// The diagnostics of the mistakes `used`, in line order.
    func diagnostics(_ used: Set<Int>) -> [FileDiagnostic] {
        used.sorted().flatMap { mistakes[$0] }.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// The mistakes no test uses: the file's own.
    func unusedMistakes(used: Set<Int>) -> [FileDiagnostic] {
        diagnostics(Set(mistakes.indices).subtracting(used))
    }

    /// The name a diagnostic points at: the identifier (`$name` too) that starts at its column.
    static func pointedName(_ diagnostic: FileDiagnostic) -> String {
        let line = Array(diagnostic.lineText)
        var index = diagnostic.column - 1
        guard index >= 0, index < line.count else { return "" }
        var name = ""
        if line[index] == "$" {
            name.append("$")
            index += 1
        }
        while index < line.count, line[index] == "_" || line[index].isLetter || line[index].isNumber {
            name.append(line[index])
            index += 1
        }
        return name
    }

    /// What a test names to use a file-level statement: a type's name; an extension's members
    /// (and the extended type, when the file declares it); a `values` line's value names.
    private static func declaredNames(of statement: Statement, typeNames: Set<String>, lines: LineTable) -> Set<String> {
        switch statement.kind {
        case .values(let bindings):
            return Set(bindings.map { String($0.name) })
        case .declaration(let declaration) where declaration.keyword == "extension":
            let span = statement.range.start.line...max(statement.range.start.line, statement.range.end.line)
            var names = SourceWords.members(in: span, of: lines)
            if typeNames.contains(declaration.name.name) { names.insert(declaration.name.name) }
            return names
        case .declaration(let declaration):
            return [declaration.name.name]
        default:
            return []
        }
    }

    /// What a line that did not parse would have defined, read from its text: a type's name, an
    /// extension's members, a `values` line's value names, a stream's name (`$NAME` too for
    /// `@Published var NAME`).
    static func declaredNames(of unparsed: UnparsedStatement, lines: LineTable) -> Set<String> {
        let span = unparsed.range.start.line...max(unparsed.range.start.line, unparsed.range.end.line)
        switch unparsed.keyword {
        case "values": return SourceWords.valueNames(in: span, of: lines)
        case "extension": return SourceWords.members(in: span, of: lines)
        case "test", "frame", "send", "subscribe", "demand", "connect", "expect": return []
        case "@Published": return unparsed.name.map { [$0.name, AppIdioms.publisherName($0.name)] } ?? []
        default: return unparsed.name.map { [$0.name] } ?? []
        }
    }
}

extension Statement {
    /// A `frame` or `notation` line, which says how every test of the file reads.
    var isForEveryTest: Bool {
        switch kind {
        case .frame, .notation: true
        default: false
        }
    }
}

/// The words of source lines, for telling which statements a test uses.
enum SourceWords {
    /// Every identifier in lines `span` (strings and comments included: a mention there counts).
    static func words(in span: ClosedRange<Int>, of lines: LineTable) -> Set<String> {
        var words: Set<String> = []
        for number in span { scan(lines.line(number)) { words.insert($0) } }
        return words
    }

    /// The words of a test's lines, and each character of its marbles (a value name is one).
    static func words(of test: TestSyntax, in lines: LineTable) -> Set<String> {
        let last = max(test.statements.map(\.range.end.line).max() ?? test.location.line,
                       test.unparsed.map(\.range.end.line).max() ?? test.location.line)
        var words = words(in: test.location.line...max(test.location.line, last), of: lines)
        for statement in test.statements {
            switch statement.kind {
            case .hot(_, let marbles), .cold(_, let marbles), .send(_, let marbles), .subscribe(_, let marbles),
                 .demand(_, let marbles), .connect(_, let marbles), .expect(_, _, let marbles):
                for character in marbles.text where !character.isWhitespace { words.insert(String(character)) }
            default:
                break
            }
        }
        return words
    }

    /// The names an extension's text declares at the top of its body: each word after `var`,
    /// `let`, `func`, `case`, `struct`, `enum` or `typealias` at brace depth 1.
    static func members(in span: ClosedRange<Int>, of lines: LineTable) -> Set<String> {
        let introducers: Set<String> = ["var", "let", "func", "case", "struct", "enum", "typealias", "class"]
        var names: Set<String> = []
        var depth = 0
        var previous: String?
        for number in span {
            var word = ""
            func endWord() {
                guard !word.isEmpty else { return }
                if depth == 1, let previous, introducers.contains(previous) { names.insert(word) }
                previous = word
                word = ""
            }
            for character in lines.line(number) {
                if character == "_" || character.isLetter || (character.isNumber && !word.isEmpty) {
                    word.append(character)
                    continue
                }
                endWord()
                if character == "{" { depth += 1 } else if character == "}" { depth -= 1 }
                if !character.isWhitespace { previous = nil }
            }
            endWord()
        }
        return names
    }

    /// The value names of a `values` line that did not parse: each character before an `=` that
    /// starts the line (after `values`) or follows a comma outside brackets.
    static func valueNames(in span: ClosedRange<Int>, of lines: LineTable) -> Set<String> {
        var text = Substring(span.map { lines.line($0) }.joined(separator: "\n"))
        text = text.drop { $0.isWhitespace }.dropFirst("values".count)
        var names: Set<String> = []
        var depth = 0
        var segmentStart = true
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if segmentStart, !character.isWhitespace {
                segmentStart = false
                let after = text[text.index(after: index)...].drop { $0 == " " || $0 == "\t" }
                if after.first == "=" { names.insert(String(character)) }
            }
            switch character {
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth -= 1
            case "," where depth == 0: segmentStart = true
            default: break
            }
            index = text.index(after: index)
        }
        return names
    }

    private static func scan(_ line: String, _ found: (String) -> Void) {
        var word = ""
        for character in line {
            if character == "_" || character.isLetter || (character.isNumber && !word.isEmpty) {
                word.append(character)
            } else if !word.isEmpty {
                found(word)
                word = ""
            }
        }
        if !word.isEmpty { found(word) }
    }
}

extension FileDiagnostic {
    /// A syntax error as a diagnostic of `path`.
    init(_ error: SyntaxError, path: String, lines: LineTable) {
        self.init(path: path, line: error.location.line, column: error.location.column, length: error.length,
                  message: error.message, hint: error.hint, lineText: lines.line(error.location.line))
    }
}
