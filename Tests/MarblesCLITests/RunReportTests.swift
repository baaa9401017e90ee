import Foundation
import MarbleDiff
import Testing
@testable import MarblesCLI

@Suite("marbles run: the human report")
struct RunReportTests {
    @Test func passingFileReportsEachTestAndExitsZero() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let run = marbles("run", sandbox.path("pass.marble"))
        #expect(run.code == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.report == """
            \(sandbox.path("pass.marble"))
              ✓ map doubles

            1 test in 1 file, T ms
            1 passed, 0 failed

            """)
    }

    @Test func failingFileDrawsAlignedRowsCaretAndSentence() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        let run = marbles("run", sandbox.path("fail.marble"))
        #expect(run.code == 1)
        #expect(run.report == """
            \(sandbox.path("fail.marble"))
              ✗ map doubles    \(sandbox.path("fail.marble")):4:3: expect doubled

                  input      -1-2-3-|
                  expected   -2-4-7-|
                  actual     -2-4-6-|
                                  ^ frame 5: expected 7, got 6

            1 test in 1 file, T ms
            0 passed, 1 failed

            """)
        // The caret stands under the differing frame's column.
        let expected = try #require(run.lines.first { $0.contains("expected   ") })
        let caret = try #require(run.lines.first { $0.contains("^ frame 5") })
        #expect(caret.firstIndex(of: "^").map { caret.distance(from: caret.startIndex, to: $0) }
                == expected.firstIndex(of: "7").map { expected.distance(from: expected.startIndex, to: $0) })
        #expect(run.lastLine == "0 passed, 1 failed")
    }

    @Test func completionDifferencesExplainEachFrameWithANote() throws {
        let sandbox = try Sandbox(["late.marble": """
            test "finishes too early"
              hot    input   -1-2-|
              let    same  = input.map { $0 }
              expect same    -1-2---|
            """])
        let run = marbles("run", sandbox.path("late.marble"))
        #expect(run.code == 1)
        #expect(run.stdout.contains("""
                  input      -1-2-|
                  expected   -1-2---|
                  actual     -1-2-|
                                  ^ frame 5: expected nothing, got finished
                                    ^ frame 7: expected finished, got nothing
                             (same had already finished at frame 5)
            """))
    }

    @Test func wideCellsWidenTheirColumnInEveryRow() throws {
        let sandbox = try Sandbox(["wide.marble": """
            test "inline literals"
              hot    input   -1-2-|
              let    big   = input.map { $0 * 100 }
              expect big     -{100}-{300}-|
            """])
        let run = marbles("run", sandbox.path("wide.marble"))
        #expect(run.stdout.contains("""
                  input      -1    -2    -|
                  expected   -{100}-{300}-|
                  actual     -{100}-{200}-|
                                    ^ frame 3: expected {300}, got {200}
            """))
    }

    @Test func subscriptionChecksLabelTheirRows() throws {
        let sandbox = try Sandbox(["subs.marble": """
            test "one subscription"
              cold   request  ---x|
              let    mapped = request.map { $0 }
              expect mapped   ---x|
              expect request.subscriptions  --^---!
            """])
        let run = marbles("run", sandbox.path("subs.marble"))
        #expect(run.code == 1)
        #expect(run.stdout.contains("      request                          ---x|  (cold: plays from each subscription)\n"))
        #expect(run.stdout.contains("      expected request.subscriptions   --^---!\n"))
        #expect(run.stdout.contains("      actual request.subscriptions     ^---!\n"))
        #expect(run.stdout.contains("                                         ^ frame 2: expected the first subscription to request here"))
    }

    @Test func onlyTheSourcesFeedingTheFailingStreamAreDrawn() throws {
        let sandbox = try Sandbox(["two.marble": """
            test "two chains"
              hot    a   -1-2-|
              hot    b   -5-6-|
              let    x = a.map { $0 * 2 }
              let    y = b.map { $0 }
              expect x   -2-5-|
              expect y   -5-6-|
            """])
        let run = marbles("run", sandbox.path("two.marble"))
        #expect(run.code == 1)
        #expect(run.stdout.contains("""

                  a            -1-2-|
                  expected x   -2-5-|
                  actual x     -2-4-|
                                  ^ frame 3: expected 5, got 4

            """))
        #expect(!run.stdout.contains("      b "))
    }

    @Test func malformedFileGivesPathLineColumnAndCaretAndOtherFilesStillRun() throws {
        let sandbox = try Sandbox(["a-bad.marble": Samples.malformed, "b-good.marble": Samples.passing])
        let run = marbles("run", sandbox.path())
        #expect(run.code == 2)
        let bad = sandbox.path("a-bad.marble")
        #expect(run.report.hasPrefix("""
            \(bad)
              ✗ a broken group    \(bad):2:23

                \(bad):2:23: error: a group cannot contain '-'
                  hot    input   -1-(2-3)-|
                                      ^
                  hint: a group occupies one frame; close it with ')' before '-'

