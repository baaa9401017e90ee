import Foundation
import Testing

/// The TextMate grammar of `.marble` (editors/vscode/syntaxes/marble.tmLanguage.json) and the
/// VS Code folder around it, read by `Tokenizer` (TextMateTokenizer.swift): every `.marble` file
/// of the repository and every `marble` block of its documents tokenizes without an `invalid`
/// scope, and the parts of a file get the scopes editors colour them by.
@Suite("the .marble TextMate grammar")
struct MarbleGrammarTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let vscode = root.appendingPathComponent("editors/vscode")

    static func grammar() throws -> Grammar {
        try Grammar(json: Data(contentsOf: vscode.appendingPathComponent("syntaxes/marble.tmLanguage.json")))
    }

    static func tokenize(_ text: String) throws -> [TokenizedLine] {
        Tokenizer.tokenize(text, grammar: try grammar())
    }

    /// Every `.marble` file under `folder`, by relative path.
    static func marbleFiles(under folder: String) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".marble") && !$0.contains(".build") }
            .map { "\(folder)/\($0)" }.sorted()
    }

    /// The ```marble blocks of a Markdown file: (first line of the block's text, its text).
    static func marbleBlocks(in text: String) -> [(line: Int, text: String)] {
        var blocks: [(Int, String)] = []
        var current: (line: Int, lines: [String])?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```marble" {
                current = (index + 2, [])
            } else if let open = current {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    blocks.append((open.line, open.lines.joined(separator: "\n") + "\n"))
                    current = nil
                } else {
                    current?.lines.append(line)
                }
            }
        }
        return blocks
    }

    /// What is wrong with the tokens of `text`: each invalid token, each line where the grammar
    /// stopped advancing, and a rule still open at the end.
    static func problems(in text: String, named name: String, firstLine: Int = 1, grammar: Grammar) -> [String] {
        var tokenizer = Tokenizer(grammar: grammar)
        var problems: [String] = []
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        for (index, line) in lines.enumerated() {
            let tokenized = tokenizer.tokenize(line: line)
            let number = firstLine + index
            if tokenized.stalled { problems.append("\(name):\(number): the grammar stopped advancing on: \(line)") }
            for token in tokenized.tokens where token.scopes.contains(where: { $0.hasPrefix("invalid") }) {
                let piece = (line as NSString).substring(with: NSRange(location: token.start, length: token.end - token.start))
                problems.append("\(name):\(number):\(token.start + 1): '\(piece)' is \(token.scopes.joined(separator: " "))\n    \(line)")
            }
        }
        if !tokenizer.openRules.isEmpty {
            problems.append("\(name): rules still open at the end: \(tokenizer.openRules.joined(separator: ", "))")
        }
        return problems
    }

    @Test func theCatalogueAndTheExamplesTokenizeWithoutAnInvalidScope() throws {
        let grammar = try Self.grammar()
        let files = Self.marbleFiles(under: "marbles") + Self.marbleFiles(under: "Examples")
        #expect(files.count > 70, "found only \(files.count) .marble files under \(Self.root.path)")
        var problems: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            problems += Self.problems(in: text, named: file, grammar: grammar)
        }
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.prefix(30).joined(separator: "\n"))")
    }

    @Test func theMarbleBlocksOfTheDocumentsTokenizeWithoutAnInvalidScope() throws {
        let grammar = try Self.grammar()
        var documents = ["README.md", "CONTRIBUTING.md"]
        if let walker = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("docs").path) {
            documents += walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }.sorted()
        }
        var blocks = 0
        var problems: [String] = []
        for document in documents {
            guard let text = try? String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8) else { continue }
            for block in Self.marbleBlocks(in: text) {
                blocks += 1
                problems += Self.problems(in: block.text, named: document, firstLine: block.line, grammar: grammar)
            }
        }
        #expect(blocks > 20, "found only \(blocks) marble blocks")
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.prefix(30).joined(separator: "\n"))")
    }

    // MARK: - What each part of a file is

    /// Checks that in `text`, on line `line` (0-based), the first occurrence of `piece` (as a
    /// word of its own when it is one) has `scope` among its scopes, or, written `!scope`, has not.
    static func check(_ text: String, _ expectations: [(line: Int, piece: String, scope: String)],
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let lines = try tokenize(text)
        for (line, piece, scope) in expectations {
            let isWord = piece.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            let scopes = isWord ? lines[line].scopes(ofWord: piece) : lines[line].scopes(of: piece)
            let absent = scope.hasPrefix("!")
            #expect(scopes.contains(String(scope.drop { $0 == "!" })) != absent,
                    "line \(line) '\(piece)': \(scopes.joined(separator: " "))\n    \(lines[line].text)", sourceLocation: sourceLocation)
        }
    }

    @Test func aMarbleLineHasFramesValuesAndItsCompletion() throws {
        try Self.check("  expect query    --------c-------|   // the completion\n", [
            (0, "expect", "keyword.other.expect.marble"), (0, "query", "variable.other.stream.marble"),
            (0, "-", "punctuation.separator.frame.marble"), (0, "c", "constant.other.value.marble"),
            (0, "|", "keyword.control.completion.marble"), (0, "// the", "comment.line.double-slash.marble"),
            (0, "completion", "comment.line.double-slash.marble"),
        ])
    }

    @Test func failuresGroupsTimeAndLiterals() throws {
        try Self.check(#"  hot    input   -1- 10ms (ab|) {42} #{"boom"}"# + "\n" + "  cold   request  ---#\n", [
            (0, "1", "constant.numeric.value.marble"), (0, "10ms", "constant.numeric.time.marble"),
            (0, "ms (", "constant.numeric.time.marble"), (0, "(", "punctuation.section.group.begin.marble"),
            (0, "b|", "meta.group.marble"), (0, "|)", "keyword.control.completion.marble"),
            (0, "42", "constant.numeric.marble"), (0, "42", "meta.value.literal.marble"),
            (0, "#", "keyword.control.failure.marble"), (0, "boom", "string.quoted.double.marble"),
            (0, "boom", "meta.failure.marble"), (1, "#", "keyword.control.failure.marble"),
        ])
    }

    @Test func subscriptionsAndDemand() throws {
        try Self.check("""
              expect request.subscriptions  -^-!
              demand ticks   2---{3}--*
              expect ticks.requests  *

            """, [
            (0, "subscriptions", "support.variable.property.marble"), (0, "^", "keyword.control.subscription.marble"),
            (0, "!", "keyword.control.cancellation.marble"), (1, "2", "constant.numeric.demand.marble"),
            (1, "3", "constant.numeric.demand.marble"), (1, "*", "constant.language.unlimited.marble"),
            (2, "*", "constant.language.unlimited.marble"),
        ])
    }

    @Test func matchers() throws {
        try Self.check("  expect results   -{_}--{where: $0.count > 2}-|\n", [
            (0, "_", "keyword.other.matcher.wildcard.marble"), (0, "where", "keyword.other.matcher.where.marble"),
            (0, "$0", "variable.language.closure-parameter.marble"), (0, "count", "variable.other.member.marble"),
        ])
    }

    @Test func statementsAndTheirNames() throws {
        try Self.check("""
            frame 100ms
            notation rxjs
            test "debounce \\"drops\\" it"
              values A = ("a", 1), B = 12
              subject state = CurrentValueSubject("idle")
              @Published var query = ""
              expect twice == fused

            """, [
            (0, "frame", "keyword.other.frame.marble"), (0, "100ms", "constant.numeric.duration.marble"),
            (1, "rxjs", "support.constant.notation.marble"), (2, "test", "keyword.other.test.marble"),
            (2, "drops", "string.quoted.double.test-name.marble"), (2, "\\\"", "constant.character.escape.marble"),
            (3, "A", "constant.other.value.marble"), (3, "B", "constant.other.value.marble"),
            (3, "a\"", "!constant.other.value.marble"), (3, "a\"", "string.quoted.double.marble"),
            (4, "subject", "keyword.other.subject.marble"), (4, "state", "entity.name.variable.stream.marble"),
            (4, "CurrentValueSubject", "entity.name.type.marble"), (5, "@Published", "storage.modifier.attribute.marble"),
            (5, "query", "entity.name.variable.stream.marble"), (6, "==", "keyword.operator.comparison.marble"),
            (6, "fused", "variable.other.stream.marble"),
        ])
    }

    @Test func closuresInALetLine() throws {
        try Self.check("""
              let    label = input.map { s -> String in
                guard let n = Int(s) else { return "bad: \\(s.count) chars" }   // a comment
                return n > 9 ? "many" : String($0)
              }
              let    wait = typing.debounce(for: .milliseconds(300), scheduler: RunLoop.main)
              expect label -a-|

            """, [
            (0, "let", "keyword.other.let.marble"), (0, "label", "entity.name.variable.stream.marble"),
            (0, "map", "variable.other.member.marble"), (0, "{", "punctuation.section.block.begin.marble"),
            (0, "in", "keyword.control.marble"), (0, "->", "keyword.operator.arrow.marble"),
            (1, "guard", "keyword.control.marble"), (1, "guard", "meta.block.marble"),
            (1, "let", "storage.type.marble"), (1, "Int", "entity.name.type.marble"),
            // A string interpolation: its delimiters, and the expression inside it.
            (1, "\\(", "punctuation.section.interpolation.begin.marble"), (1, "count", "meta.embedded.interpolation.marble"),
            (1, "count", "variable.other.member.marble"), (1, " chars", "string.quoted.double.marble"),
            (1, " chars", "!meta.embedded.interpolation.marble"), (1, "a comment", "comment.line.double-slash.marble"),
            (2, "9", "constant.numeric.marble"), (2, "$0", "variable.language.closure-parameter.marble"),
            (3, "}", "punctuation.section.block.end.marble"),
            // After the closure's '}', the next line is a statement again.
            (4, "let", "keyword.other.let.marble"), (4, "let", "!meta.block.marble"),
            (4, "debounce", "entity.name.function.marble"), (4, "for", "variable.parameter.label.marble"),
            (4, "scheduler", "variable.parameter.label.marble"), (4, "milliseconds", "entity.name.function.marble"),
            (5, "|", "keyword.control.completion.marble"),
        ])
    }

    @Test func declarationsAndBlockComments() throws {
        try Self.check("""
            struct User: Equatable {
              let name: String   /* a /* nested */ comment */
              mutating func rename(to name: String) { self.name = name }
            }
            indirect enum Tree { case leaf(Int), node(Tree, Tree) }
            func clamp(_ value: Int) -> Int { min(value, 10) }

            """, [
            (0, "struct", "storage.type.struct.marble"), (0, "User", "entity.name.type.marble"),
            (1, "nested", "comment.block.marble"), (1, " comment", "comment.block.marble"),
            (2, "mutating", "storage.modifier.marble"), (2, "self", "variable.language.self.marble"),
            (4, "indirect", "storage.modifier.marble"), (4, "case", "keyword.control.marble"),
            (5, "clamp", "entity.name.function.marble"),
        ])
    }

    @Test func quotedMarblesOfRxJSNotation() throws {
        try Self.check("""
            notation rxjs
            test "quoted"
              hot    a   '  ^--a--|'   // frames count inside the quotes
              expect a   '     --a--|'

            """, [
            (2, "'", "string.quoted.single.marbles.marble"), (2, "^", "keyword.control.subscription.marble"),
            (2, "|", "keyword.control.completion.marble"), (2, "frames", "comment.line.double-slash.marble"),
        ])
    }

    /// The catalogue test above is only worth something if mistakes do get an invalid scope.
    @Test func mistakesAreInvalid() throws {
        let grammar = try Self.grammar()
        for mistake in ["hott x -a-|", "test \"a\" extra", "  hot x -a)-|", "  hot x -(a(b))-|", "  demand x 2-a", "frame fast",
                        "  let x = a.map { $0 })", "notation rx", "  expect a == b c"] {
            #expect(!Self.problems(in: mistake + "\n", named: "mistake", grammar: grammar).isEmpty, "\(mistake)")
        }
    }

    @Test func aStatementLeftOpenIsReported() throws {
        let problems = Self.problems(in: "  let x = a.map {\n", named: "open", grammar: try Self.grammar())
        #expect(problems.contains { $0.contains("rules still open") })
    }

    // MARK: - The VS Code folder

    static func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: vscode.appendingPathComponent(path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(path) is not a JSON object")
    }

    @Test func theExtensionsFilesAreValidAndReferToEachOther() throws {
        let package = try Self.json("package.json")
        let contributes = try #require(package["contributes"] as? [String: Any])
        let languages = try #require(contributes["languages"] as? [[String: Any]])
        let grammars = try #require(contributes["grammars"] as? [[String: Any]])
        let language = try #require(languages.first { $0["id"] as? String == "marble" })
        #expect((language["extensions"] as? [String]) == [".marble"])
        let configurationPath = try #require(language["configuration"] as? String)
        let configuration = try Self.json(configurationPath)
        #expect((configuration["comments"] as? [String: Any])?["lineComment"] as? String == "//")
        #expect(configuration["brackets"] is [[String]])
        #expect(configuration["autoClosingPairs"] != nil)

        let entry = try #require(grammars.first { $0["language"] as? String == "marble" })
        let grammarPath = try #require(entry["path"] as? String)
        let grammar = try Grammar(json: Data(contentsOf: Self.vscode.appendingPathComponent(grammarPath)))
        #expect(entry["scopeName"] as? String == grammar.scopeName)
        #expect(grammar.scopeName == "source.marble")

        // Every other file the manifest names exists.
        for key in ["main", "icon"] {
            if let path = package[key] as? String {
                #expect(FileManager.default.fileExists(atPath: Self.vscode.appendingPathComponent(path).path), "\(key): \(path)")
            }
        }
        for injection in grammars where injection["language"] == nil {
            let path = try #require(injection["path"] as? String)
            _ = try Grammar(json: Data(contentsOf: Self.vscode.appendingPathComponent(path)))
        }
    }

    @Test func theTokenizerRefusesWhatItDoesNotModel() throws {
        for (rule, why) in [(#"{"match": "\\Gx"}"#, "\\G"), (#"{"match": "\\h+"}"#, "\\h"), (#"{"begin": "x", "while": "y"}"#, "while"),
                            (#"{"begin": "(a)", "end": "\\1"}"#, "backreference"), (#"{"match": "[[:alpha:]]"}"#, "POSIX"),
                            (#"{"match": ""# + String(repeating: "a", count: 300) + #""}"#, "a pattern NSRegularExpression leaks")] {
            let json = #"{"scopeName": "source.t", "patterns": ["# + rule + "]}"
            #expect(throws: Grammar.Failure.self, "\(why)") { try Grammar(json: Data(json.utf8)) }
        }
    }
}
