import Foundation
import MarbleDiff
import MarbleNotation
import MarbleSpec
import Testing
@testable import MarblesCLI

/// Issue 29, items 1–5: numbers at the ends of `Int` — work scheduled at frame `Int.max`, an
/// event near it, `output(in: Int.max...Int.max)`, `1..<Int.min` — used to trap (the whole run
/// died with SIGILL, no report). Each is now a located error, or drawn: virtual time ends at
/// frame 10^15 (`VirtualTimeEnd`), checked where a file writes a frame or a duration, and by
/// the run's clock. The commands run as separate processes, so a regression shows as a signal.
@Suite("issue 29: frames, durations and ranges at the ends of Int never trap")
struct VirtualTimeLimitTests {
    static let delayToIntMax = """
        test "delay to the end of time"
          hot    s   -a-|
          let    r = s.delay(for: 9223372036854775807, scheduler: RunLoop.main)
          expect r   -a-|

        """

    static func durationError(_ place: String, _ line: String, caret: String, indent: Int = 0) -> String {
        """
        \(place): error: a duration of 9223372036854775807 frames is too long: virtual time ends at frame 1000000000000000 (1 frame = 1ms)
        \(line)
        \(caret)
          hint: a duration is at most 1000000000000000 frames

        """.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : String(repeating: " ", count: indent) + $0 }.joined(separator: "\n")
    }

    static let delayLine = "  let    r = s.delay(for: 9223372036854775807, scheduler: RunLoop.main)"
    static let delayCaret = "                     ^"

    // MARK: 1. Work at frame Int.max

    @Test(arguments: [["run"], ["run", "-u"], ["trace"], ["marbles-svg", "-o", "-"]])
    func workScheduledAtFrameIntMaxIsAnErrorAtItsDuration(_ command: [String]) throws {
        let sandbox = try Sandbox(["max.marble": Self.delayToIntMax])
        let path = sandbox.path("max.marble")
        let result = command[0] == "marbles-svg"
            ? try EndToEndTests.run([path] + command.dropFirst(), program: "marbles-svg")
            : try EndToEndTests.run(command + [path])
        #expect(result.code == 2, "\(result.stderr)")
        // The mistake is the test's: under its line in a run's report (indented), under its
        // heading in a trace, alone from marbles-svg.
        let indent = command[0] == "run" ? 4 : command[0] == "trace" ? 2 : 0
        #expect((result.stdout + result.stderr).contains(Self.durationError("\(path):3:22", Self.delayLine, caret: Self.delayCaret, indent: indent)),
                "\(result.stdout)\(result.stderr)")
        // `--update` leaves a file with errors as it was.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.delayToIntMax)
    }

    @Test func evalAndCompareReportTheDurationInTheirArgument() throws {
        let eval = try EndToEndTests.run(["eval", "--hot", "x=-a-|", "x.delay(for: 9223372036854775807, scheduler: RunLoop.main)"])
        #expect(eval.code == 2)
        #expect(eval.stdout == Self.durationError("expression:1:9", "  x.delay(for: 9223372036854775807, scheduler: RunLoop.main)", caret: "          ^"),
                "\(eval.stdout)\(eval.stderr)")
        let compare = try EndToEndTests.run(["compare", "x.delay(for: 9223372036854775807, scheduler: RunLoop.main)", "x"])
        #expect(compare.code == 2)
        #expect((compare.stdout + compare.stderr).contains(Self.durationError(
            "pipeline 1:1:9", "  x.delay(for: 9223372036854775807, scheduler: RunLoop.main)", caret: "          ^")), "\(compare.stdout)\(compare.stderr)")
    }

    @Test func docReportsTheDurationInTheDocument() throws {
        let document = "# Doc\n\n```marble\n" + Self.delayToIntMax + "```\n"
        let sandbox = try Sandbox(["doc.md": document])
        let result = try EndToEndTests.run(["doc", "--out", sandbox.path("diagrams"), sandbox.path("doc.md")])
        #expect(result.code == 2)
        #expect((result.stdout + result.stderr).contains(Self.durationError("\(sandbox.path("doc.md")):6:22", Self.delayLine, caret: Self.delayCaret, indent: 4)),
                "\(result.stdout)\(result.stderr)")
        #expect(try String(contentsOfFile: sandbox.path("doc.md"), encoding: .utf8) == document)
    }

    @Test(arguments: [
        ("s.delay(for: .milliseconds(9223372036854775807), scheduler: RunLoop.main)",
         ".milliseconds(9223372036854775807) is too long: virtual time ends at frame 1000000000000000 (1 frame = 1ms)"),
        ("s.delay(for: .seconds(1e13), scheduler: RunLoop.main)",
         ".seconds(10000000000000.0) is too long: virtual time ends at frame 1000000000000000 (1 frame = 1ms)"),
        ("s.debounce(for: .seconds(-1e300), scheduler: RunLoop.main)",
         ".seconds(-1e+300) is too long: virtual time ends at frame 1000000000000000 (1 frame = 1ms)"),
        ("s.collect(.byTime(RunLoop.main, 1000000000000001))",
         "a duration of 1000000000000001 frames is too long: virtual time ends at frame 1000000000000000 (1 frame = 1ms)"),
    ])
    func aDurationPastTheEndOfTimeIsAnError(_ expression: String, _ message: String) throws {
        let sandbox = try Sandbox(["d.marble": "test \"t\"\n  hot    s   -a-|\n  let    r = \(expression)\n  expect r   -a-|\n"])
        let result = try EndToEndTests.run(["run", sandbox.path("d.marble")])
        #expect(result.code == 2)
        #expect(result.stdout.contains(": error: \(message)\n"), "\(result.stdout)")
    }

    @Test func workThatAddsUpPastTheEndOfTimeStopsTheRunAtTheStream() throws {
        let sandbox = try Sandbox(["sum.marble": """
            test "two delays"
              hot    s   -a-|
              let    r = s.delay(for: 1000000000000000, scheduler: RunLoop.main).delay(for: 1000000000000000, scheduler: RunLoop.main)
              expect r   -a-|

            """])
        let path = sandbox.path("sum.marble")
        let result = try EndToEndTests.run(["run", path])
        #expect(result.code == 1)
        #expect(result.stdout.contains("""
                \(path):3:10: error: the run stopped: work is scheduled for frame 1000000000000001, past frame 1000000000000000, where virtual time ends; still subscribed: `r` (at frame 4)
                  let    r = s.delay(for: 1000000000000000, scheduler: RunLoop.main).delay(for: 1000000000000000, scheduler: RunLoop.main)
                         ^
                  hint: delays, timeouts and timer intervals add up: shorten those of this pipeline

            """), "\(result.stdout)")
    }

    // MARK: 2, 3. An event near the end of time: the diff and the ruler

    static let wideAtTheEnd = """
        frame 1ns

        test "a wide value at the end of time"
          cold   s   999999999999990ns {"a very wide value indeed, wider than the gap"}
          expect s   999999999999990ns {"another very wide value, wider than the gap"}

        """

    @Test func theDiffOfAWideValueAtTheEndOfTimeIsLaidOut() throws {
        let sandbox = try Sandbox(["wide.marble": Self.wideAtTheEnd])
        let result = try EndToEndTests.run(["run", sandbox.path("wide.marble")])
        #expect(result.code == 1)
        #expect(result.stdout.contains("""
                  expected    …999999999999990… {"another very wide value, wider than the gap"}
                  actual      …999999999999990… {"a very wide value indeed, wider than the gap"}
                                                ^ frame 999999999999990: expected {"another very wide value, wider than the gap"}, got {"a very wide value indeed, wider than the gap"}

            """), "\(result.stdout)")
    }

    @Test func theRulerOfAnEventAtTheEndOfTimeIsDrawn() throws {
        let sandbox = try Sandbox(["wide.marble": Self.wideAtTheEnd])
        let result = try EndToEndTests.run([sandbox.path("wide.marble"), "-o", "-"], program: "marbles-svg")
        #expect(result.code == 1, "a failing test's diagram: \(result.stderr)")
        #expect(result.stdout.hasSuffix("</svg>\n"))
        #expect(result.stdout.contains("<g class=\"time\""))
    }

    @Test(arguments: ["9223372036854775806ns {\"a very wide value indeed\"}", "1000000000000000ns a", "a 999999999999999ns ^ b"])
    func aTimelinePastTheEndOfTimeIsAnError(_ marbles: String) throws {
        let sandbox = try Sandbox(["long.marble": "frame 1ns\n\ntest \"t\"\n  hot    s   \(marbles)\n  expect s   -\n"])
        let result = try EndToEndTests.run(["run", sandbox.path("long.marble")])
        #expect(result.code == 2)
        #expect(result.stdout.contains(": error: the timeline is too long: virtual time ends at frame 1000000000000000\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  hint: use a shorter time progression\n"))
    }

    /// Reports are built within virtual time; the text layout and the printer saturate anyway,
    /// so that frames placed otherwise (a Swift test's own scheduler limits) are drawn.
    @Test func theTextLayoutAndThePrinterTakeFramesAtTheEndsOfInt() {
        let wide = "{\"a very wide value indeed\"}"
        let layout = TextDiagramLayout(rows: [
            .aligned(label: "expected", events: [RenderedEvent(frame: .min, event: .value("a")), RenderedEvent(frame: .max - 1, event: .value(wide))]),
            .aligned(label: "actual", events: [RenderedEvent(frame: .max, event: .value(wide))]),
        ], differences: [Difference(frame: .max, sentence: "expected nothing, got a value")], notes: [], indent: 0)
        let lines = layout.lines(style: Style(enabled: false))
        #expect(lines.count == 3)
        #expect(lines[2].hasSuffix("^ frame 9223372036854775807: expected nothing, got a value"))
        let printed = MarblePrinter.render([(Int.min, .value("a")), (Int.max, .value("b"))], frameNanoseconds: 1, compressingGapsLongerThan: 40)
        #expect(printed.hasPrefix("a "))
        #expect(printed.hasSuffix(" b"))
    }

    // MARK: 4, 5. Ranges at the ends of Int

    @Test func outputInARangeThroughIntMaxIsAnError() throws {
        let sandbox = try Sandbox(["out.marble": "test \"t\"\n  cold   s   -a-b-|\n  let    r = s.output(in: Int.max...Int.max)\n  expect r   -----|\n"])
        let path = sandbox.path("out.marble")
        let result = try EndToEndTests.run(["run", path])
        #expect(result.code == 2)
        #expect(result.stdout.contains("""
                \(path):3:23: error: output(in:) needs a range that ends below Int.max
                  let    r = s.output(in: Int.max...Int.max)
                                      ^
                  hint: Swift counts a...Int.max as a..<Int.max + 1, which overflows

            """), "\(result.stdout)")
    }

    @Test(arguments: [
        ("let    r = (1..<Int.min).publisher", 2, 3, 16, "range requires lowerBound <= upperBound (1..<-9223372036854775808)"),
        ("let    r = s.output(in: 1...Int.min)", 2, 3, 28, "range requires lowerBound <= upperBound (1...-9223372036854775808)"),
        ("let    r = s.map { _ in (1..<Int.min).count }", 1, 3, 29, "range requires lowerBound <= upperBound (1..<-9223372036854775808) (at frame 1)"),
        ("let    r = s.map { _ in (Int.min..<Int.max).count }", 1, 3, 35,
         "the range -9223372036854775808..<9223372036854775807 is too large (more than 100000 elements) (at frame 1)"),
        ("let    r = s.map { v -> Int in\n    switch v {\n    case 1..<Int.min: return 1\n    default: return 0\n    }\n  }", 1, 5, 11,
         "range requires lowerBound <= upperBound (1..<-9223372036854775808) (at frame 1)"),
    ])
    func aRangeWithItsBoundsOutOfOrderIsAnError(_ line: String, _ code: Int32, _ row: Int, _ column: Int, _ message: String) throws {
        let sandbox = try Sandbox(["range.marble": "test \"t\"\n  cold   s   -1-2-|\n  \(line)\n  expect r   -----|\n"])
        let path = sandbox.path("range.marble")
        let result = try EndToEndTests.run(["run", path])
        #expect(result.code == code)
        #expect(result.stdout.contains("\(path):\(row):\(column): error: \(message)\n"), "\(result.stdout)")
    }

    @Test func rangesAtTheEndsOfIntThatSwiftFormsAreCounted() throws {
        let sandbox = try Sandbox(["fine.marble": """
            test "t"
              cold   s   -1-|
              let    r = s.map { _ in (Int.max...Int.max).count + (Int.min..<Int.min).count + (0..<100000).count + (1...100000).count }
              expect r   -{200001}-|

            """])
        let result = try EndToEndTests.run(["run", sandbox.path("fine.marble")])
        #expect(result.code == 0, "\(result.stdout)")
    }
}
