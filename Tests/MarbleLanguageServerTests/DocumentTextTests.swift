import Testing
@testable import MarbleLanguageServer

@Suite("marbles lsp: positions and JSON")
struct DocumentTextTests {
    @Test("project columns count characters; LSP characters count UTF-16 units")
    func columnsToUTF16() {
        let text = DocumentText("ab\n  é🎉x = 1\n")
        // Column 5 of line 2 is 'x': 2 spaces, 'é' (1 unit), '🎉' (2 units).
        #expect(text.position(line: 2, column: 5) == Position(line: 1, character: 5))
        #expect(text.range(line: 2, column: 4, length: 2) == Range(start: Position(line: 1, character: 3), end: Position(line: 1, character: 6)))
        // A range running past the line's end stops there.
        #expect(text.range(line: 2, column: 5, length: 100).end == Position(line: 1, character: 10))
        #expect(text.projectLocation(of: Position(line: 1, character: 5)) == (2, 5) as (Int, Int))
        // Inside the emoji's surrogate pair: the emoji.
        #expect(text.projectLocation(of: Position(line: 1, character: 4)) == (2, 4) as (Int, Int))
        #expect(text.projectLocation(of: Position(line: 1, character: 99)) == (2, 10) as (Int, Int))
    }

    @Test("a combining accent is one column and two units")
    func combining() {
        let text = DocumentText("e\u{301}x")
        #expect(text.position(line: 1, column: 2) == Position(line: 0, character: 2))
    }

    @Test("CR LF and CR end LSP lines; a vertical tab ends a project line only")
    func lineBreaks() {
        let text = DocumentText("a\r\nb\rc\u{0B}d\ne")
        #expect(text.lineCount == 4)
        #expect(text.position(line: 2, column: 1) == Position(line: 1, character: 0))
        #expect(text.position(line: 3, column: 1) == Position(line: 2, character: 0))
        // Project line 4 ('d') starts after the vertical tab, on LSP line 2.
        #expect(text.position(line: 4, column: 1) == Position(line: 2, character: 2))
        #expect(text.position(line: 5, column: 1) == Position(line: 3, character: 0))
        #expect(text.projectLocation(of: Position(line: 2, character: 2)) == (4, 1) as (Int, Int))
        // A position past a CR LF line's end stays before the CR.
        #expect(text.replacing(Range(start: Position(line: 0, character: 5), end: Position(line: 0, character: 9)), with: "!") == "a!\r\nb\rc\u{0B}d\ne")
    }

    @Test("incremental edits replace UTF-16 ranges")
    func replacing() {
        let text = DocumentText("🎉ab\ncd")
        #expect(text.replacing(Range(start: Position(line: 0, character: 2), end: Position(line: 1, character: 1)), with: "X") == "🎉Xd")
        #expect(text.replacing(Range(start: Position(line: 1, character: 2), end: Position(line: 1, character: 2)), with: "!") == "🎉ab\ncd!")
        #expect(text.wholeRange.end == Position(line: 1, character: 2))
    }

    @Test("JSON reads what it writes, refuses what is not JSON, and bounds nesting")
    func json() throws {
        let value: JSON = ["a": [1, 2.5, "x\n\"é🎉\u{01}"], "b": nil, "c": true]
        #expect(try JSON.parse(value.text) == value)
        #expect(value.text == "{\"a\":[1,2.5,\"x\\n\\\"é🎉\\u0001\"],\"b\":null,\"c\":true}")
        #expect(try JSON.parse("\"\\ud83c\\udf89\"") == "🎉")
        #expect(try JSON.parse(" -12e2 ") == .number(-1200))
        for bad in ["", "{", "[1,]", "01", "{\"a\" 1}", "\"\u{01}\"", "tru", "1 2", "\"\\x\"", "nul"] {
            #expect(throws: JSONError.self, "\(bad)") { try JSON.parse(bad) }
        }
        let deep = String(repeating: "[", count: JSON.maximumDepth + 1) + String(repeating: "]", count: JSON.maximumDepth + 1)
        #expect(throws: JSONError.self) { try JSON.parse(deep) }
        #expect(throws: JSONError.self) { try JSON.parse([0xFF]) }
        #expect(throws: JSONError.self) { try JSON.parse([0x22, 0xFF, 0x22]) }
    }
}
