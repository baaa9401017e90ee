import Testing
@testable import MarbleSpec

/// One mistake costs one test (issue 25, item 2): a mistake in a test's lines is that test's
/// error and the file's other tests run; one in a file-level declaration costs the tests that use
/// it; one that breaks the file's structure (a `test` line, the file's `frame`) costs the file.
@Suite struct OneMistakeTests {
    /// Three tests, the second one `middle`: what each test ended as, and the file's own diagnostics.
    func outcomes(_ middle: String, declarations: String = "") -> (tests: [String], file: [String]) {
        let report = runMarble(declarations + """
            test "first"
              hot    a   -1-2-|
              let    doubled = a.map { $0 * 2 }
              expect doubled -2-4-|

            test "second"
            \(middle)

            test "third"
              hot    a   -a-|
              expect a   -a-|
            """)
        let tests = report.tests.map { test in
            let what = test.error.map { "error \($0.line):\($0.column): \($0.message)" } ?? "\(test.outcome)"
            return "\(test.name): " + what + (test.diagnostics.count > 1 ? " (+\(test.diagnostics.count - 1))" : "")
        }
        return (tests, report.diagnostics.map { "\($0.line):\($0.column): \($0.message)" })
    }

    @Test func aSyntaxErrorInATestsBodyCostsThatTest() {
        let result = outcomes("""
              hot    a   -1-|
              let    total = a.map { $0 + }
              expect total -1-|
            """)
        #expect(result.tests == ["first: passed", "second: error 8:31: expected expression after '+'", "third: passed"])
        #expect(result.file == [])
    }

    @Test func aTypeErrorInATestsBodyCostsThatTest() {
        let result = outcomes("""
              hot    a   -1-|
              let    total = a.mapp { $0 }
              expect total -1-|
            """)
        #expect(result.tests == ["first: passed", "second: error 8:20: unknown operator 'mapp'", "third: passed"])
    }

    @Test func aRuntimeErrorCostsThatTestOnly() {
        let result = outcomes("""
              hot    a   -1-0-|
              let    q = a.map { 6 / $0 }
              expect q   -6-6-|
            """)
        #expect(result.tests == ["first: passed", "second: error 8:24: division by zero in 6 / 0", "third: passed"])
    }

    @Test func aMistakeInAFileLevelDeclarationCostsTheTestsThatUseIt() {
        let result = outcomes("""
              values r = Row(name: "x")
              hot    a   -r-|
              expect a   -r-|
            """, declarations: "struct Row { var name: Strin }\n\n")
        #expect(result.tests == ["first: passed", "second: error 1:24: cannot find type 'Strin' in scope", "third: passed"])
        #expect(result.file == [])
    }

    @Test func aDeclarationThatDidNotParseCostsTheTestsThatUseIt() {
        let result = outcomes("""
              let    rows = Just(Row(name: "x"))
              expect rows (x|)
            """, declarations: "struct Row {\n  var name: String =\n}\n\n")
        #expect(result.tests == ["first: passed", "second: error 3:1: expected expression after '='", "third: passed"])
    }

    /// A test that uses a declaration that uses a broken one reports the broken one's mistake,
    /// not "cannot find type" for what it would have declared.
    @Test func aTestReachesAMistakeThroughAnotherDeclaration() {
        let result = outcomes("""
              let    items = Just(Item(kind: .a, row: Row(name: "x")))
              expect items (x|)
            """, declarations: """
            struct Row {
              var name: String =
            }
            enum Kind { case a, b }
            struct Item { var kind: Kind; var row: Row }


            """)
        #expect(result.tests == ["first: passed", "second: error 3:1: expected expression after '='", "third: passed"])
    }

    @Test func aMistakeNoTestUsesIsTheFilesAndVoidsNothing() {
        let result = outcomes("""
              hot    a   -1-|
              expect a   -1-|
            """, declarations: "struct Unused { var name: Strin }\n\n")
        #expect(result.tests == ["first: passed", "second: passed", "third: passed"])
        #expect(result.file == ["1:27: cannot find type 'Strin' in scope"])
    }

    @Test func aMistakeInTheFilesFrameVoidsTheFile() {
        let report = runMarble("frame 0ms\n\ntest \"one\"\n  hot a -a-|\n  expect a -a-|\n")
        #expect(report.tests.isEmpty)
        #expect(report.diagnostics.map { "\($0.line):\($0.column): \($0.message)" } == ["1:7: '0ms' is not a frame length"])
    }

    @Test func aMistakeInATestLineVoidsTheFile() {
        let duplicate = runMarble("test \"one\"\n  hot a -a-|\n  expect a -a-|\ntest \"one\"\n  hot b -b-|\n  expect b -b-|\n")
        #expect(duplicate.tests.isEmpty)
        #expect(duplicate.diagnostics.map(\.message) == ["duplicate test name \"one\""])
        let unquoted = runMarble("test one\n  hot a -a-|\n  expect a -a-|\ntest \"two\"\n  hot b -b-|\n  expect b -b-|\n")
        #expect(unquoted.tests.isEmpty)
        #expect(unquoted.diagnostics.first?.message == "expected a quoted test name after 'test'")
    }

    /// A line that did not parse does not produce an error for each name it would have defined.
    @Test func aLineThatDidNotParseCausesNoFollowOnErrors() {
        let report = runMarble("""
            test "t"
              hot    a   -1-|
              let    total = a.map { $0 + }
              let    more = total.map { $0 * 2 }
              subscribe total ^
              expect total -1-|
              expect more  -2-|

            test "u"
              @Published var query = "a" +
              let    other = $query.map { $0 }
              send   query -b-|
              expect other -b-|
            """)
        #expect(report.tests.map { $0.diagnostics.map { "\($0.line):\($0.column): \($0.message)" } } == [
            ["3:31: expected expression after '+'"],
            ["10:31: expected expression after '+'"],
        ])
    }

    /// Each mistake of a test is reported, those of other lines too, without follow-ons.
    @Test func everyMistakeOfATestIsReported() {
        let result = outcomes("""
              hot    a   -1-|
              let    total = a.map { $0 + }
              let    other = a.mapp { $0 }
              expect total -1-|
              expect other -1-|
            """)
        #expect(result.tests == ["first: passed", "second: error 8:31: expected expression after '+' (+1)", "third: passed"])
    }

    /// `--filter` runs the tests it chose: a mistake in another test is not reported.
    @Test func aMistakeInATestNotChosenIsNotReported() {
        var options = RunOptions()
        options.selectedTests = ["first"]
        let report = MarbleRunner.run(source: """
            test "first"
              hot    a   -1-|
              expect a   -1-|

            test "second"
              hot    a   -1-|
              expect b   -1-|
            """, path: "t.marble", options: options)
        #expect(report.allDiagnostics.isEmpty)
        #expect(report.tests.map(\.name) == ["first"])
        #expect(report.tests.first?.outcome == .passed)
    }

    @Test func aNameMentionedOnlyInAMarbleUsesAValuesLine() {
        let result = outcomes("""
              hot    a   -v-|
              expect a   -v-|
            """, declarations: "values v = Broken(x: 1)\n\n")
        #expect(result.tests == ["first: passed", "second: error 1:12: cannot find 'Broken' in scope", "third: passed"])
    }
}
