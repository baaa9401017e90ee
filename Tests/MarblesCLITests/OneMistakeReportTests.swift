import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import MarblesCLI

/// A file with three tests, one of them with an error, reports one error and two results, in
/// every reporter (issue 25, item 2): for a mistake in the test's lines, in a file-level
/// declaration only that test uses, and a runtime error.
@Suite("one mistake costs one test, in every reporter")
struct OneMistakeReportTests {
    /// The second of three tests has the error; the first passes, the third fails.
    static func file(second: String, declarations: String = "") -> String {
        declarations + """
            test "first"
              hot    a   -1-2-|
              let    doubled = a.map { $0 * 2 }
              expect doubled -2-4-|

            test "second"
            \(second)

            test "third"
              hot    a   -a-|
              expect a   -b-|

            """
    }

    /// The line of the third test's `expect`, which fails.
    static func failingLine(_ source: String) -> Int {
        (source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasSuffix("expect a   -b-|") } ?? 0) + 1
    }

    /// (what the error is, the file, the error's line:column, its message, the exit status)
    static let cases: [(String, String, String, String, Int32)] = [
        ("a mistake in the test's lines", file(second: """
              hot    a   -1-|
              let    total = a.map { $0 + }
              expect total -1-|
            """), "8:31", "expected expression after '+'", 2),
        ("a mistake in a declaration it uses", file(second: """
              values r = Row(name: "x")
              hot    a   -r-|
              expect a   -r-|
            """, declarations: "struct Row { var name: Strin }\n\n"), "1:24", "cannot find type 'Strin' in scope", 2),
        ("a runtime error", file(second: """
              hot    a   -1-0-|
              let    q = a.map { 6 / $0 }
              expect q   -6-6-|
            """), "8:24", "division by zero in 6 / 0", 1),
    ]

    @Test(arguments: cases)
    func human(_ kind: String, _ source: String, _ place: String, _ message: String, _ status: Int32) throws {
        let sandbox = try Sandbox(["t.marble": source])
        let path = sandbox.path("t.marble")
        let run = marbles("run", path)
        #expect(run.code == status, "\(kind)")
        #expect(run.stdout.contains("\n  ✓ first\n"), "\(kind)")
        #expect(run.stdout.contains("\n  ✗ second    \(path):\(place)\n\n    \(path):\(place): error: \(message)"), "\(kind)")
        #expect(run.stdout.contains("\n  ✗ third     \(path):\(Self.failingLine(source)):3: expect a\n"), "\(kind)")
        #expect(run.stdout.components(separatedBy: "error:").count == 2, "\(kind): one error, shown once")
        #expect(run.lastLine == "1 passed, 1 failed, 1 error", "\(kind)")
    }

    @Test(arguments: cases)
    func junit(_ kind: String, _ source: String, _ place: String, _ message: String, _ status: Int32) throws {
        let sandbox = try Sandbox(["t.marble": source])
        let run = marbles("run", sandbox.path("t.marble"), "--reporter", "junit")
        #expect(run.code == status)
        let xml = try XMLDocument(data: Data(run.stdout.utf8), options: [])
        let suite = try #require(xml.rootElement()?.elements(forName: "testsuite").first)
        #expect(suite.attribute(forName: "tests")?.stringValue == "3", "\(kind)")
        #expect(suite.attribute(forName: "failures")?.stringValue == "1", "\(kind)")
        #expect(suite.attribute(forName: "errors")?.stringValue == "1", "\(kind)")
        let cases = suite.elements(forName: "testcase")
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == ["first", "second", "third"], "\(kind)")
        let error = try #require(cases[1].elements(forName: "error").first)
        #expect(error.attribute(forName: "message")?.stringValue?.hasPrefix(message) == true, "\(kind)")
        #expect(error.attribute(forName: "type")?.stringValue == (status == 2 ? "mistake in the test" : "runtime error"), "\(kind)")
        #expect(cases[0].elements(forName: "error").isEmpty && cases[0].elements(forName: "failure").isEmpty, "\(kind)")
        #expect(!cases[2].elements(forName: "failure").isEmpty, "\(kind)")
    }

    @Test(arguments: cases)
    func tap(_ kind: String, _ source: String, _ place: String, _ message: String, _ status: Int32) throws {
        let sandbox = try Sandbox(["t.marble": source])
        let run = marbles("run", sandbox.path("t.marble"), "--reporter", "tap")
        #expect(run.code == status)
        let tap = try ReporterTests.TAP(run.stdout)
        #expect(tap.points.map(\.ok) == [true, false, false], "\(kind)")
        #expect(tap.points[1].description.hasSuffix(" › second"), "\(kind)")
        #expect(tap.points[1].yaml.contains("  severity: error"), "\(kind)")
        #expect(tap.points[1].yaml.contains { $0.hasPrefix("  message: \"\(message)") }, "\(kind)")
        #expect(tap.points[2].yaml.contains("  severity: fail"), "\(kind)")
        #expect(tap.comments.last == "# 1 passed, 1 failed, 1 error", "\(kind)")
    }

    @Test(arguments: cases)
    func json(_ kind: String, _ source: String, _ place: String, _ message: String, _ status: Int32) throws {
        let sandbox = try Sandbox(["t.marble": source])
        let run = marbles("run", sandbox.path("t.marble"), "--reporter", "json")
        #expect(run.code == status)
        let report = try JSONDecoder().decode(JSONReport.self, from: Data(run.stdout.utf8))
        #expect((report.summary.tests, report.summary.passed, report.summary.failed, report.summary.errors) == (3, 1, 1, 1), "\(kind)")
        #expect(report.summary.exitCode == Int(status), "\(kind)")
        let file = try #require(report.files.first)
        #expect(file.diagnostics.isEmpty, "\(kind)")
        #expect(file.tests.map(\.outcome) == ["passed", "error", "failed"], "\(kind)")
        #expect(file.tests[1].error.map { "\($0.line):\($0.column)" } == place, "\(kind)")
        #expect(file.tests[1].error?.message == message, "\(kind)")
        // Only a mistake found before the run is among the test's diagnostics (it did not run).
        #expect(file.tests[1].diagnostics.map(\.message) == (status == 2 ? [message] : []), "\(kind)")
    }

    @Test(arguments: cases)
    func github(_ kind: String, _ source: String, _ place: String, _ message: String, _ status: Int32) throws {
        let sandbox = try Sandbox(["t.marble": source])
        let run = marbles(["run", sandbox.path(), "--reporter", "github"], environment: ["GITHUB_WORKSPACE": sandbox.path()])
        #expect(run.code == status)
        let annotations = run.lines.filter { $0.hasPrefix("::error ") }
        #expect(annotations.count == 2, "\(kind): the error and the failure")
        let parts = place.split(separator: ":")
        #expect(annotations.contains { $0.hasPrefix("::error file=t.marble,line=\(parts[0]),col=\(parts[1]),title=marbles%3A second::\(message)") }, "\(kind)")
        #expect(annotations.contains { $0.hasPrefix("::error file=t.marble,line=\(Self.failingLine(source)),col=3,title=marbles%3A third::") }, "\(kind)")
    }

    /// A declaration no test uses: the file's own error, reported once, and every test runs.
    @Test func aBrokenDeclarationNoTestUsesIsTheFilesError() throws {
        let sandbox = try Sandbox(["t.marble": Self.file(second: "  hot    a   -1-|\n  expect a   -1-|", declarations: "struct Unused { var name: Strin }\n\n")])
        let path = sandbox.path("t.marble")
        let human = marbles("run", path)
        #expect(human.code == 2)
        #expect(human.stdout.hasPrefix("\(path)\n  \(path):1:27: error: cannot find type 'Strin' in scope\n"))
        #expect(human.lastLine == "2 passed, 1 failed, 1 error")
        let junit = try XMLDocument(data: Data(marbles("run", path, "--reporter", "junit").stdout.utf8), options: [])
        let cases = junit.rootElement()?.elements(forName: "testsuite").first?.elements(forName: "testcase") ?? []
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == ["(file)", "first", "second", "third"])
        let tap = try ReporterTests.TAP(marbles("run", path, "--reporter", "tap").stdout)
        #expect(tap.points.map(\.description) == ["\(path) › (file)", "\(path) › first", "\(path) › second", "\(path) › third"])
        let json = try JSONDecoder().decode(JSONReport.self, from: Data(marbles("run", path, "--reporter", "json").stdout.utf8))
        #expect(json.files.first?.diagnostics.map(\.message) == ["cannot find type 'Strin' in scope"])
        #expect(json.files.first?.tests.map(\.outcome) == ["passed", "passed", "failed"])
        let github = marbles(["run", sandbox.path(), "--reporter", "github"], environment: ["GITHUB_WORKSPACE": sandbox.path()])
        #expect(github.lines.contains { $0.hasPrefix("::error file=t.marble,line=1,col=27,title=marbles%3A t.marble::cannot find type 'Strin' in scope") })
    }

    /// marbles-svg draws the tests that ran and shows the mistake of the one that did not.
    @Test func marblesSVGDrawsTheOthers() throws {
        let sandbox = try Sandbox(["t.marble": Self.cases[0].1])
        let out = sandbox.path("out")
        let run = marblesSVG(sandbox.path("t.marble"), "-o", out)
        #expect(run.code == 2)
        #expect(run.stdout.contains("\(sandbox.path("t.marble")):8:31: error: expected expression after '+'"))
        let drawn = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(drawn == ["t--first.svg", "t--third.svg"])
        #expect(run.lastLine == "2 diagrams: 1 passed, 1 failed, 1 error")
    }

    /// `marbles trace` traces the tests that ran and shows the mistake of the one that did not.
    @Test func traceShowsTheOthers() throws {
        let sandbox = try Sandbox(["t.marble": Self.cases[0].1])
        let run = marbles("trace", sandbox.path("t.marble"))
        #expect(run.code == 2)
        #expect(run.stdout.contains("› first   ✓ passed"))
        #expect(run.stdout.contains("› second   ✗ stopped with an error\n\n  \(sandbox.path("t.marble")):8:31: error: expected expression after '+'"))
        #expect(run.stdout.contains("› third   ✗ failed"))
    }

    /// A document whose block has a test with a mistake is left as it is, its diagrams unwritten.
    @Test func aDocumentWithAMistakeInOneTestIsLeftAsItIs() throws {
        let text = "# T\n\n```marble\n" + Self.cases[0].1.replacingOccurrences(of: "-b-|", with: "-a-|") + "```\n"
        let sandbox = try Sandbox(["README.md": text])
        let run = marbles("doc", sandbox.path("README.md"))
        #expect(run.code == 2)
        #expect(run.stdout.contains("error: expected expression after '+'"))
        #expect(run.stdout.contains("a document with an error is left unchanged, its diagrams unwritten"))
        #expect(try sandbox.read("README.md") == text)
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("diagrams")))
    }

    /// `--filter` chooses tests of a file with a mistake in another; `--list` lists them all.
    @Test func filterAndListSeeEveryTest() throws {
        let sandbox = try Sandbox(["t.marble": Self.cases[0].1])
        let path = sandbox.path("t.marble")
        let listed = marbles("run", path, "--list")
        #expect(listed.code == 0)
        #expect(listed.lines.filter { $0.contains(" › ") } == ["\(path) › first", "\(path) › second", "\(path) › third"])
        let chosen = marbles("run", path, "--filter", "first")
        #expect(chosen.code == 0)
        #expect(chosen.lastLine == "1 passed, 0 failed")
    }
}
