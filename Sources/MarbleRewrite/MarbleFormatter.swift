import MarbleNotation
import MarbleSyntax

/// The text rewriting behind `marbles fmt`: lays out each test so that equal frames stand in
/// the same column on every marble line, and normalises spacing.
///
/// In each test:
/// - statements are indented by two spaces (file-level statements and `test` lines by none);
/// - the keywords of `hot`, `cold`, `send`, `subject`, `let`, `subscribe`, `demand`, `connect`
///   and `expect` lines are padded to the longest of them;
/// - names are padded to the longest one, and the marbles and the expressions of `let` and
///   `subject` lines (after ` = `) start three columns after it — further right for the
///   marbles only when an `expect NAME.subscriptions` label needs the room;
/// - tokens that happen at the same frame start in the same column across the lines (a wide
///   token such as `{42}` pushes that frame's column right on every line, the others padding
///   with spaces, which mean nothing in the notation); spaces inside marbles are otherwise
///   removed, except around time progressions, which must stand apart;
/// - a trailing comment keeps its distance from the code; trailing spaces go.
/// Continuation lines of multi-line expressions, comment lines and `values`/`frame` lines
/// (beyond their indentation) are left alone. A file with any syntax error is not touched. Every
/// result is parsed again and compared, statement by statement, with the original — the events
/// of every marble line and the text of every expression — and one that would say something
/// else is refused.
public enum MarbleFormatter {
    /// 1-based numbers of the lines that differ (by position; fmt never adds or removes lines).
    public static func changedLines(_ old: String, _ new: String) -> [Int] {
        let before = SourceLines(old).lines
        let after = SourceLines(new).lines
        return (0..<max(before.count, after.count)).filter { index in
            !(before.indices.contains(index) && after.indices.contains(index) && before[index] == after[index])
        }.map { $0 + 1 }
    }

    /// Why a file cannot be formatted.
    public struct Problem: Error, Equatable {
        public var message: String
        /// Where in the file, for a mistake the parsers found (a file that fmt would change
        /// in meaning has no single place).
        public var place: Place?

        /// A place in the file (1-based line and column, `length` characters), with the parser's hint.
        public struct Place: Equatable, Sendable {
            public var line: Int
            public var column: Int
            public var length: Int
            public var hint: String?
        }
    }

    /// Why a marble line does not parse, where, as the notation's parser says (`run` says the same).
    private static func marbleProblem(_ marbles: MarbleText, kind: MarbleLineKind, frameNanoseconds: Int64, dialect: MarbleDialect) -> Problem {
        do {
            _ = try MarbleParser(frameNanoseconds: frameNanoseconds, dialect: dialect).parse(marbles.text, as: kind)
        } catch {
            return Problem(message: error.message, place: .init(line: marbles.location.line, column: marbles.location.column + error.offset,
                                                                length: error.length, hint: error.hint))
        }
        return Problem(message: "the marbles do not parse", place: .init(line: marbles.location.line, column: marbles.location.column, length: 1))
    }