            """))
        #expect(run.stdout.contains("\(sandbox.path("b-good.marble"))\n  ✓ map doubles\n"))
        #expect(run.report.hasSuffix("2 tests in 2 files, T ms\n1 passed, 0 failed, 1 error\n"))
    }

    @Test func aFileWhoseStructureIsBrokenRunsNoTest() throws {
        let sandbox = try Sandbox(["a-bad.marble": Samples.unrunnable, "b-good.marble": Samples.passing])
        let run = marbles("run", sandbox.path())
        #expect(run.code == 2)
        let bad = sandbox.path("a-bad.marble")
        #expect(run.report.hasPrefix("""
            \(bad):4:6: error: duplicate test name "twice"
              test "twice"
                   ^^^^^^^
              hint: test names must be unique within a file; the first is at line 1

            """))
        #expect(run.report.hasSuffix("1 test in 2 files, T ms\n1 passed, 0 failed, 1 error\n"))
    }

    @Test func runtimeErrorShowsTheExpressionAndFrameAndCountsAsAnError() throws {
        let sandbox = try Sandbox(["error.marble": Samples.runtimeError])
        let path = sandbox.path("error.marble")
        let run = marbles("run", path)
        #expect(run.code == 1)
        #expect(run.report == """
            \(path)
              ✗ division by zero    \(path):3:29

                \(path):3:29: error: division by zero in 12 / 0 (at frame 3)
                  let    q = input.map { 12 / $0 }
                                            ^

            1 test in 1 file, T ms
            0 passed, 0 failed, 1 error

            """)
    }

    @Test func missingPathIsAnErrorAndTheRestStillRuns() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let missing = sandbox.path("nope.marble")
        let run = marbles("run", missing, sandbox.path("pass.marble"))
        #expect(run.code == 2)
        #expect(run.stdout.hasPrefix("\(missing): error: no such file or directory\n\n"))
        #expect(run.stdout.contains("  ✓ map doubles"))
        #expect(run.lastLine == "1 passed, 0 failed, 1 error")
    }

    @Test func failedAndBrokenTogetherExitTwo() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing, "bad.marble": Samples.malformed])
        let run = marbles("run", sandbox.path())
        #expect(run.code == 2)
        #expect(run.lastLine == "0 passed, 1 failed, 1 error")
    }

    @Test func longIdleStretchIsCompressed() throws {
        let sandbox = try Sandbox(["long.marble": Samples.longIdle])
        let run = marbles("run", sandbox.path("long.marble"))
        #expect(run.code == 1)
        #expect(run.stdout.contains("""
                  input      -1 …1000002… 2-|
                  expected   -1 …1000002… 3-|
                  actual     -1 …1000002… 2-|
                                          ^ frame 1000004: expected 3, got 2
            """))
        #expect(run.lines.allSatisfy { $0.count <= TextDiagramLayout.maximumWidth })
    }

    @Test func shortIdleStretchIsDrawnInFull() throws {
        let sandbox = try Sandbox(["short.marble": """
            test "twenty idle frames"
              hot    input   -1- 20ms -2-|
              expect input   -1- 20ms -3-|
            """])
        let run = marbles("run", sandbox.path("short.marble"))
        #expect(run.stdout.contains("      expected   -1" + String(repeating: "-", count: 22) + "3-|\n"))
        #expect(!run.stdout.contains("…"))
    }

    /// Issue 10: a failing test names its failing `expect` line as `path:line:column` — relative
    /// to the working directory when the file is inside it — and the stream it checked; each
    /// further failing check names its own line above its diagram.
    @Test func aFailureNamesItsExpectLineAsPathLineColumn() throws {
        let sandbox = try Sandbox(["two.marble": """
            test "two fail"
              hot    a  -1-2|
              let    b  = a.map { $0 * 2 }
              expect b  -2-5|
                expect a  -1-3|
            """])
        let path = sandbox.path("two.marble")
        let run = marbles("run", path)
        #expect(run.lines[1] == "  ✗ two fail    \(path):4:3: expect b")
        #expect(run.lines.contains("      \(path):5:5: expect a"))
        #expect(!run.lines.contains("      \(path):4:3: expect b"), "the first failing check is named on the test's line")
    }

    @Test func pathsInsideTheWorkingDirectoryAreWrittenRelativeToIt() {
        #expect(HumanReporter.relativeToWorkingDirectory("/work/repo/marbles/a.marble", workingDirectory: "/work/repo") == "marbles/a.marble")
        #expect(HumanReporter.relativeToWorkingDirectory("/work/repo/marbles/a.marble", workingDirectory: "/work/repo/") == "marbles/a.marble")
        #expect(HumanReporter.relativeToWorkingDirectory("/work/repository/a.marble", workingDirectory: "/work/repo") == "/work/repository/a.marble")
        #expect(HumanReporter.relativeToWorkingDirectory("marbles/a.marble", workingDirectory: "/elsewhere") == "marbles/a.marble")
        #expect(HumanReporter.relativeToWorkingDirectory("/work/repo", workingDirectory: "/work/repo") == "/work/repo")
    }
}
