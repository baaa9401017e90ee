import Foundation
import Testing
@testable import MarblesCLI

@Suite("marbles eval")
struct EvalTests {
    @Test func printsTheSourceAndTheResultAligned() {
        let run = marbles("eval", "--hot", "a=-a-b-----c-|", "a.debounce(for: 3, scheduler: RunLoop.main)")
        #expect(run.code == 0)
        #expect(run.stdout == """
            a                                             -a-b-----c-|
            a.debounce(for: 3, scheduler: RunLoop.main)   ------b----|

            """)
    }

    @Test func coldSourcesPlayPerSubscription() {
        let run = marbles("eval", "--cold", "req=-1-2|", "--hot", "taps=-x---y-|", "taps.flatMap { _ in req }")
        #expect(run.code == 0)
        #expect(run.stdout == """
            req                         -1-2|  (cold: plays from each subscription)
            taps                        -x---y-|
            taps.flatMap { _ in req }   --1-2-1-2|

            """)
    }

    @Test func framesValuesAndPrintedLines() {
        let run = marbles("eval", "--frame", "100ms", "--values", "A = 42", "--hot", "a=-A-|",
                          "a.delay(for: .milliseconds(300), scheduler: RunLoop.main).print(\"d\")")
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("""
            a        -A-|
            result   ----A-|

            frame 0: d: receive subscription: (ScheduledDelivery)
            """))
        #expect(run.lines.contains("frame 4: d: receive value: (42)"))
    }

    @Test func helperStreamsAndANamedResult() {
        let run = marbles("eval", "--hot", "a=-1-2-3-|", "evens = a.filter { $0 % 2 == 0 }", "doubled = evens.map { $0 * 2 }")
        #expect(run.code == 0)
        #expect(run.stdout == """
            a         -1-2-3-|
            doubled   ---4---|

            """)
    }

    @Test func anUnfinishedResultSaysWhereTheRunSettled() {
        // The run goes on until nothing is left to do: the delayed values show, and the last one
        // is at frame 8, after which nothing was due.
        let run = marbles("eval", "--hot", "a=-1-2-", "a.delay(for: 5, scheduler: RunLoop.main)")
        #expect(run.code == 0)
        #expect(run.lines[1] == "a.delay(for: 5, scheduler: RunLoop.main)   ------1-2")
        #expect(run.stdout.hasSuffix("(not finished; nothing was left to run after frame 8)\n"))
    }

    @Test func untilCancelsTheSubscriptionSoATimerCanBeExplored() {
        let timer = "Timer.publish(every: 2, on: RunLoop.main, in: .common).autoconnect()"
        let run = marbles("eval", "--frame", "1s", "--until", "9", timer)
        #expect(run.code == 0)
        #expect(run.stdout == "result   --2-4-6-8!\n")
        // Without --until the timer never settles: an error, and how to explore it instead.
        let endless = marbles("eval", "--frame", "1s", timer)
        #expect(endless.code == 1)
        #expect(endless.lines.first == "expression:1:1: error: the run never settles: `result` kept the scheduler busy after the test's longest line "
                + "ended at frame 0 (1000 values in 1001 actions), so the run was stopped (at frame 2002)")
        #expect(endless.stdout.hasSuffix("\n(--until FRAMES cancels the result's subscription at that frame)\n"))
    }

    /// Issue 29: `--until` past what a time progression counts in nanoseconds cancelled at once
    /// (`-!`); it takes a frame before the end of virtual time, and reaches it.
    @Test func untilReachesTheEndOfVirtualTimeAndNoFurther() {
        let far = marbles("eval", "--until", "999999999999999", "--hot", "x=-1-", "x")
        #expect(far.code == 0)
        #expect(far.stdout == "x   -1 …999999999999997… -\nx   -1 …999999999999997… !\n", "\(far.stdout)")
        let past = marbles("eval", "--until", "9223372036854775807", "--hot", "x=-1-|", "x")
        #expect(past.code == 2)
        #expect(past.stderr.hasPrefix("marbles: error: --until takes a frame below 1000000000000000, where virtual time ends, not 9223372036854775807\n"))
    }

    @Test func subscribeAndDemandShapeTheResult() {
        let run = marbles("eval", "--hot", "a=-1-2-3-4-|", "--subscribe", "--^---!", "a.map { $0 }")
        #expect(run.lines[1] == "a.map { $0 }   --^2-3!")
        #expect(run.lines.count == 3, "a cancelled result needs no note")
        // RxJS's '----!': subscribed at 0, cancelled at 4.
        let bang = marbles("eval", "--hot", "a=-a-b-c-|", "--subscribe", "----!", "a.map { $0 }")
        #expect(bang.lines[1] == "a.map { $0 }   ^a-b!")
        let demand = marbles("eval", "--hot", "a=-1-2-3-4-|", "--demand", "1----1", "a.map { $0 }")
        #expect(demand.lines[1] == "a.map { $0 }   -1---3---|")
    }

    /// Issue 29, item 13: a mistake used to be shown in the one-test file eval writes
    /// (`eval:3:18`, a line nobody wrote); it is shown in the argument it came from.
    @Test func aMistakeIsShownInTheArgumentItCameFrom() {
        let run = marbles("eval", "--hot", "a=-a-|", "a.debounce(for: 3)")
        #expect(run.code == 2)
        #expect(run.stdout == "expression:1:3: error: no version of 'debounce' takes the arguments debounce(for:)\n  a.debounce(for: 3)\n    ^\n"
                + "  hint: did you mean 'debounce(for:scheduler:options:)'?\n", "\(run.stdout)")
    }

    @Test(arguments: [
        (["--hot", "x=-a-(", "x.map { $0 }"], "--hot x:1:6: error: unclosed group '('\n  x=-a-(\n       ^\n  hint: close the group with ')'\n"),
        (["--hot", "x=-a-|", "y = x.map { $0 + 1 }", "y.filter { $0 > }"], "expression 2:1:17: error: expected expression after '>'\n  y.filter { $0 > }\n                  ^\n"),
        (["--hot", "x=-1-|", "x.map {\n  $0 +\n  zz }"], "expression:3:3: error: cannot find 'zz' in scope\n  zz }\n  ^^\n"),
        (["--frame", "1.5ns", "--hot", "x=-1-|", "x"], "--frame:1:1: error: 1.5ns is not a whole number of nanoseconds\n  1.5ns\n  ^^^^^\n  hint: durations are counted in whole nanoseconds\n"),
        (["--hot", "x=-1-|", "--subscribe", "-^-(", "x"], "--subscribe:1:4: error: unclosed group '('\n  -^-(\n     ^\n  hint: close the group with ')'\n"),
        (["--hot", "x=-1-|", "--values", "A = 1, B =", "x"], "--values:1:11: error: expected a literal after 'B ='\n  A = 1, B =\n            ^\n"),
    ])
    func eachArgumentsMistakeIsShownInThatArgument(_ arguments: [String], _ expected: String) {
        let run = marbles(["eval"] + arguments)
        #expect(run.code == 2)
        #expect(run.stdout == expected, "\(run.stdout)")
    }

    @Test func aRuntimeErrorIsShownInTheExpression() {
        let run = marbles("eval", "--hot", "x=-1-|", "x.map { $0 / 0 }")
        #expect(run.code == 1)
        #expect(run.stdout.hasSuffix("\nexpression:1:12: error: division by zero in 1 / 0 (at frame 1)\n  x.map { $0 / 0 }\n             ^\n"), "\(run.stdout)")
    }

    @Test func aRuntimeErrorExitsOne() {
        let run = marbles("eval", "--hot", "a=-1-0-|", "a.map { 6 / $0 }")
        #expect(run.code == 1)
        #expect(run.stdout.contains("error: division by zero"))
    }

    @Test(arguments: [
        (["eval"], "missing the expression to evaluate, e.g. 'a.debounce(for: 3, scheduler: RunLoop.main)'"),
        (["eval", "--hot", "-a-|", "a"], "--hot takes NAME=MARBLES (e.g. --hot 'a=-a-b-|'), not '-a-|'"),
        (["eval", "--cold", "1x=-a-|", "a"], "'1x' is not a stream name; --cold takes NAME=MARBLES"),
        (["eval", "--until", "0", "a"], "--until takes a whole number of at least 1, not '0'"),
        (["eval", "--svg"], "option '--svg' needs a file, or '-' for standard output"),
        (["eval", "--frmae", "1ms", "a"], "unknown option '--frmae' for 'marbles eval'; did you mean '--frame'?"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        let run = marbles(arguments)
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("marbles: error: \(message)"))
    }

    @Test func drawsAnSVGDiagram() throws {
        let sandbox = try Sandbox()
        let run = marbles("eval", "--hot", "a=-1-2-|", "--svg", sandbox.path("out.svg"), "a.map { $0 * 2 }")
        #expect(run.code == 0)
        #expect(run.lastLine == "diagram: \(sandbox.path("out.svg"))")
        let svg = try sandbox.read("out.svg")
        #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"))
        #expect(svg.contains("map"))
        let toStandardOutput = marbles("eval", "--hot", "a=-1-2-|", "--svg", "-", "a.map { $0 * 2 }")
        #expect(toStandardOutput.stdout == svg)
    }

    @Test func theGeneratedFile() {
        var arguments = EvalArguments()
        arguments.sources = [.init(kind: .hot, name: "a", marbles: "-a-b-|")]
        arguments.frame = "10ms"
        arguments.expressions = ["a.map { $0 }"]
        let program = EvalCommand.source(for: arguments)
        #expect(program.text == """
            frame 10ms
            test "eval"
              hot a -a-b-|
              let result = a.map { $0 }
              subscribe result ^

            """)
        #expect(program.until == nil)
        arguments.until = 5
        #expect(EvalCommand.source(for: arguments).text.hasSuffix("  subscribe result ^ 40ms !\n"))
        #expect(EvalCommand.source(for: arguments).until == 5)
    }
}

extension EvalTests {
    @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        let coloured = marbles(["eval", "--hot", "a=-1-", "a.map { $0 }"], terminal: true)
        #expect(coloured.stdout.contains("\u{1B}["))
        #expect(!marbles(["eval", "--no-color", "--hot", "a=-1-", "a.map { $0 }"], terminal: true).stdout.contains("\u{1B}["))
        #expect(!marbles(["eval", "--hot", "a=-1-", "a.map { $0 }"], environment: ["NO_COLOR": "1"], terminal: true).stdout.contains("\u{1B}["))
        let sandbox = try Sandbox(["p.marble": Samples.passing])
        #expect(marbles(["trace", sandbox.path("p.marble")], terminal: true).stdout.contains("\u{1B}["))
        #expect(!marbles(["trace", sandbox.path("p.marble"), "--no-color"], terminal: true).stdout.contains("\u{1B}["))
    }
}