    /// The formatted text, or why the file cannot be formatted. The file is parsed test by test
    /// and each test laid out as it comes, its syntax then let go: a file of a million tests is
    /// never held as a million syntax trees.
    public static func format(_ source: String) -> Result<String, Problem> {
        let original = SourceLines(source)
        var lines = original
        var firstTestLine = Int.max
        // Statement lines inside tests and everything outside them: indentation.
        var statementLines: Set<Int> = []
        var continuation: Set<Int> = []
        var testLines: Set<Int> = []
        func note(_ statements: [Statement]) {
            for statement in statements {
                statementLines.insert(statement.range.start.line)
                if statement.range.end.line > statement.range.start.line {
                    continuation.formUnion((statement.range.start.line + 1)...statement.range.end.line)
                }
            }
        }
        // The lines a test's layout rebuilt from the original, whole: indentation leaves them be.
        var laidOut: Set<Int> = []
        var layoutProblem: Problem?
        let (file, errors) = MarbleFileParser.parse(source) { fileStatements, test in
            firstTestLine = min(firstTestLine, test.location.line)
            testLines.insert(test.location.line)
            note(test.statements)
            guard layoutProblem == nil else { return }
            switch layout(test, file: MarbleFileSyntax(statements: fileStatements), original: original, lines: &lines) {
            case .success(let rebuilt): laidOut.formUnion(rebuilt)
            case .failure(let problem): layoutProblem = problem
            }
        }
        if let error = errors.first {
            return .failure(Problem(message: error.message,
                                    place: .init(line: error.location.line, column: error.location.column, length: error.length, hint: error.hint)))
        }
        if let layoutProblem { return .failure(layoutProblem) }
        note(file.statements)
        statementLines.formUnion(testLines)
        // Slices of the original text: a line is copied only when it changes.
        for number in 1...lines.lines.count where !laidOut.contains(number) {
            var content = lines.lines[number - 1].characters
            if !continuation.contains(number) {
                while let last = content.last, last == " " || last == "\t" { content = content.dropLast() }
            }
            if statementLines.contains(number) {
                let isTestLine = testLines.contains(number)
                let indent = number < firstTestLine || isTestLine ? "" : "  "
                let body = content.drop { $0 == " " || $0 == "\t" }
                if content[..<body.startIndex] != indent { content = indent.isEmpty ? body : Substring(indent + body) }
            }
            lines.lines[number - 1].characters = content
        }
        let formatted = lines.text
        if let problem = sameMeaning(source, formatted) { return .failure(problem) }
        return .success(formatted)
    }

    private struct MarbleLine {
        var line: Int
        var prefix: String
        var tokens: [MarbleToken]
        /// Under an RxJS notation: the marble string as written (quotes included) and the column it
        /// started at. Spaces in it can be frames, or move frame 0: it is moved whole, never respaced.
        var verbatim: (text: String, column: Int)?
        var suffix: String
        /// `expect NAME.subscriptions` / `.requests`.
        var hasProperty: Bool
    }

