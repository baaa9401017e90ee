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

/// One test with `lines` after `test "t"` (line 2 onwards, after the lines of `declarations`):
/// its problems as `line:column: message | hint`, load-time diagnostics and the runtime error
/// alike; empty when every `expect` passes.
func problems(_ lines: String, declarations: String = "") -> [String] {
    let report = runMarble(declarations + "test \"t\"\n" + lines)
    var found = report.allDiagnostics.map { "\($0.line):\($0.column): \($0.message)" + ($0.hint.map { " | " + $0 } ?? "") }
    for test in report.tests {
        if let error = test.error {
            found.append("\(error.line):\(error.column): \(error.message)" + (error.hint.map { " | " + $0 } ?? ""))
        }
        for check in test.checks where !check.passed {
            found += check.differences.map { "\(check.label) frame \($0.frame): \($0.sentence)" }
        }
    }
    return found
}

/// `body` as the closure of `a.map` over `input`, expected to give `output`.
func mapping(_ input: String, _ body: String, _ output: String, values: String = "") -> [String] {
    problems("  hot a \(input)\n" + (values.isEmpty ? "" : "  values \(values)\n") + "  let b = a.map \(body)\n  expect b \(output)")
}
