import MarbleDiff
import MarbleSpec

/// GitHub Actions workflow commands: an `::error file=…,line=…,title=…::…` annotation per
/// failing expectation (on its `expect` line, with the marble diagram), per runtime error (at its
/// line and column) and per mistake in a test or a file; GitHub shows them on the pull request's diff.
/// Lines only, so it can share standard output with the human reporter. Absolute paths inside
/// `GITHUB_WORKSPACE` are written relative to it, as annotations need.
final class GitHubReporter: Reporter {
    private let target: ReportTarget
    private let workspace: String?

    init(target: ReportTarget, workspace: String?) {
        self.target = target
        self.workspace = workspace.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    }

    func problem(path: String, message: String) {
        annotate(file: nil, line: nil, column: nil, title: "marbles: \(path)", message: "\(path): \(message)")
    }

    func file(_ result: FileResult) {
        let report = result.report
        let path = relative(report.path)
        for diagnostic in report.diagnostics {
            var message = diagnostic.message
            if let hint = diagnostic.hint { message += "\nhint: " + hint }
            annotate(file: path, line: diagnostic.line, column: diagnostic.column,
                     title: report.tests.isEmpty ? "marbles: cannot run \(path)" : "marbles: \(path)", message: message)
        }
        for test in report.tests {
            for warning in test.warnings {
                annotate(file: path, line: warning.line, column: warning.column, title: "marbles: \(test.name)",
                         message: warning.message + (warning.hint.map { "\nhint: " + $0 } ?? ""), level: "warning")
            }
        }
        for test in report.tests where test.outcome != .passed {
            let title = "marbles: \(test.name)"
            if !test.diagnostics.isEmpty {
                // Each mistake on its own line.
                for diagnostic in test.diagnostics {
                    annotate(file: path, line: diagnostic.line, column: diagnostic.column, title: title,
                             message: ([diagnostic.message] + SourceExcerpt.lines(diagnostic, indent: 0, style: Style(enabled: false))).joined(separator: "\n"))
                }
                continue
            }
            if let error = test.error {
                annotate(file: path, line: error.line, column: error.column, title: title,
                         message: ([test.failureHeadline] + FailureText.lines(for: test)).joined(separator: "\n"))
                continue
            }
            for check in test.checks where !check.passed {
                var layout = HumanReporter.diagram(check, of: test, labelled: test.checks.count > 1)
                layout.indent = 0
                let headline = check.differences.first.map { "\(check.label): frame \($0.frame): \($0.sentence)" } ?? check.label
                annotate(file: path, line: check.line, column: check.column, title: title,
                         message: ([headline, ""] + layout.lines(style: Style(enabled: false))).joined(separator: "\n"))
            }
        }
    }

    func finish(_ summary: RunSummary) {}

    private func relative(_ path: String) -> String {
        guard let workspace, path.hasPrefix(workspace) else { return path }
        return String(path.dropFirst(workspace.count))
    }

    private func annotate(file: String?, line: Int?, column: Int?, title: String, message: String, level: String = "error") {
        var properties: [String] = []
        if let file { properties.append("file=" + Self.escapeProperty(file)) }
        if let line { properties.append("line=\(line)") }
        if let column { properties.append("col=\(column)") }
        properties.append("title=" + Self.escapeProperty(title))
        target.line("::\(level) " + properties.joined(separator: ",") + "::" + Self.escapeData(message))
    }

    /// The message of a workflow command: `%`, CR and LF escaped.
    static func escapeData(_ text: String) -> String {
        var output = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": output += "%25"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            default: output.unicodeScalars.append(character)
            }
        }
        return output
    }

    /// A property of a workflow command: as a message, and `:` and `,` too.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }
}
