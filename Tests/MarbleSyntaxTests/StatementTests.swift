import Testing
@testable import MarbleSyntax

@Suite struct StatementTests {
    @Test func everyStatementKind() {
        let file = parseClean("""
        frame 1ms
        values X = 1
        test "all"
          frame 1.5s
          values A = ("a", 1), b = [1, 2], c = nil, d = true, e = -0.5, ß = "ss", 1 = 10
          hot a -a-|
          cold b ---x|
          subject s = PassthroughSubject<Int, Never>()
          subject t = CurrentValueSubject("idle")
          subject u = PassthroughSubject()
          send s  --1--2--|
          let m = a.merge(with: b)
          subscribe m  --^---!
          demand m  2---*
          connect shared  --^
          expect m  -a-x-|
          expect b.subscriptions  ^---!
        """)
        #expect(file.statements.map(describe) == ["frame 1ms", "values X=1"])
        #expect(file.tests.first?.statements.map(describe) == [
            "frame 1.5s",
            "values A=(tuple \"a\" 1) b=[1 2] c=nil d=true e=-0.5 ß=\"ss\" 1=10",
            "hot a [-a-|]",
            "cold b [---x|]",
            "subject s (call (generic PassthroughSubject <Int> <Never>))",
            "subject t (call CurrentValueSubject \"idle\")",
            "subject u (call PassthroughSubject)",
            "send s [--1--2--|]",
            "let m (call (. a merge) with:b)",
            "subscribe m [--^---!]",
            "demand m [2---*]",
            "connect shared [--^]",
            "expect m [-a-x-|]",
            "expect b.subscriptions [^---!]",
        ])
        #expect(file.tests.first?.statements.map(\.statement.keyword) == [
            "frame", "values", "hot", "cold", "subject", "subject", "subject", "send", "let",
            "subscribe", "demand", "connect", "expect", "expect",
        ])
    }

    @Test func statementLocationsAndRanges() throws {
        let file = parseClean("""
        test "t"
            hot   clicks   -a--b-|   // two clicks
          let x = clicks
        \tframe 10ms
        """)
        let statements = try #require(file.tests.first?.statements)
        #expect(statements.map(\.location) == [loc(2, 5), loc(3, 3), loc(4, 2)])
        #expect(statements.map(\.sourceLine) == [2, 3, 4])
        #expect(statements[0].range == SourceRange(start: loc(2, 5), end: loc(2, 27)))
        #expect(statements[1].range == SourceRange(start: loc(3, 3), end: loc(3, 17)))
        #expect(statements[2].range == SourceRange(start: loc(4, 2), end: loc(4, 12)))
        guard case .hot(let name, let marbles) = statements[0].kind,
              case .frame(let duration) = statements[2].kind else {
            Issue.record("unexpected kinds")
            return
        }
        #expect(name == Identifier(name: "clicks", location: loc(2, 11)))
        #expect(marbles == MarbleText(text: "-a--b-|", location: loc(2, 20)))
        #expect(duration == DurationSyntax(text: "10ms", location: loc(4, 8)))
    }

    @Test func marblesKeepInteriorSpacesAndTrimTrailingOnes() throws {
        let file = parseClean("test \"t\"\n  hot a   -a- b  -|   \t\n  expect a  - a 10ms b -|")
        #expect(file.tests.first?.statements.map(describe) == ["hot a [-a- b  -|]", "expect a [- a 10ms b -|]"])
    }

    @Test func commentsAreStrippedExceptInsideLiterals() {
        let file = parseClean("""
        // leading comment
        frame 100ms // file frame
        values U = "http://example.com" // a url
        test "comments" // after the name
          hot a  -{"http://x"}-|  // a comment after braces
          hot b  -a-{"}//"}-| //trailing
          hot c  -a-|//tight
          let x = a.map { "//\\($0)" } // the comment
          expect x  -{"a // b"}-|
          expect y  -a-{[1, 2]}-(b|)   //
        // a full-line comment
            // an indented comment
        """)
        #expect(file.statements.map(describe) == ["frame 100ms", "values U=\"http://example.com\""])
        #expect(file.tests.first?.statements.map(describe) == [
            "hot a [-{\"http://x\"}-|]",
            "hot b [-a-{\"}//\"}-|]",
            "hot c [-a-|]",
            "let x (call (. a map) (closure (string \"//\" $0)))",
            "expect x [-{\"a // b\"}-|]",
            "expect y [-a-{[1, 2]}-(b|)]",
        ])
    }

    @Test func multiLineLet() throws {
        let file = parseClean("""
        test "multi-line"
          hot input  -1-2-|
          let parsed = input.tryMap { value in
              // negative values fail
              if value < 0 {
                  throw "negative: \\(value)"
              } else {
                  let doubled = value * 2
                  return doubled
              }
          }
          let sum = input.scan(0,
                               { $0 + $1 })
          let chained = input
              .map { $0 * 2 }
              .filter { $0 > 2 }
          subject s = CurrentValueSubject(
            0
          )
          values A = (1,
                      2), B = 3
          expect parsed  -2-4-|
        """)
        let statements = try #require(file.tests.first?.statements)
        #expect(statements.map(describe) == [
            "hot input [-1-2-|]",
            "let parsed (call (. input tryMap) (closure (params value) (if (< value 0) (then (throw (string \"negative: \" value))) (else (let doubled (* value 2)) (return doubled)))))",
            "let sum (call (. input scan) 0 (closure (+ $0 $1)))",
            "let chained (call (. (call (. input map) (closure (* $0 2))) filter) (closure (> $0 2)))",
            "subject s (call CurrentValueSubject 0)",
            "values A=(tuple 1 2) B=3",
            "expect parsed [-2-4-|]",
        ])
        #expect(statements.map(\.sourceLine) == [2, 3, 12, 14, 17, 20, 22])
        #expect(statements[1].range == SourceRange(start: loc(3, 3), end: loc(11, 4)))
        guard case .binding(_, let parsed) = statements[1].kind,
              case .call(_, let arguments) = parsed.kind,
              case .closure(let closure) = arguments[0].value.kind,
              case .expression(let ifNode) = closure.body[0],
              case .ifExpression(let ifExpression) = ifNode.kind,
              case .letBinding(_, let doubled, let letLocation) = ifExpression.elseBody?.first else {
            Issue.record("unexpected shape")
            return
        }
        #expect(ifNode.location == loc(5, 7))
        #expect(ifExpression.condition.location == loc(5, 16))
        #expect(letLocation == loc(8, 11))
        #expect(doubled.location == loc(8, 31))
    }

    @Test func testsCollectTheirStatements() {
        let file = parseClean("""
        frame 10ms
        test "one"
          hot a -a|
        test "two"
          frame 1ms
          hot b -b|
          expect b -b|
        test "three"
        """)
        #expect(file.statements.map(describe) == ["frame 10ms"])
        #expect(file.tests.map(\.name) == ["one", "two", "three"])
        #expect(file.tests.map(\.statements.count) == [1, 3, 0])
        #expect(file.tests.map(\.location) == [loc(2, 1), loc(4, 1), loc(8, 1)])
    }

    @Test func testNamesDecodeEscapes() {
        let file = parseClean("test \"say \\\"hi\\\"\\t\\u{2192} done\"   // comment")
        #expect(file.tests.map(\.name) == ["say \"hi\"\t→ done"])
    }

    @Test func lineEndings() {
        let file = parseClean("test \"crlf\"\r\n  hot a  -a-|\r\n  expect a  -a-|\r\n")
        #expect(file.tests.first?.statements.map(describe) == ["hot a [-a-|]", "expect a [-a-|]"])
        #expect(file.tests.first?.statements.map(\.location) == [loc(2, 3), loc(3, 3)])
    }

    @Test func unicodeColumnsCountCharacters() throws {
        let file = parseClean("test \"é😀\" // 👍🏽\n  hot  é  -é-👍🏽-|")
        let statement = try #require(file.tests.first?.statements.first)
        guard case .hot(let name, let marbles) = statement.kind else {
            Issue.record("expected hot")
            return
        }
        #expect(name == Identifier(name: "é", location: loc(2, 8)))
        #expect(marbles == MarbleText(text: "-é-👍🏽-|", location: loc(2, 11)))
    }

    @Test func emptyFile() {
        for text in ["", "\n\n", "// only a comment", "   \n\t\n"] {
            let (file, errors) = MarbleFileParser.parse(text)
            #expect(errors.isEmpty)
            #expect(file.statements.isEmpty && file.tests.isEmpty)
        }
    }
}

extension Statement {
    var statement: StatementKind { kind }
}
