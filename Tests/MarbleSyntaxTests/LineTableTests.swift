import Testing
import MarbleSyntax

/// `LineTable` numbers lines as the parser does, so a diagnostic quotes the line it points at.
@Suite struct LineTableTests {
    @Test func splitsAtEveryNewlineCharacter() {
        let table = LineTable("a\nb\r\nc\rd\u{0B}e\u{0C}f\u{85}g\u{2028}h\u{2029}i")
        #expect(table.count == 9)
        #expect((1...9).map(table.line) == ["a", "b", "c", "d", "e", "f", "g", "h", "i"])
    }

    @Test func keepsNonASCIIText() {
        let table = LineTable("héllo\n  -🙂-|\n")
        #expect(table.count == 3)
        #expect(table.line(1) == "héllo")
        #expect(table.line(2) == "  -🙂-|")
        #expect(table.line(3) == "")
    }

    @Test func outOfRangeLinesAreEmpty() {
        let table = LineTable("one")
        #expect(table.line(0) == "")
        #expect(table.line(2) == "")
        #expect(LineTable("").count == 1)
    }

    @Test func agreesWithTheParsersLineNumbers() throws {
        // An error on line 3 of a CR LF file with a non-ASCII line before it.
        let source = "// é\r\ntest \"t\"\r\n  expcet a -a|\r\n"
        let (_, errors) = MarbleFileParser.parse(source)
        let error = try #require(errors.first)
        #expect(error.location.line == 3)
        #expect(LineTable(source).line(error.location.line) == "  expcet a -a|")
    }
}