    /// Rebuilds one test's aligned lines from their original text; the numbers of those lines.
    @discardableResult
    private static func layout(_ test: TestSyntax, file: MarbleFileSyntax, original: SourceLines, lines: inout SourceLines) -> Result<[Int], Problem> {
        let frameNanoseconds = MarbleColumns.frameNanoseconds(file: file, test: test)
        let dialect = file.dialect
        let aligned = test.statements.filter { statement in
            switch statement.kind {
            case .hot, .cold, .send, .subject, .binding, .subscribe, .demand, .connect, .expect: return true
            default: return false
            }
        }
        guard !aligned.isEmpty else { return .success([]) }
        let keywordWidth = aligned.map(\.kind.keyword.count).max() ?? 0
        func head(_ statement: Statement, _ name: String) -> String {
            "  " + statement.kind.keyword + String(repeating: " ", count: keywordWidth - statement.kind.keyword.count) + " " + name
        }

        var marbleLines: [MarbleLine] = []
        var bindings: [(line: Int, head: String, rest: String)] = []
        for statement in aligned {
            let number = statement.range.start.line
            guard let content = original[number]?.content else { continue }
            if let (kind, marbles) = MarbleColumns.marbles(of: statement) {
                guard marbles.location.line == number,
                      MarbleColumns.meaning(marbles.text, kind: kind, frameNanoseconds: frameNanoseconds, dialect: dialect) != nil,
                      let tokens = dialect == .native ? MarbleColumns.tokens(marbles.text, kind: kind, frameNanoseconds: frameNanoseconds) : [] else {
                    return .failure(marbleProblem(marbles, kind: kind, frameNanoseconds: frameNanoseconds, dialect: dialect))
                }
                let region = MarbleColumns.region(marbles)
                let (start, end) = (region.lowerBound, region.upperBound)
                guard start >= 0, end <= content.count else { continue }
                var name = ""
                switch statement.kind {
                case .hot(let identifier, _), .cold(let identifier, _), .send(let identifier, _), .subscribe(let identifier, _),
                     .demand(let identifier, _), .connect(let identifier, _):
                    name = identifier.name
                case .expect(let identifier, let property, _):
                    name = identifier.name + (property.map { "." + $0.name } ?? "")
                default: break
                }
                marbleLines.append(MarbleLine(line: number, prefix: head(statement, name), tokens: tokens,
                                              verbatim: dialect == .native ? nil : (String(content[start..<end]), start),
                                              suffix: comment(after: Array(content[end...])), hasProperty: name.contains(".")))
            } else {
                let (name, value): (Identifier, Expr)
                switch statement.kind {
                case .binding(let identifier, let expression), .subject(let identifier, let expression): (name, value) = (identifier, expression)
                default: continue
                }
                guard value.range.start.line == number, name.location.line == number else { continue }
                // Between the name and the expression there must be only `=` and spaces.
                let nameEnd = name.location.column - 1 + name.name.count
                let expressionStart = value.range.start.column - 1
                guard nameEnd <= expressionStart, expressionStart < content.count,
                      String(content[nameEnd..<expressionStart]).filter({ $0 != " " && $0 != "\t" }) == "=" else { continue }
                let rest = String(content[expressionStart...])
                bindings.append((number, head(statement, name.name), rest))
            }
        }

        // Names padded to the longest (of streams, not of `.subscriptions` labels); marbles and
        // expressions three columns after it, room for ` = `; further right only if a label needs it.
        let nameColumn = 2 + keywordWidth + 1
        let nameWidth = (marbleLines.filter { !$0.hasProperty }.map { $0.prefix.count - nameColumn } + bindings.map { $0.head.count - nameColumn }).max() ?? 0
        let expressionColumn = nameColumn + nameWidth + 3
        let start = max(expressionColumn, marbleLines.map { $0.prefix.count + 1 }.max() ?? 0)
        var rebuilt: [Int] = []
        if dialect != .native {
            // The strings keep their places relative to each other, the leftmost at `start`.
            let leftmost = marbleLines.compactMap { $0.verbatim?.column }.min() ?? 0
            for line in marbleLines {
                guard let verbatim = line.verbatim else { continue }
                let column = start + verbatim.column - leftmost
                lines.lines[line.line - 1].characters = Substring(line.prefix + String(repeating: " ", count: max(1, column - line.prefix.count)) + verbatim.text + line.suffix)
                rebuilt.append(line.line)
            }
        }
        let columns = MarbleColumns.align(marbleLines.map(\.tokens), starts: Array(repeating: start, count: marbleLines.count))
        for (line, tokenColumns) in zip(marbleLines, columns) where line.verbatim == nil {
            let first = tokenColumns.first ?? start
            let text = line.prefix + String(repeating: " ", count: max(1, first - line.prefix.count))
                + MarbleColumns.render(line.tokens, columns: tokenColumns, start: first) + line.suffix
            lines.lines[line.line - 1].characters = Substring(text)
            rebuilt.append(line.line)
        }
        for binding in bindings {
            let padding = expressionColumn - 2 - binding.head.count
            lines.lines[binding.line - 1].characters = Substring(binding.head + String(repeating: " ", count: padding) + "= " + binding.rest)
            rebuilt.append(binding.line)
        }
        return .success(rebuilt)
    }

    /// What follows the marbles: a comment keeps its distance (at least one space); spaces alone go.
    private static func comment(after characters: [Character]) -> String {
        let gap = characters.prefix { $0 == " " || $0 == "\t" }.count
        let rest = characters.dropFirst(gap)
        guard !rest.isEmpty else { return "" }
        return String(repeating: " ", count: max(1, gap)) + String(rest)
    }

