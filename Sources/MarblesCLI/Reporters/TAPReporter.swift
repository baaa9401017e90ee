import Foundation
import MarbleSpec

/// TAP version 13: a test point per test (`ok 1 - file › test`), a YAML block under each one
/// that failed (message, severity, file and line, the marble diagram), the plan at the end
/// (TAP allows it there, so the report can stream) and the outcome as a comment. The file's own
/// mistakes, or a missing path, are one failed point named `file › (file)` (before its tests).
final class TAPReporter: Reporter {
    private let target: ReportTarget
    private var number = 0

    init(target: ReportTarget) {
        self.target = target
        target.line("TAP version 13")
    }

    func problem(path: String, message: String) {
        point(ok: false, description: TestFilter.subject(path: path, test: "(file)"),
              block: [("message", Self.quoted(message)), ("severity", "error")], at: (path, nil), details: [])
    }

    func file(_ result: FileResult) {
        let report = result.report
        if let first = report.diagnostics.first {
            point(ok: false, description: TestFilter.subject(path: report.path, test: "(file)"),
                  block: [("message", Self.quoted(first.message)), ("severity", "error")],
                  at: (report.path, first.line), details: FailureText.lines(for: report.diagnostics))
        }
        for test in report.tests {
            let description = TestFilter.subject(path: report.path, test: test.name)
            defer {
                // A stream nothing checks: a diagnostic line after the point (TAP's comments).
                for warning in test.warnings { target.line("# warning: \(report.path):\(warning.line):\(warning.column): \(warning.message)") }
            }
            guard test.outcome != .passed else {
                point(ok: true, description: description, block: nil, at: nil, details: [])
                continue
            }
            let line = test.outcome == .error ? (test.error?.line ?? test.line) : (test.checks.first { !$0.passed }?.line ?? test.line)
            point(ok: false, description: description,
                  block: [("message", Self.quoted(test.failureHeadline)), ("severity", test.outcome == .error ? "error" : "fail"),
                          ("duration_ms", String(format: "%.3f", test.seconds * 1000))],
                  at: (report.path, line), details: FailureText.lines(for: test))
        }
    }

    func finish(_ summary: RunSummary) {
        if summary.stoppedEarly { target.line("# stopped at the first failure (--fail-fast)") }
        target.line("1..\(number)")
        target.line("# " + summary.tally.outcome)
    }

    private func point(ok: Bool, description: String, block: [(String, String)]?, at location: (file: String, line: Int?)?, details: [String]) {
        number += 1
        target.line("\(ok ? "ok" : "not ok") \(number) - \(Self.description(description))")
        guard let block else { return }
        target.line("  ---")
        for (key, value) in block { target.line("  \(key): \(value)") }
        if let location {
            target.line("  at:")
            target.line("    file: \(Self.quoted(location.file))")
            if let line = location.line { target.line("    line: \(line)") }
        }
        if !details.isEmpty {
            target.line("  diagram: |2-")
            for line in details { target.line(line.isEmpty ? "" : "    " + line) }
        }
        target.line("  ...")
    }

    /// A test point's description cannot hold a line break, and `#` would start a directive.
    static func description(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "#", with: "\\#")
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }

    /// A YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    output += "\\x" + String(format: "%02X", scalar.value)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }
}
