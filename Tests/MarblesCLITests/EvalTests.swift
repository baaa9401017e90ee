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
        #expect(endless.lines.first == "eval:3:7: error: the run never settles: `result` kept the scheduler busy after the test's longest line "
                + "ended at frame 0 (1000 values in 1001 actions), so the run was stopped (at frame 2002)")
        #expect(endless.stdout.hasSuffix("\n(--until FRAMES cancels the result's subscription at that frame)\n"))
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

    @Test func aMistakeIsShownInTheGeneratedLine() {
        let run = marbles("eval", "--hot", "a=-a-|", "a.debounce(for: 3)")
        #expect(run.code == 2)
        #expect(run.stdout.hasPrefix("eval:3:18: error: no version of 'debounce' takes the arguments debounce(for:)\n  let result = a.debounce(for: 3)\n"))
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
