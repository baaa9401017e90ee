import Testing
@testable import MarbleSpec

/// Runs a `.marble` source and returns its report.
func runMarble(_ source: String, path: String = "test.marble") -> FileReport {
    MarbleRunner.run(source: source, path: path)
}

/// A compact description of a report for assertions: one line per failing check, error or diagnostic.
func problems(_ report: FileReport) -> [String] {
    var lines = report.allDiagnostics.map { "\($0.line):\($0.column): \($0.message)" }
    // A test's mistakes are among the diagnostics above.
    for test in report.tests where test.diagnostics.isEmpty {
        if let error = test.error {
            lines.append("\(test.name): error \(error.line):\(error.column): \(error.message)")
            continue
        }
        for check in test.checks where !check.passed {
            for difference in check.differences { lines.append("\(check.label) frame \(difference.frame): \(difference.sentence)") }
        }
    }
    return lines
}
