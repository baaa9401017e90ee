import MarbleSpec

/// `marbles run`: discover the files, run each, report, summarise.
struct RunCommand {
    var paths: [String]
    var reporter: HumanReporter
    var options = RunOptions()
    /// `--svg DIR`: diagrams of the failing tests (SVGCommand.swift).
    var diagrams: FailureDiagrams?

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
                if let folder = diagrams?.folder, let problem = diagrams?.write(report) {
                    tally.inputErrors += 1
                    reporter.problem(path: folder, message: problem)
                }
            }
        }
        let elapsed = clock.now - started
        let (seconds, attoseconds) = elapsed.components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        reporter.summary(tally, milliseconds: milliseconds)
        return tally.exitCode
    }
}
