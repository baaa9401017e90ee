import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import MarblesCLI

@Suite("marbles run --reporter: junit, tap, json, github, several at once")
struct ReporterTests {
    // MARK: JUnit

    @Test func junitHasTheSchemaShapeCISystemsRead() throws {
        let sandbox = try Sandbox(Samples.mixed)
        let run = marbles("run", sandbox.path(), "--reporter", "junit", "--jobs", "1")
        #expect(run.code == 2, "a malformed file makes the exit status 2")
        let document = try XMLDocument(data: Data(run.stdout.utf8), options: [])
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "7")
        #expect(root.attribute(forName: "failures")?.stringValue == "2")
        #expect(root.attribute(forName: "errors")?.stringValue == "2")

        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue ?? "" } == [
            sandbox.path("a/fail.marble"), sandbox.path("a/pass.marble"), sandbox.path("b/error.marble"),
            sandbox.path("b/malformed.marble"), sandbox.path("c/two.marble"),
        ])
        for suite in suites {
            let cases = suite.elements(forName: "testcase")
            #expect(suite.attribute(forName: "tests")?.stringValue == String(cases.count))
            #expect(suite.attribute(forName: "failures")?.stringValue == String(cases.filter { !$0.elements(forName: "failure").isEmpty }.count))
            #expect(suite.attribute(forName: "errors")?.stringValue == String(cases.filter { !$0.elements(forName: "error").isEmpty }.count))
            #expect(Double(suite.attribute(forName: "time")?.stringValue ?? "") != nil)
            for testcase in cases {
                for attribute in ["name", "classname", "file", "time"] {
                    #expect(testcase.attribute(forName: attribute) != nil, "testcase needs \(attribute)")
                }
            }
        }

        let fail = try #require(suites.first { $0.attribute(forName: "name")?.stringValue == sandbox.path("a/fail.marble") })
        let testcase = try #require(fail.elements(forName: "testcase").first)
        #expect(testcase.attribute(forName: "name")?.stringValue == "map doubles")
        #expect(testcase.attribute(forName: "line")?.stringValue == "1")
        #expect(testcase.attribute(forName: "classname")?.stringValue?.hasSuffix("a.fail") == true)
        let failure = try #require(testcase.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue == "doubled: frame 5: expected 7, got 6")
        #expect(failure.stringValue == """
            input      -1-2-3-|
            expected   -2-4-7-|
            actual     -2-4-6-|
                            ^ frame 5: expected 7, got 6
            """)

        let error = try #require(suites.first { $0.attribute(forName: "name")?.stringValue == sandbox.path("b/error.marble") }?
            .elements(forName: "testcase").first?.elements(forName: "error").first)
        #expect(error.attribute(forName: "message")?.stringValue?.contains("division by zero") == true)

        // A mistake in a test is that test's error.
        let malformed = try #require(suites.first { $0.attribute(forName: "name")?.stringValue == sandbox.path("b/malformed.marble") })
        #expect(malformed.elements(forName: "testcase").first?.attribute(forName: "name")?.stringValue == "a broken group")
        let mistake = malformed.elements(forName: "testcase").first?.elements(forName: "error").first
        #expect(mistake?.attribute(forName: "type")?.stringValue == "mistake in the test")
        #expect(mistake?.stringValue?.contains("a group cannot contain '-'") == true)
    }

    @Test func junitEscapesMarkupInNamesAndMessages() throws {
        let sandbox = try Sandbox(["x.marble": """
            test "a <b> & \\"c\\""
              hot    x   -a-|
              let    y = x.map { "<&>" }
              expect y   -a-|
            """])
        let run = marbles("run", sandbox.path("x.marble"), "--reporter", "junit")
        let document = try XMLDocument(data: Data(run.stdout.utf8), options: [])
        let testcase = try #require(document.rootElement()?.elements(forName: "testsuite").first?.elements(forName: "testcase").first)
        #expect(testcase.attribute(forName: "name")?.stringValue == "a <b> & \"c\"")
        #expect(testcase.elements(forName: "failure").first?.stringValue?.contains("{\"<&>\"}") == true)
    }

    // MARK: TAP

    /// A small TAP 13 reader: the version, the test points, their YAML blocks and the plan.
    struct TAP {
        struct Point {
            var ok: Bool
            var number: Int
            var description: String
            var yaml: [String] = []
        }
        var version: String?
        var points: [Point] = []
        var plan: Int?
        var comments: [String] = []

        init(_ text: String) throws {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            var index = 0
            while index < lines.count {
                let line = lines[index]
                index += 1
                if line.hasPrefix("TAP version ") {
                    version = String(line.dropFirst("TAP version ".count))
                } else if let match = line.wholeMatch(of: /(not ok|ok) (\d+) - (.*)/) {
                    points.append(Point(ok: match.1 == "ok", number: Int(match.2) ?? -1, description: String(match.3)))
                } else if line == "  ---" {
                    var yaml: [String] = []
                    while index < lines.count, lines[index] != "  ..." {
                        yaml.append(lines[index])
                        index += 1
                    }
                    try #require(index < lines.count, "a YAML block must end with '  ...'")
                    index += 1
                    try #require(!points.isEmpty, "a YAML block follows a test point")
                    points[points.count - 1].yaml = yaml
                } else if let match = line.wholeMatch(of: /1\.\.(\d+)/) {
                    plan = Int(match.1)
                } else if line.hasPrefix("#") {
                    comments.append(line)
                } else {
                    Issue.record("not a TAP line: \(line)")
                }
            }
        }
    }

    @Test func tapParsesWithAPlanAndYAMLBlocks() throws {
        let sandbox = try Sandbox(Samples.mixed)
        let run = marbles("run", sandbox.path(), "--reporter", "tap")
        let tap = try TAP(run.stdout)
        #expect(tap.version == "13")
        #expect(tap.plan == tap.points.count)
        #expect(tap.points.map(\.number) == Array(1...tap.points.count))
        #expect(tap.points.filter(\.ok).count == 3)
        #expect(tap.points.count == 7)
        let failed = try #require(tap.points.first { $0.description == "\(sandbox.path("a/fail.marble")) › map doubles" })
        #expect(!failed.ok)
        #expect(failed.yaml.contains("  message: \"doubled: frame 5: expected 7, got 6\""))
        #expect(failed.yaml.contains("  severity: fail"))
        #expect(failed.yaml.contains("    line: 4"))
        #expect(failed.yaml.contains("    actual     -2-4-6-|"))
        let broken = try #require(tap.points.first { $0.description.hasSuffix("malformed.marble › a broken group") })
        #expect(broken.yaml.contains("  severity: error"))
        #expect(broken.yaml.contains("  message: \"a group cannot contain '-'\""))
        #expect(tap.comments.last == "# 3 passed, 2 failed, 2 errors")
    }

    @Test func tapEscapesHashesInDescriptions() throws {
        let sandbox = try Sandbox(["x.marble": """
            test "issue #12"
              hot    x   -a-|
              expect x   -a-|
            """])
        let tap = try TAP(marbles("run", sandbox.path("x.marble"), "--reporter", "tap").stdout)
        #expect(tap.points.first?.description.hasSuffix("issue \\#12") == true)
    }

    // MARK: JSON

    @Test func jsonDecodesWithEveryEventOfExpectedAndActual() throws {
        let sandbox = try Sandbox(Samples.mixed)
        let run = marbles("run", sandbox.path(), "--reporter", "json")
        let report = try JSONDecoder().decode(JSONReport.self, from: Data(run.stdout.utf8))
        #expect(report.version == 1)
        #expect(report.summary.tests == 7, "a test with a mistake counts as an error")
        #expect(report.summary.passed == 3)
        #expect(report.summary.failed == 2)
        #expect(report.summary.errors == 2)
        #expect(report.summary.exitCode == 2)
        #expect(report.files.count == 5)

        let fail = try #require(report.files.first { $0.path.hasSuffix("a/fail.marble") })
        let check = try #require(fail.tests.first?.checks.first)
        #expect(check.passed == false)
        #expect(check.expected.marbles == "-2-4-7-|")
        #expect(check.actual.marbles == "-2-4-6-|")
        #expect(check.actual.events.map(\.frame) == [1, 3, 5, 7])
        #expect(check.actual.events.map(\.type) == ["value", "value", "value", "finished"])
        #expect(check.actual.events.map(\.value) == ["2", "4", "6", nil])
        #expect(check.expected.events.map(\.value) == ["2", "4", "7", nil])
        #expect(check.differences.map(\.frame) == [5])
        #expect(fail.tests.first?.sources.first?.timeline.marbles == "-1-2-3-|")

        let malformed = try #require(report.files.first { $0.path.hasSuffix("malformed.marble") })
        #expect(malformed.diagnostics.isEmpty)
        #expect(malformed.tests.map(\.outcome) == ["error"])
        #expect(malformed.tests.first?.diagnostics.map(\.message) == ["a group cannot contain '-'"])
        #expect(malformed.tests.first?.error?.message == "a group cannot contain '-'")

        let error = try #require(report.files.first { $0.path.hasSuffix("error.marble") }?.tests.first)
        #expect(error.outcome == "error")
        #expect(error.error?.frame == 3)
    }

    @Test func jsonCarriesSubscriptionEvents() throws {
        let sandbox = try Sandbox(["s.marble": """
            test "subscriptions"
              hot    x   -a-b-|
              expect x   -a-b-|
              expect x.subscriptions ^--!
            """])
        let report = try JSONDecoder().decode(JSONReport.self, from: Data(marbles("run", sandbox.path(), "--reporter", "json").stdout.utf8))
        let check = try #require(report.files.first?.tests.first?.checks.last)
        #expect(check.kind == "subscriptions")
        #expect(check.expected.events.map(\.type) == ["subscribe", "cancel"])
        #expect(check.actual.events.map { "\($0.frame):\($0.type)" } == ["0:subscribe", "5:cancel"])
    }

    // MARK: GitHub

    @Test func githubAnnotatesTheExpectLineWithTheDiagram() throws {
        let sandbox = try Sandbox(Samples.mixed)
        let run = marbles(["run", sandbox.path(), "--reporter", "github"], environment: ["GITHUB_WORKSPACE": sandbox.path()])
        let lines = run.lines.filter { !$0.isEmpty }
        #expect(lines.allSatisfy { $0.hasPrefix("::error ") })
        #expect(lines.count == 4, "two failures, one runtime error, one file mistake")
        let failure = try #require(lines.first { $0.contains("file=a/fail.marble") })
        #expect(failure.hasPrefix("::error file=a/fail.marble,line=4,col=3,title=marbles%3A map doubles::doubled: frame 5: expected 7, got 6%0A%0Ainput      -1-2-3-|%0A"))
        #expect(!failure.contains("\n"))
        let broken = try #require(lines.first { $0.contains("file=b/malformed.marble") })
        #expect(broken.contains(",line=2,col="))
        let error = try #require(lines.first { $0.contains("file=b/error.marble") })
        #expect(error.contains("line=3,col=") && error.contains("division by zero"))
    }

    @Test func githubEscaping() {
        #expect(GitHubReporter.escapeData("50% done\r\nnext") == "50%25 done%0D%0Anext")
        #expect(GitHubReporter.escapeProperty("a:b,c") == "a%3Ab%2Cc")
    }

    // MARK: Several at once

    @Test func humanToTheTerminalAndDocumentsToFiles() throws {
        let sandbox = try Sandbox(Samples.mixed)
        let alone = marbles("run", sandbox.path(), "--jobs", "1")
        let several = marbles("run", sandbox.path(), "--jobs", "1", "--reporter", "human", "--reporter", "junit", "--output", sandbox.path("out/report.xml"),
                              "--reporter", "json", "--output=\(sandbox.path("out/report.json"))", "--reporter", "tap", "-o", sandbox.path("out/report.tap"))
        #expect(several.code == alone.code)
        #expect(several.report == alone.report, "the human report is the same with other reporters alongside")
        let xml = try XMLDocument(data: sandbox.data("out/report.xml"), options: [])
        #expect(xml.rootElement()?.name == "testsuites")
        let json = try JSONDecoder().decode(JSONReport.self, from: sandbox.data("out/report.json"))
        #expect(json.summary.tests == 7)
        let tap = try TAP(sandbox.read("out/report.tap"))
        #expect(tap.plan == 7)
        #expect(!(try sandbox.read("out/report.xml")).contains("\u{1B}["))
    }

    @Test func humanAndGitHubShareStandardOutput() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        let run = marbles("run", sandbox.path(), "--reporter", "human", "--reporter", "github")
        #expect(run.code == 1)
        #expect(run.stdout.contains("  ✗ map doubles"))
        #expect(run.lines.contains { $0.hasPrefix("::error file=") })
    }

    @Test func outputDashIsStandardOutput() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let run = marbles("run", sandbox.path(), "--reporter", "human", "--output", sandbox.path("human.txt"), "--reporter", "json", "--output", "-")
        #expect(try JSONDecoder().decode(JSONReport.self, from: Data(run.stdout.utf8)).summary.passed == 1)
        #expect(try sandbox.read("human.txt").hasSuffix("1 passed, 0 failed\n"))
    }

    @Test func humanToAFileHasNoColour() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        let run = marbles(["run", sandbox.path(), "--reporter", "human", "--output", sandbox.path("human.txt")], terminal: true)
        #expect(run.stdout.isEmpty)
        let text = try sandbox.read("human.txt")
        #expect(text.contains("✗ map doubles"))
        #expect(!text.contains("\u{1B}["))
    }

    @Test func aReportThatCannotBeWrittenIsAnError() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing, "blocker": "a file, not a folder"])
        let run = marbles("run", sandbox.path("pass.marble"), "--reporter", "junit", "--output", sandbox.path("blocker/report.xml"))
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("marbles: error: "))
    }

    @Test(arguments: [
        (["--reporter", "junit", "--reporter", "json"], "the junit and json reporters would both write to standard output; give one of them --output FILE"),
        (["--reporter", "human", "--reporter", "tap"], "the tap and human reporters would both write to standard output; give one of them --output FILE"),
        (["--output", "x.xml"], "--output names the file of the reporter before it; write --reporter NAME --output FILE"),
        (["--reporter", "junit", "--output", "a", "--output", "b"], "the junit reporter already writes to 'a'"),
        (["--reporter", "junit", "--output", "a", "--reporter", "json", "--output", "a"], "two reporters cannot both write to 'a'"),
        (["--reporter", "xml"], "unknown reporter 'xml' (known: human, junit, tap, json, github)"),
        (["--reporter", "jnuit"], "unknown reporter 'jnuit'; did you mean 'junit'? (known: human, junit, tap, json, github)"),
        (["--reporter"], "option '--reporter' needs a value"),
        (["--reporter", "junit", "--slowest", "3"], "--slowest adds to the human report; add --reporter human"),
    ])
    func reporterUsageErrors(_ arguments: [String], _ message: String) {
        let run = marbles(["run"] + arguments)
        #expect(run.code == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("marbles: error: \(message)\nusage: marbles run"))
    }
}
