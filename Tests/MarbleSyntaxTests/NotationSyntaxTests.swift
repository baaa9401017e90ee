import Testing
import MarbleNotation
@testable import MarbleSyntax

/// The `notation` line and the quoted marble strings it allows.
@Suite("notation lines")
struct NotationSyntaxTests {
    private func errors(_ source: String) -> [String] {
        MarbleFileParser.parse(source).errors.map { "\($0.location.line):\($0.location.column): \($0.message)" + ($0.hint.map { " (\($0))" } ?? "") }
    }

    @Test func aNotationLineSetsTheFilesDialect() {
        #expect(MarbleFileParser.parse("notation rxjs\ntest \"t\"\n  hot a -a-|\n").file.dialect == .rxjs)
        #expect(MarbleFileParser.parse("notation rxjs-legacy // RxJS 6\n").file.dialect == .rxjsLegacy)
        #expect(MarbleFileParser.parse("notation native\n").file.dialect == .native)
        #expect(MarbleFileParser.parse("frame 10ms\n").file.dialect == .native)
    }

    @Test func mistakesInANotationLine() {
        #expect(errors("notation rxjs6\n") == ["1:10: unknown notation 'rxjs6' (did you mean 'rxjs'?)"])
        #expect(errors("notation\n") == ["1:9: expected a notation after 'notation' (one of: native, rxjs, rxjs-legacy; for example: notation rxjs)"])
        #expect(errors("notation rxjs x\n") == ["1:15: unexpected 'x' after the notation"])
        #expect(errors("notation rxjs\nnotation rxjs-legacy\n") == ["2:1: the file already has a notation line (line 1) (keep one)"])
        #expect(errors("test \"t\"\n  notation rxjs\n")
                == ["2:3: 'notation' must come before the first test: it says how every marble string of the file is read (move it to the top of the file)"])
        #expect(errors("notaton rxjs\n").first?.hasSuffix("(did you mean 'notation'?)") == true)
    }

    @Test func underAnRxJSNotationAMarbleStringMayBeQuoted() throws {
        let (file, errors) = MarbleFileParser.parse("notation rxjs-legacy\ntest \"t\"\n  hot a   '  a//b '  // comment\n  cold b \"-c|\"\n")
        #expect(errors.isEmpty)
        let statements = try #require(file.tests.first?.statements)
        guard case .hot(_, let marbles) = statements[0].kind, case .cold(_, let cold) = statements[1].kind else {
            Issue.record("expected a hot and a cold line")
            return
        }
        #expect(marbles.text == "  a//b ")
        #expect(marbles.quote == "'")
        #expect(marbles.location.column == 12)
        #expect(cold.text == "-c|")
        // Unquoted, the file's syntax is the same: `//` starts a comment.
        let unquoted = MarbleFileParser.parse("notation rxjs\ntest \"t\"\n  hot a  -a//b\n").file
        guard case .hot(_, let plain)? = unquoted.tests.first?.statements.first?.kind else {
            Issue.record("expected a hot line")
            return
        }
        #expect(plain.text == "-a")
        #expect(plain.quote == nil)
    }

    @Test func quotesAreMarblesInTheNativeNotation() {
        // Natively `'` is a value name, so nothing changes there.
        let (file, _) = MarbleFileParser.parse("test \"t\"\n  hot a  '-a'\n")
        guard case .hot(_, let marbles)? = file.tests.first?.statements.first?.kind else {
            Issue.record("expected a hot line")
            return
        }
        #expect(marbles.text == "'-a'")
    }

    @Test func mistakesInAQuotedString() {
        #expect(errors("notation rxjs\ntest \"t\"\n  hot a  '-a\n") == ["3:10: unterminated marble string: no closing ' (close it with ')"])
        #expect(errors("notation rxjs\ntest \"t\"\n  hot a  '-a' x\n") == ["3:15: unexpected 'x' after the marble string"])
        #expect(errors("notation rxjs\ntest \"t\"\n  hot a  '-a\\'b'\n")
                == ["3:13: a quoted marble string is read as written: '\\' starts no escape here (write the character itself)"])
    }
}
