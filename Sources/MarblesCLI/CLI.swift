import MarbleSpec

/// The `marbles` command line, callable in-process: parse the arguments, run the command,
/// write to `output`, return the exit status.
public enum CLI {
    public static let version = "0.1.0"
    /// The folder `marbles run` runs when given no path.
    public static let defaultFolder = "marbles/"

    public enum ExitCode {
        /// Every test passed (or the command succeeded).
        public static let success: Int32 = 0
        /// A test failed or stopped with a runtime error.
        public static let failure: Int32 = 1
        /// The command line, a path or a file was bad.
        public static let usage: Int32 = 2
    }

    /// Runs `marbles` with `arguments` (without the program name).
    ///
    /// - Parameters:
    ///   - environment: the process environment; `NO_COLOR` (any value) turns colour off.
    ///   - isTerminal: whether standard output is a terminal; colour is used only then.
    public static func run(arguments: [String], environment: [String: String], isTerminal: Bool, output: some OutputSink) -> Int32 {
        let printer = Printer(sink: output)
        switch ArgumentParser.parse(arguments) {
        case .failure(let error):
            printer.error("marbles: error: \(error.message)")
            printer.error(Help.usage(for: error.topic))
            printer.error("Run '\(Help.command(for: error.topic))' for more.")
            return ExitCode.usage
        case .success(.help(let topic)):
            printer.line(Help.text(for: topic))
            return ExitCode.success
        case .success(.version):
            printer.line("marbles \(version)")
            return ExitCode.success
        case .success(.operators):
            OperatorList.lines(Catalogue.signatures).forEach(printer.line)
            return ExitCode.success
        case .success(.run(let run)):
            let style = Style.decide(isTerminal: isTerminal, environment: environment, noColor: run.noColor)
            return RunCommand(paths: run.paths, reporter: HumanReporter(printer: printer, style: style)).execute()
        }
    }
}

/// `marbles run`: discover the files, run each, report, summarise.
struct RunCommand {
    var paths: [String]
    var reporter: HumanReporter
    var options = RunOptions()

    func execute() -> Int32 {
        let clock = ContinuousClock()
        let started = clock.now
        var tally = Tally()
        for item in Discovery.discover(paths) {
            switch item {
            case .problem(let path, let message):
                tally.inputErrors += 1
                reporter.problem(path: path, message: message)
            case .file(let path):
                let report = MarbleRunner.run(path: path, options: options)
                tally.files += 1
                if report.isError { tally.inputErrors += 1 }
                for test in report.tests {
                    tally.tests += 1
                    switch test.outcome {
                    case .passed: tally.passed += 1
                    case .failed: tally.failed += 1
                    case .error: tally.testErrors += 1
                    }
                }
                reporter.file(report)
            }
        }
        let elapsed = clock.now - started
        let (seconds, attoseconds) = elapsed.components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        reporter.summary(tally, milliseconds: milliseconds)
        return tally.exitCode
    }
}
