import Foundation
import Testing
@testable import MarblesCLI
import MarbleRewrite
import MarbleSpec
import MarbleSyntax

@Suite("marbles run --update: snapshot rewriting")
struct UpdateTests {
    /// The lines of `text`, split where the parser splits them, with their line breaks.
    func lines(_ text: String) -> [SourceLines.Line] { SourceLines(text).lines }

    /// Line numbers whose text differs between two versions with the same number of lines.
    func differing(_ old: String, _ new: String) -> [Int] {
        zip(lines(old), lines(new)).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset + 1 }
    }

    static let spec = """
        // Prices: a comment that must survive.
        frame 100ms
        values A = 42, B = "hello"

        test "doubles"     // a comment after the name
          hot    prices   -1-2-3-|        // aligned comment
          let    doubled = prices.map { $0 * 2 }
          expect doubled  -2-4-7-|        // the snapshot

        test "named and new values"
          hot    x   -a-b-|
          let    y = x.map { $0 == "a" ? 42 : 99 }
          expect y   -A-A-|

        test "already right"
          hot    x   -a-b-|
          expect x   -a-b-|

        """

    /// Issue 29, item 12: `--update` wrote `{Double.nan}`, which never matches (NaN equals
    /// nothing, not even itself): the test failed for ever. The line is left as it was, and the
    /// report says why; the other lines of the file are updated.
    @Test func aLineWhoseStreamSendsNaNIsNotRewritten() throws {
        let text = """
            test "nan"
              hot    s   -1-2-|
              let    r = s.map { _ in Double.nan }
              expect r   -----|

            test "doubled"
              hot    s   -1-2-|
              let    d = s.map { $0 * 2 }
              expect d   -----|

            """
        let sandbox = try Sandbox(["nan.marble": text])
        let run = marbles("run", "-u", sandbox.path("nan.marble"))
        #expect(run.code == 1)
        #expect(run.stdout.contains([
            "                  ^ frame 1: expected nothing, got {Double.nan}",
            "                               ^ frame 3: expected nothing, got {Double.nan}",
            "                 (--update does not rewrite this line: at frame 1 r sent {Double.nan}, and NaN equals nothing, not even itself (as in Swift), "
                + "so no value written here can match it; check it with a matcher such as {where: $0.isNaN})",
        ].joined(separator: "\n")), "\(run.stdout)")
        #expect(try String(contentsOfFile: sandbox.path("nan.marble"), encoding: .utf8) == text.replacingOccurrences(of: "expect d   -----|", with: "expect d   -2-4-|"))
        let again = marbles("run", sandbox.path("nan.marble"))
        #expect(again.code == 1)
        #expect(again.stdout.contains("1 passed, 1 failed"))
    }

    @Test func failingFileUpdatedThenPassesAndOnlyExpectLinesChange() throws {
        let sandbox = try Sandbox(["spec.marble": Self.spec])
        let before = marbles("run", sandbox.path("spec.marble"))
        #expect(before.code == 1)
        let update = marbles("run", sandbox.path("spec.marble"), "--update")
        #expect(update.code == 0, "the report is that of the updated file")
        let after = try sandbox.read("spec.marble")
        #expect(differing(Self.spec, after) == [8, 13])
        #expect(lines(after)[7].text == "  expect doubled  -2-4-6-|        // the snapshot")
        #expect(lines(after)[12].text == "  expect y   -A-{99}-|")
        #expect(lines(Self.spec).count == lines(after).count)
        let rerun = marbles("run", sandbox.path("spec.marble"))
        #expect(rerun.code == 0)
        #expect(rerun.lastLine == "3 passed, 0 failed")

        #expect(update.stdout.contains("""
              ✓ doubles  (updated)
              ✓ named and new values  (updated)
              ✓ already right

              updated spec.marble:8
                - expect doubled  -2-4-7-|        // the snapshot
                + expect doubled  -2-4-6-|        // the snapshot
              updated spec.marble:13
                - expect y   -A-A-|
                + expect y   -A-{99}-|
            """))
        #expect(update.stdout.contains("updated 2 expect lines in 1 file\n3 passed, 0 failed\n"))

        // A second update finds nothing to do and leaves the bytes alone.
        let bytes = try sandbox.data("spec.marble")
        let again = marbles("run", sandbox.path("spec.marble"), "--update")
        #expect(again.code == 0)
        #expect(!again.stdout.contains("updated"))
        #expect(try sandbox.data("spec.marble") == bytes)
    }

    @Test func lineBreaksUnicodeAndAMissingFinalNewlineSurvive() throws {
        let source = "// café ☕️\r\ntest \"crlf\"\r\n  hot    x   -a-b-|\r\n  expect x   -a-c-|  // ünïcödé\r\n\r\ntest \"tail\"\r\n  hot    x   -1-|\r\n  expect x   -2-|"
        let sandbox = try Sandbox(["crlf.marble": source])
        let run = marbles("run", sandbox.path("crlf.marble"), "--update")
        #expect(run.code == 0)
        let expected = "// café ☕️\r\ntest \"crlf\"\r\n  hot    x   -a-b-|\r\n  expect x   -a-b-|  // ünïcödé\r\n\r\ntest \"tail\"\r\n  hot    x   -1-|\r\n  expect x   -1-|"
        #expect(try sandbox.data("crlf.marble") == Data(expected.utf8))
    }

    @Test func aFileWhoseStructureIsBrokenIsNeverTouched() throws {
        let broken = Samples.failing + "\ntest \"map doubles\"\n  hot x -a-|\n  expect x -b-|\n"
        let sandbox = try Sandbox(["broken.marble": broken, "good.marble": Samples.failing])
        let run = marbles("run", sandbox.path(), "--update")
        #expect(run.code == 2)
        #expect(try sandbox.read("broken.marble") == broken)
        #expect(run.stdout.contains("duplicate test name \"map doubles\""))
        #expect(try sandbox.read("good.marble").contains("expect doubled -2-4-6-|"), "other files are still updated")
        #expect(try sandbox.listing() == ["broken.marble", "good.marble"], "no temporary file is left behind")
    }

    /// A test with a mistake did not run: it is left as it is, like one that stopped with a
    /// runtime error, and the file's other tests are updated.
    @Test func aTestWithAMistakeIsLeftAloneAndTheOthersAreUpdated() throws {
        let mistaken = "\ntest \"broken\"\n  hot x -(a-b)-|\n  expect x -a-|\n"
        let sandbox = try Sandbox(["file.marble": Samples.failing + mistaken])
        let run = marbles("run", sandbox.path(), "--update")
        #expect(run.code == 2, "the mistake is still there")
        #expect(try sandbox.read("file.marble") == Samples.failing.replacingOccurrences(of: "-2-4-7-|", with: "-2-4-6-|") + mistaken)
        #expect(run.stdout.contains("✗ broken"))
        #expect(run.stdout.contains("error: a group cannot contain '-'"))
        #expect(run.lastLine == "1 passed, 0 failed, 1 error")
    }

    @Test func aTestThatStoppedWithARuntimeErrorIsNotUpdated() throws {
        let sandbox = try Sandbox(["error.marble": Samples.runtimeError])
        let run = marbles("run", sandbox.path("error.marble"), "--update")
        #expect(run.code == 1)
        #expect(try sandbox.read("error.marble") == Samples.runtimeError)
    }

    @Test func aPassingFileIsLeftAlone() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let before = try FileManager.default.attributesOfItem(atPath: sandbox.path("pass.marble"))[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.01)
        let run = marbles("run", sandbox.path("pass.marble"), "--update")
        #expect(run.code == 0)
        let after = try FileManager.default.attributesOfItem(atPath: sandbox.path("pass.marble"))[.modificationDate] as? Date
        #expect(before == after)
    }

    @Test func subscriptionLinesAreRewrittenAddedAndRemoved() throws {
        let source = """
            test "retry subscribes again"
              cold   source  -1-#
              let    retried = source.retry(1)
              expect retried -1--1-#
              expect source.subscriptions ^--!

            test "fewer subscriptions than lines"
              hot    x   -a-|
              expect x   -a-|
              expect x.subscriptions ^--!
              expect x.subscriptions ^--!
              expect x.subscriptions ^--!

            test "never subscribed"
              hot    x   -a-|
              let    y = x.map { $0 }
              expect x   -a-|
              expect y.subscriptions ^--!

            """
        let sandbox = try Sandbox(["subs.marble": source])
        let run = marbles("run", sandbox.path("subs.marble"), "--update")
        #expect(run.code == 0, Comment(rawValue: run.stdout))
        #expect(try sandbox.read("subs.marble") == """
            test "retry subscribes again"
              cold   source  -1-#
              let    retried = source.retry(1)
              expect retried -1--1-#
              expect source.subscriptions ^--!
              expect source.subscriptions ---^--!

            test "fewer subscriptions than lines"
              hot    x   -a-|
              expect x   -a-|
              expect x.subscriptions ^--!

            test "never subscribed"
              hot    x   -a-|
              let    y = x.map { $0 }
              expect x   -a-|
              expect y.subscriptions ----

            """)
    }

    @Test func linesKeepTheirLengthAndGrowWhenWhatHappenedReachesFurther() throws {
        let source = """
            test "lengths"
              hot    x    -a-|
              let    same = x.map { $0 }
              let    late = x.delay(for: 4, scheduler: RunLoop.main)
              expect same -b-|--------
              expect late -b

            """
        let sandbox = try Sandbox(["h.marble": source])
        let run = marbles("run", sandbox.path("h.marble"), "--update")
        #expect(run.code == 0, Comment(rawValue: run.stdout))
        let updated = lines(try sandbox.read("h.marble"))
        #expect(updated[4].text == "  expect same -a-|--------")
        #expect(updated[5].text == "  expect late -----a-|")
    }

    @Test func whatHappensAfterTheLongestLineIsWrittenInOneRound() throws {
        // The longest line ends at frame 2, but the run goes on until nothing is left to do: `a`,
        // delayed to frame 3, and the completion at frame 4 are both seen and written at once,
        // and a second update finds nothing to change.
        let source = """
            test "rounds"
              cold   x    -a|
              let    y  = x.delay(for: 2, scheduler: RunLoop.main)
              expect y    -

            """
        let sandbox = try Sandbox(["r.marble": source])
        let first = MarbleRunner.run(source: source, path: "r.marble")
        #expect(first.tests.first?.checks.first?.actual.map(\.frame) == [3, 4])
        let run = marbles("run", sandbox.path("r.marble"), "--update")
        #expect(run.code == 0, Comment(rawValue: run.stdout))
        let updated = try sandbox.read("r.marble")
        #expect(lines(updated)[3].text == "  expect y    ---a|")
        #expect(marbles("run", sandbox.path("r.marble")).code == 0)
        let again = marbles("run", sandbox.path("r.marble"), "--update")
        #expect(again.code == 0 && !again.stdout.contains("updated"), Comment(rawValue: again.stdout))
        #expect(try sandbox.read("r.marble") == updated)
    }

    /// Every expect line of the catalogue whose marbles are plain characters gets its values
    /// replaced by `z`; `--update` must bring back every file byte for byte.
    @Test func theCatalogueRoundTrips() throws {
        let files = Discovery.marbleFiles(in: catalogueFolder)
        var copies: [String: String] = [:]
        var originals: [String: String] = [:]
        var mutated = 0
        for file in files {
            let name = String(file.dropFirst(catalogueFolder.count).drop { $0 == "/" })
            let source = try String(contentsOfFile: file, encoding: .utf8)
            originals[name] = source
            var lines = SourceLines(source)
            for statement in MarbleFileParser.parse(source).file.tests.flatMap(\.statements) {
                guard case .expect(_, nil, let marbles) = statement.kind,
                      marbles.text.allSatisfy({ "-|#()^ ".contains($0) || ($0.isASCII && ($0.isLowercase || $0.isNumber)) }),
                      !marbles.text.contains(/\d(ms|s|us|ns|m)\b/),
                      marbles.text.contains(where: { $0.isASCII && ($0.isNumber || ("a"..."y").contains($0)) }) else { continue }
                let start = marbles.location.column - 1
                var content = lines.lines[marbles.location.line - 1].content
                for index in start..<(start + marbles.text.count) where content[index].isASCII && (content[index].isNumber || ("a"..."y").contains(content[index])) {
                    content[index] = "z"
                }
                lines.lines[marbles.location.line - 1].content = content
                mutated += 1
            }
            copies[name] = lines.text
        }
        #expect(mutated > 300)
        let sandbox = try Sandbox(copies)
        #expect(marbles("run", sandbox.path()).code == 1)
        let update = marbles("run", sandbox.path(), "--update", "--jobs", "2")
        #expect(update.code == 0)
        #expect(update.stdout.contains("updated \(mutated) expect lines in "))
        for (name, original) in originals {
            #expect(try sandbox.read(name) == original, "\(name) comes back byte for byte")
        }
    }

    @Test func longIdleStretchesBecomeTimeProgressionsWhereTheOldLineHadThem() throws {
        let sandbox = try Sandbox(["idle.marble": Samples.longIdle])
        let run = marbles("run", sandbox.path("idle.marble"), "--update")
        #expect(run.code == 0)
        #expect(try sandbox.read("idle.marble").contains("  expect same    -1- 1000000ms -2-|\n"))
    }

    @Test func updateWorksTheSameAcrossJobs() throws {
        var files: [String: String] = [:]
        for index in 0..<8 { files["f\(index).marble"] = index.isMultiple(of: 2) ? Samples.failing : Samples.passing }
        let one = try Sandbox(files)
        let two = try Sandbox(files)
        let first = marbles("run", one.path(), "--update", "--jobs", "1")
        let second = marbles("run", two.path(), "--update", "--jobs", "4")
        #expect(first.untimed.replacing(one.path(), with: "ROOT") == second.untimed.replacing(two.path(), with: "ROOT"))
        for index in 0..<8 {
            #expect(try one.read("f\(index).marble") == two.read("f\(index).marble"))
        }
    }

    @Test func withOnlyADocumentReporterUpdatesAreListedOnStandardError() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        let run = marbles("run", sandbox.path("fail.marble"), "--update", "--reporter", "json")
        #expect(run.stderr == "marbles: updated \(sandbox.path("fail.marble")):4\n")
        let report = try JSONDecoder().decode(JSONReport.self, from: Data(run.stdout.utf8))
        #expect(report.files.first?.updated?.first?.after == "  expect doubled -2-4-6-|")
        #expect(report.summary.failed == 0)
    }

    @Test func atomicWritesKeepPermissionsAndSymbolicLinks() throws {
        let sandbox = try Sandbox(["real/fail.marble": Samples.failing])
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: sandbox.path("real/fail.marble"))
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("link.marble"), withDestinationPath: sandbox.path("real/fail.marble"))
        let run = marbles("run", sandbox.path("link.marble"), "--update")
        #expect(run.code == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.path("link.marble")) == sandbox.path("real/fail.marble"))
        #expect(try sandbox.read("real/fail.marble").contains("-2-4-6-|"))
        let permissions = try FileManager.default.attributesOfItem(atPath: sandbox.path("real/fail.marble"))[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("real")) == ["fail.marble"])
    }

    @Test func newMarblesFollowTheColumnsOfTheOtherLines() throws {
        let source = """
            test "aligned"
              hot    x   -1   -2   -3   -|
              let    y = x.map { $0 * 10 }
              expect y   -{10}-{20}-{99}-|

            """
        let sandbox = try Sandbox(["a.marble": source])
        _ = marbles("run", sandbox.path("a.marble"), "--update")
        #expect(lines(try sandbox.read("a.marble"))[3].text == "  expect y   -{10}-{20}-{30}-|")
        let narrow = """
            test "aligned"
              hot    x   -1   -2   -3   -|
              let    y = x.map { $0 + 1 }
              expect y   -{10}-{20}-{30}-|

            """
        try sandbox.write("a.marble", narrow)
        _ = marbles("run", sandbox.path("a.marble"), "--update")
        #expect(lines(try sandbox.read("a.marble"))[3].text == "  expect y   -2   -3   -4   -|")
    }
}
