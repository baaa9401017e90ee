import Foundation
import Testing
@testable import MarblesCLI

/// Issue 10: a green `marbles run` can be trusted — a selection that runs nothing is not a
/// success, a stream nothing checks is a warning in every reporter, a run that never settles
/// is an error, and `--update` writes no expectation for it.
@Suite("marbles run: an oracle that cannot pass by accident")
struct OracleTests {
    // MARK: Nothing runs, nothing passes

    @Test func aFilterThatChoosesNoTestIsAnError() throws {
        let sandbox = try Sandbox(["a.marble": Samples.passing, "b.marble": Samples.failing])
        let run = marbles("run", sandbox.path(), "--filter", "nothing like it")
        #expect(run.code == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "marbles: error: --filter 'nothing like it' matches none of the 2 tests (as \"FILE › TEST\"), "
                + "so nothing ran; --pass-with-no-tests makes that a success\n")
        let two = marbles("run", sandbox.path(), "--filter", "x1", "--filter", "/x2/")
        #expect(two.stderr.hasPrefix("marbles: error: --filter 'x1' / --filter '/x2/' match none of the 2 tests"))
    }

    @Test func anEmptyShardIsAnError() throws {
        let sandbox = try Sandbox(["a.marble": Samples.passing, "b.marble": Samples.failing])
        let run = marbles("run", sandbox.path(), "--shard", "3/3")
        #expect(run.code == 2)
        #expect(run.stderr == "marbles: error: shard 3/3 gets none of the 2 tests, so nothing ran; --pass-with-no-tests makes that a success\n")
        let filtered = marbles("run", sandbox.path(), "--filter", "map", "--shard", "3/3")
        #expect(filtered.stderr.hasPrefix("marbles: error: shard 3/3 gets none of the 2 tests --filter 'map' chooses, so nothing ran"))
        // A shard that does get a test runs as before.
        #expect(marbles("run", sandbox.path(), "--shard", "1/3").code == 0)
    }

    @Test func passWithNoTestsMakesAnEmptySelectionASuccess() throws {
        let sandbox = try Sandbox(["a.marble": Samples.passing])
        let run = marbles("run", sandbox.path(), "--filter", "nothing", "--pass-with-no-tests")
        #expect(run.code == 0)
        #expect(run.lastLine == "0 passed, 0 failed")
        #expect(marbles("run", sandbox.path(), "--shard", "2/2", "--pass-with-no-tests").code == 0)
        // Without a selection the option changes nothing.
        #expect(marbles("run", sandbox.path(), "--pass-with-no-tests").code == 0)
    }

    @Test func aMissingPathIsStillReportedWhenNothingIsChosen() throws {
        let sandbox = try Sandbox(["a.marble": Samples.passing])
        let run = marbles("run", sandbox.path(), sandbox.path("gone.marble"), "--filter", "nothing")
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("\(sandbox.path("gone.marble")): error: no such file or directory\nmarbles: error: --filter 'nothing'"))
    }

    // MARK: A stream nothing checks

    static let unchecked = """
        test "unused"
          hot    a  -1-2|
          hot    z  --x|
          let    b  = a.map { $0 * 2 }
          let    c  = b.filter { $0 > 2 }
          let    d  = a.map { $0 }
          let    e  = d.map { $0 }
          expect a  -1-2|
          expect e  -1-2|

        """

    @Test func aStreamNothingChecksIsAWarningInTheHumanReport() throws {
        let sandbox = try Sandbox(["u.marble": Self.unchecked])
        let path = sandbox.path("u.marble")
        let run = marbles("run", path)
        #expect(run.code == 0, "a warning does not fail the run")
        // `z` and `c` are named; `b` is not (`c` is built from it), nor `d` (`e`, checked, is).
        #expect(run.report == """
            \(path)
              ✓ unused
                \(path):3:10: warning: 'z' is never checked: no expect line names it or a stream built from it
                  hot    z  --x|
                         ^
                  hint: add `expect z …`, or remove it
                \(path):5:10: warning: 'c' is never checked: no expect line names it or a stream built from it
                  let    c  = b.filter { $0 > 2 }
                         ^
                  hint: add `expect c …`, or remove it

            1 test in 1 file, T ms
            1 passed, 0 failed, 2 warnings

            """)
    }

    @Test func everyReporterCarriesTheWarnings() throws {
        let sandbox = try Sandbox(["u.marble": Self.unchecked])
        let path = sandbox.path("u.marble")
        let github = marbles("run", path, "--reporter", "github")
        #expect(github.lines.first == "::warning file=\(GitHubReporter.escapeProperty(path)),line=3,col=10,title=marbles%3A unused::"
                + "'z' is never checked: no expect line names it or a stream built from it%0Ahint: add `expect z …`, or remove it")
        #expect(github.lines.filter { $0.hasPrefix("::warning ") }.count == 2)

        let tap = marbles("run", path, "--reporter", "tap")
        #expect(tap.lines.contains("# warning: \(path):5:10: 'c' is never checked: no expect line names it or a stream built from it"))
        #expect(tap.lastLine == "# 1 passed, 0 failed, 2 warnings")

        let json = try JSONDecoder().decode(JSONReport.self, from: Data(marbles("run", path, "--reporter", "json").stdout.utf8))
        #expect(json.summary.warnings == 2)
        #expect(json.files.first?.tests.first?.warnings.map { [$0.line, $0.column] } == [[3, 10], [5, 10]])

        let junit = marbles("run", path, "--reporter", "junit")
        // XMLText writes both quotes as references in content too (one escaper for SVG, JUnit and HTML).
        #expect(junit.stdout.contains("<system-out>\(path):3:10: warning: &#39;z&#39; is never checked: no expect line names it or a stream built from it\n"))
    }

    @Test func theCatalogueHasNoUncheckedStreams() {
        let run = marbles("run", catalogueFolder)
        #expect(!run.stdout.contains("warning:"))
        #expect(!run.lastLine.contains("warning"))
    }

    // MARK: Runs that never settle

    static let endless = """
        frame 1s

        test "ticks"
          let    ticks = Timer.publish(every: 2, on: RunLoop.main, in: .common).autoconnect()
          expect ticks   --2-4

        """

    @Test func aRunThatNeverSettlesIsAnErrorNamingWhatKeptItBusy() throws {
        let sandbox = try Sandbox(["t.marble": Self.endless])
        let path = sandbox.path("t.marble")
        let run = marbles("run", path)
        #expect(run.code == 1)
        #expect(run.lines[1] == "  ✗ ticks    \(path):4:10")
        #expect(run.lines[3] == "    \(path):4:10: error: the run never settles: `ticks` kept the scheduler busy after the test's longest line "
                + "ended at frame 4 (1000 values in 1001 actions), so the run was stopped (at frame 2006)")
        #expect(run.lastLine == "0 passed, 0 failed, 1 error")
    }

    /// Issue 17: on an endless Timer each `run -u` wrote a longer line.
    @Test func updateRefusesATestThatNeverSettles() throws {
        let sandbox = try Sandbox(["t.marble": Self.endless])
        let path = sandbox.path("t.marble")
        let run = marbles("run", path, "--update")
        #expect(run.code == 1)
        #expect(run.stdout.contains("  not updated: test \"ticks\" never settles (line 4); --update writes no expectation for it and leaves the file unchanged\n"))
        #expect(try sandbox.read("t.marble") == Self.endless)
        // Cancelled where its expectation ends, it settles, and --update has nothing to do.
        let ended = Self.endless.replacingOccurrences(of: "  expect ticks   --2-4\n", with: "  subscribe ticks ^----!\n  expect ticks   --2-4\n")
        try sandbox.write("t.marble", ended)
        #expect(marbles("run", path).code == 0)
        #expect(marbles("run", path, "--update").code == 0)
        #expect(try sandbox.read("t.marble") == ended)
    }

    /// `trace` and `run --svg` see the same run as `run`: late events, and the same limits.
    @Test func traceAndDiagramsUseTheSameRun() throws {
        let sandbox = try Sandbox(["late.marble": """
            test "late events"
              hot    a  -a|
              let    d = a.delay(for: 10, scheduler: RunLoop.main)
              expect d  --

            """, "t.marble": Self.endless])
        let trace = marbles("trace", sandbox.path("late.marble"))
        #expect(trace.lines.contains { $0.hasPrefix("     11  d") && $0.hasSuffix("receive value: (a)") })
        let svg = marbles("run", sandbox.path("late.marble"), "--svg", sandbox.path("svg"))
        #expect(svg.code == 1)
        let diagrams = try FileManager.default.contentsOfDirectory(atPath: sandbox.path("svg"))
        #expect(diagrams.count == 1)
        let endless = marbles("trace", sandbox.path("t.marble"))
        #expect(endless.stdout.contains("error: the run never settles: `ticks` kept the scheduler busy"))
    }
}
