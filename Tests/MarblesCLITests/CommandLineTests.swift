import Foundation
import Testing
@testable import MarblesCLI

@Suite("marbles: commands, options and usage errors")
struct CommandLineTests {
    @Test func versionPrintsNameAndVersion() {
        let run = marbles("--version")
        #expect(run.code == 0)
        #expect(run.stdout == "marbles \(CLI.version)\n")
        #expect(run.stderr.isEmpty)
    }

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func helpDescribesTheCommands(_ arguments: [String]) {
        let run = marbles(arguments)
        #expect(run.code == 0)
        #expect(run.stdout.contains("usage: marbles run [PATH…] [OPTIONS]"))
        #expect(run.stdout.contains("operators"))
        #expect(run.stderr.isEmpty)
    }

    @Test(arguments: [["run", "--help"], ["run", "-h"], ["help", "run"], ["run", "x.marble", "--help"]])
    func runHelpDescribesExitCodes(_ arguments: [String]) {
        let run = marbles(arguments)
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("usage: marbles run [PATH…] [OPTIONS]\n"))
        #expect(run.stdout.contains("NO_COLOR"))
        #expect(run.stdout.contains("2  a path, a file or the command line is bad"))
    }

    @Test func unknownOptionOfRunIsAUsageError() {
        let run = marbles("run", "--bogus")
        #expect(run.code == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == """
            marbles: error: unknown option '--bogus' for 'marbles run'
            usage: marbles run [PATH…] [OPTIONS]
            Run 'marbles run --help' for more.

            """)
    }

    @Test func nearMissesGetASuggestion() {
        #expect(marbles("run", "--no-colr").stderr.hasPrefix("marbles: error: unknown option '--no-colr' for 'marbles run'; did you mean '--no-color'?\n"))
        #expect(marbles("rnu").stderr.hasPrefix("marbles: error: unknown command 'rnu'; did you mean 'run'?\n"))
        #expect(marbles("--verison").stderr.hasPrefix("marbles: error: unknown option '--verison'; did you mean '--version'?\n"))
    }

    @Test func unknownCommandShowsTheGeneralUsage() {
        let run = marbles("frobnicate")
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("marbles: error: unknown command 'frobnicate'\nusage: marbles run [PATH…] [OPTIONS]\n"))
        #expect(run.stderr.contains("       marbles operators\n"))
    }

    @Test func missingCommandIsAUsageError() {
        let run = marbles([])
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("marbles: error: missing command\n"))
    }

    @Test func extraArgumentsAreRejected() {
        #expect(marbles("--version", "run").code == 2)
        #expect(marbles("operators", "map").stderr.hasPrefix("marbles: error: unexpected argument 'map' after 'operators'\n"))
        #expect(marbles("help", "nope").code == 2)
    }

    @Test func runParsesPathsOptionsAndTheDoubleDash() {
        #expect(ArgumentParser.parse(["run"]) == .success(.run(RunArguments(paths: ["marbles/"], noColor: false))))
        #expect(ArgumentParser.parse(["run", "a", "--no-color", "b"]) == .success(.run(RunArguments(paths: ["a", "b"], noColor: true))))
        #expect(ArgumentParser.parse(["run", "--", "--weird.marble"]) == .success(.run(RunArguments(paths: ["--weird.marble"], noColor: false))))
    }

    @Test func operatorsListsSignaturesByFamily() throws {
        let run = marbles("operators")
        #expect(run.code == 0)
        let lines = run.lines
        let family = try #require(lines.firstIndex(of: "map  (marbles/operators/map.marble)"))
        #expect(lines[family + 1] == "  .map(Closure)")
        #expect(lines[family + 2] == "      transforms each value")
        let just = try #require(lines.firstIndex(of: "  Just(Value)"))
        #expect(lines[just + 1] == "      emits its value on the first request, then finishes")
        #expect(run.lastLine.hasSuffix("families"))
    }

    @Test func exitCodePrecedence() {
        #expect(Tally().exitCode == 0)
        #expect(Tally(failed: 1).exitCode == 1)
        #expect(Tally(testErrors: 1).exitCode == 1)
        #expect(Tally(failed: 3, inputErrors: 1).exitCode == 2)
    }

    @Test func summaryLines() {
        let tally = Tally(files: 1, tests: 1, passed: 1)
        #expect(tally.totals(milliseconds: 5) == "1 test in 1 file, 5 ms")
        #expect(tally.outcome == "1 passed, 0 failed")
        #expect(Tally(files: 3, tests: 4, passed: 1, failed: 1, testErrors: 1, inputErrors: 1).outcome == "1 passed, 1 failed, 2 errors")
        #expect(Tally(inputErrors: 1).outcome == "0 passed, 0 failed, 1 error")
    }
}

@Suite("marbles run: colour")
struct ColourTests {
    let escape = "\u{1B}["

    func failingRun(environment: [String: String] = [:], terminal: Bool, _ extra: String...) throws -> Outcome {
        let sandbox = try Sandbox(["fail.marble": Samples.failing, "pass.marble": Samples.passing])
        return marbles(["run", sandbox.path()] + extra, environment: environment, terminal: terminal)
    }

    @Test func terminalGetsColour() throws {
        let run = try failingRun(terminal: true)
        #expect(run.stdout.contains("\(escape)32m✓\(escape)0m"))
        #expect(run.stdout.contains("\(escape)31m✗\(escape)0m"))
        #expect(run.stdout.contains("\(escape)31m^\(escape)0m frame 5"))
    }

    @Test func notATerminalGetsNone() throws {
        #expect(!(try failingRun(terminal: false)).stdout.contains(escape))
    }

    @Test(arguments: ["1", "", "false"])
    func noColorWithAnyValueTurnsItOff(_ value: String) throws {
        #expect(!(try failingRun(environment: ["NO_COLOR": value], terminal: true)).stdout.contains(escape))
    }

    @Test func noColorOptionTurnsItOff() throws {
        #expect(!(try failingRun(terminal: true, "--no-color")).stdout.contains(escape))
    }
}
