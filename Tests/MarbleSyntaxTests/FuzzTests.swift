import Testing
import TestSupport
@testable import MarbleSyntax

/// Feeds the parser garbage: it must return (never crash or hang), and every
/// error must point inside the text.
@Suite struct FuzzTests {
    static let fragments = [
        "test", " \"name\"", "frame", " 100ms", "hot", "cold", "subject", "send", "values", "let", "subscribe",
        "demand", "connect", "expect", " a", " b", " x", ".subscriptions", " = ", "=", " -a-b-|", "-", "|", "#",
        "^", "!", "(", ")", "[", "]", "{", "}", "{\"", "\"", "\\", "\\(", "\\u{", "\\u{41}", "\"\"\"", "//", "/*", "*/",
        "\n", "\r\n", "\t", "  ", ",", ";", ":", ".", "..", "...", "..<", "?", "??", "&&", "||", "==", "<", ">", "<=",
        "+", "*", "/", "%", "$0", "$", "`", "_", "in", "if", "else", "throw", "try", "return", "var", "1", "1.5",
        "1e", "1_000", "99999999999999999999", "-1", "true", "nil", "Just", "PassthroughSubject<Int, Never>",
        "Foo<", ".map", ".max(1)", " { $0 + 1 }", " { x in ", "->", "é", "😀", "👍🏽", "\u{0}", "@", "ß",
    ]

    static func check(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let (_, errors) = MarbleFileParser.parse(text)
        for error in errors {
            let line = error.location.line
            let valid = line >= 1 && line <= lines.count && error.location.column >= 1
                && error.location.column <= lines[line - 1].count + 1 && error.length >= 1
            if !valid {
                Issue.record("error outside the text: \(error) in \(String(reflecting: text))", sourceLocation: sourceLocation)
            }
        }
        do {
            _ = try MarbleFileParser.parseExpression(text, at: MarbleSyntax.SourceLocation(line: 1, column: 1))
        } catch {
            let line = error.location.line
            if line < 1 || line > lines.count || error.location.column < 1 || error.location.column > lines[line - 1].count + 1 {
                Issue.record("expression error outside the text: \(error) in \(String(reflecting: text))", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func randomFragments() {
        var generator = SeededGenerator(seed: 20_240_601)
        for _ in 0..<3000 {
            let count = Int.random(in: 1...40, using: &generator)
            var text = ""
            for _ in 0..<count {
                text += FuzzTests.fragments.randomElement(using: &generator) ?? ""
            }
            FuzzTests.check(text)
        }
    }

    @Test func randomCharacters() {
        var generator = SeededGenerator(seed: 7)
        let alphabet = Array("abcxyzAZ019_ -|#^!(){}[]\"\\/*.,;:=<>+?&$`\n\t\r é😀")
        for _ in 0..<3000 {
            let count = Int.random(in: 0...60, using: &generator)
            let text = String((0..<count).compactMap { _ in alphabet.randomElement(using: &generator) })
            FuzzTests.check(text)
        }
    }

    @Test func truncatedAndMutatedExamples() {
        let example = WorkedExampleTests.section5
        let characters = Array(example)
        var generator = SeededGenerator(seed: 42)
        // Prefixes, cut at every 11th character.
        for end in stride(from: 0, through: characters.count, by: 11) {
            FuzzTests.check(String(characters[0..<end]))
        }
        // Single deletions, insertions and swaps.
        let noise = Array("(){}[]\"\\/-|,=.$ \n")
        for _ in 0..<300 {
            var mutated = characters
            let position = Int.random(in: 0..<mutated.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: mutated.remove(at: position)
            case 1: mutated.insert(noise.randomElement(using: &generator) ?? "(", at: position)
            default: if position + 1 < mutated.count { mutated.swapAt(position, position + 1) }
            }
            FuzzTests.check(String(mutated))
        }
    }

    @Test func pathologicalInputs() {
        let inputs = [
            String(repeating: "(", count: 20_000),
            String(repeating: ")", count: 20_000),
            "let x = " + String(repeating: "(", count: 5000) + String(repeating: "]", count: 5000),
            "test \"t\"\n  let x = " + String(repeating: "{", count: 5000),
            "test \"t\"\n  let x = " + String(repeating: "\"\\(", count: 3000),
            "test \"t\"\n  values A = " + String(repeating: "[", count: 3000),
            String(repeating: "\"", count: 10_001),
            String(repeating: "\\", count: 10_000),
            String(repeating: "test \"x\"\n", count: 2000),
            String(repeating: "/*", count: 5000),
            String(repeating: "Foo<", count: 5000) + "Int" + String(repeating: ">", count: 5000) + "()",
            String(repeating: "- ", count: 20_000) + "1",
            String(repeating: "\n", count: 20_000),
        ]
        for input in inputs {
            FuzzTests.check(input)
        }
    }
}