    /// Nil when `new` says what `old` says: the same tests and statements, every marble line
    /// with the same events over the same frames, every expression with the same text. Both are
    /// parsed test by test: only `old`'s signatures are kept, each until `new`'s test is compared.
    public static func sameMeaning(_ old: String, _ new: String) -> Problem? {
        // Split once: per test, a file of a million tests would be split a million times.
        let (oldLines, newLines) = (SourceLines(old), SourceLines(new))
        var oldTests: [(name: String, line: Int, statementLines: [Int], signatures: [String])] = []
        let (before, beforeErrors) = MarbleFileParser.parse(old) { fileStatements, test in
            let frame = MarbleColumns.frameNanoseconds(file: MarbleFileSyntax(statements: fileStatements), test: test)
            oldTests.append((test.name, test.location.line, test.statements.map(\.range.start.line),
                             signatures(test.statements, oldLines, frameNanoseconds: frame, dialect: MarbleFileSyntax.dialect(of: fileStatements))))
        }
        var index = 0
        var sameNames = true
        var firstChange: Problem?
        let (after, afterErrors) = MarbleFileParser.parse(new) { fileStatements, test in
            defer { index += 1 }
            guard index < oldTests.count, oldTests[index].name == test.name else {
                sameNames = false
                return
            }
            let oldTest = oldTests[index]
            oldTests[index].signatures = []
            guard firstChange == nil else { return }
            let frame = MarbleColumns.frameNanoseconds(file: MarbleFileSyntax(statements: fileStatements), test: test)
            let newSignatures = signatures(test.statements, newLines, frameNanoseconds: frame, dialect: MarbleFileSyntax.dialect(of: fileStatements))
            if let changed = zip(oldTest.signatures, newSignatures).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
                ?? (oldTest.signatures.count == newSignatures.count ? nil : min(oldTest.signatures.count, newSignatures.count)) {
                let line = oldTest.statementLines.indices.contains(changed) ? oldTest.statementLines[changed] : oldTest.line
                firstChange = Problem(message: "formatting would change the meaning of line \(line)")
            }
        }
        guard beforeErrors.isEmpty, afterErrors.isEmpty else { return Problem(message: "the formatted file would not parse") }
        guard sameNames, index == oldTests.count,
              signatures(before.statements, oldLines, frameNanoseconds: 1_000_000) == signatures(after.statements, newLines, frameNanoseconds: 1_000_000) else {
            return Problem(message: "formatting would change the file's meaning")
        }
        return firstChange
    }

    /// What a statement means, independent of spacing outside expressions.
    private static func signatures(_ statements: [Statement], _ lines: SourceLines, frameNanoseconds: Int64, dialect: MarbleDialect = .native) -> [String] {
        func text(from start: SourceLocation, to end: SourceLocation) -> String {
            var pieces: [String] = []
            for number in start.line...max(start.line, end.line) {
                guard let content = lines[number]?.content else { continue }
                let from = number == start.line ? max(0, start.column - 1) : 0
                let to = number == end.line ? min(content.count, max(from, end.column - 1)) : content.count
                pieces.append(from < to ? String(content[from..<to]) : "")
            }
            return pieces.joined(separator: "\n")
        }
        return statements.map { statement in
            let keyword = statement.kind.keyword
            if let (kind, marbles) = MarbleColumns.marbles(of: statement) {
                let meaning = MarbleColumns.meaning(marbles.text, kind: kind, frameNanoseconds: frameNanoseconds, dialect: dialect)
                let events = meaning.map { m in m.events.map { "\($0.frame):\($0.text)" }.joined(separator: ",") + " [\(m.firstFrame),\(m.endFrame))" } ?? "?"
                var name = ""
                switch statement.kind {
                case .hot(let id, _), .cold(let id, _), .send(let id, _), .subscribe(let id, _), .demand(let id, _), .connect(let id, _): name = id.name
                case .expect(let id, let property, _): name = id.name + (property.map { "." + $0.name } ?? "")
                default: break
                }
                return "\(keyword) \(name) \(events)"
            }
            switch statement.kind {
            case .binding(let name, let value), .subject(let name, let value):
                return "\(keyword) \(name.name) = " + text(from: value.range.start, to: statement.range.end)
            default:
                return text(from: statement.location, to: statement.range.end)
            }
        }
    }
}
