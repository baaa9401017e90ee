import Foundation
import MarbleDiff
import MarbleRewrite
import MarbleSpec

/// Writes the report of `marbles run` for people: per file its path and a line per test; for a
/// failure, a marble diagram of what was expected and what happened; what `--update` changed.
/// Each file's block ends with one blank line. The run ends with the slowest tests (with
/// `--slowest`), the totals and the outcome. Quiet (`--quiet`), a passing test has no line, and
/// a file has a block only for what did not pass, its warnings, or what `--update` did.
final class HumanReporter: Reporter {
    let target: ReportTarget
    let style: Style
    /// Passing tests (without warnings) are left out, and so is a file with nothing else to say.
    let quiet: Bool
    /// Indentation of diagrams and error excerpts under a test line.
    static let detailIndent = 6

    init(target: ReportTarget, style: Style, quiet: Bool = false) {
        self.target = target
        self.style = style
        self.quiet = quiet
    }

    /// A path given on the command line that cannot be run.
    func problem(path: String, message: String) {
        emit(["\(path): " + style.red("error:") + " " + message])
    }

    func file(_ result: FileResult) {
        var updatedTests: Set<String> = []
        if case .updated(let changes)? = result.update { updatedTests = Set(changes.map(\.test)) }
        var block = lines(for: result.report, updated: updatedTests)
        if let update = result.update { block += lines(for: update, path: result.report.path) }
        emit(block)
    }

    func finish(_ summary: RunSummary) {
        if summary.stoppedEarly {
            target.line(style.red("stopped at the first failure (--fail-fast)"))
            target.line()
        }
        if let slowest = summary.slowest, !slowest.isEmpty {
            target.line("slowest \(slowest.count == 1 ? "test" : "\(slowest.count) tests"):")
            let times = slowest.map(\.seconds.millisecondsText)
            let width = times.map(\.count).max() ?? 0
            for (test, time) in zip(slowest, times) {
                target.line("  " + String(repeating: " ", count: width - time.count) + time + "  " + TestFilter.subject(path: test.path, test: test.name))
            }
            target.line()
        }
        target.line(summary.tally.totals(milliseconds: summary.milliseconds))
        if summary.updatedLines > 0 {
            target.line("updated \(summary.updatedLines) expect line\(summary.updatedLines == 1 ? "" : "s") in \(summary.updatedFiles) file\(summary.updatedFiles == 1 ? "" : "s")")
        }
        let outcome = summary.tally.outcome
        target.line(summary.tally.exitCode == CLI.ExitCode.success ? style.green(outcome) : style.red(outcome))
    }

    /// Prints a block without doubled or trailing blank lines, then one blank line.
    private func emit(_ block: [String]) {
        var previousBlank = true
        for line in block {
            let blank = line.isEmpty
            if !(blank && previousBlank) { target.line(line) }
            previousBlank = blank
        }
        if !previousBlank { target.line() }
    }

    /// What `--update` did to a file: each changed line before and after, or why nothing was written.
    func lines(for update: FileUpdate, path: String) -> [String] {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        switch update {
        case .unchanged:
            return []
        case .refused(let reason), .unwritable(let reason):
            return ["  " + style.red("not updated:") + " " + reason]
        case .updated(let changes):
            var output: [String] = [""]
            for change in changes {
                output.append("  " + style.bold("updated") + " " + style.dim("\(fileName):\(change.line)"))
                if let before = change.before { output.append("    " + style.red("- " + before.trimmingLeadingSpaces)) }
                if let after = change.after { output.append("    " + style.green("+ " + after.trimmingLeadingSpaces)) }
            }
            return output
        }
    }

    /// A file's block: the file's own mistakes (alone when no test could run), then a line per test.
    func lines(for report: FileReport, updated: Set<String> = []) -> [String] {
        guard !report.tests.isEmpty else {
            return report.diagnostics.flatMap { SourceExcerpt.lines($0, indent: 0, style: style) }
        }
        let path = Self.relativeToWorkingDirectory(report.path)
        let nameWidth = report.tests.map(\.name.count).max() ?? 0
        // A declaration with a mistake that no test uses.
        var tests = report.diagnostics.flatMap { SourceExcerpt.lines($0, indent: 2, style: style) + [""] }
        for test in report.tests where !(quiet && test.outcome == .passed && test.warnings.isEmpty && !updated.contains(test.name)) {
            tests += lines(for: test, path: path, nameWidth: nameWidth, updated: updated.contains(test.name))
        }
        return quiet && tests.isEmpty ? [] : [style.bold(report.path)] + tests
    }

    /// A failing test's line names where to look, as `path:line:column` (which terminals and
    /// editors open): the first failing `expect` line and the stream it checked, or the place of
    /// the error that stopped the run. Each further failing check names its line above its diagram.
    private func lines(for test: TestReport, path: String, nameWidth: Int, updated: Bool) -> [String] {
        let warnings = test.warnings.flatMap { SourceExcerpt.lines($0, indent: 4, style: style) }
        guard test.outcome != .passed else {
            return ["  " + style.green("✓") + " " + test.name + (updated ? "  " + style.dim("(updated)") : "")] + warnings + trace(test)
        }
        let padding = String(repeating: " ", count: nameWidth - test.name.count + 4)
        let failing = test.checks.filter { !$0.passed }
        let place: String
        if let error = test.error {
            // Its own path: a mistake found in a generated page is shown in the file it came from.
            place = "\(Self.relativeToWorkingDirectory(error.path)):\(error.line):\(error.column)"
        } else if let first = failing.first {
            place = Self.place(of: first, path: path)
        } else {
            place = "\(path):\(test.line)"
        }
        var output = ["  " + style.red("✗") + " " + test.name + padding + style.dim(place)]
        output += warnings + trace(test)
        if test.error != nil {
            for error in test.errors {
                output.append("")
                output += SourceExcerpt.lines(error, indent: 4, style: style)
            }
        } else {
            let labelled = test.checks.count > 1
            for (index, check) in failing.enumerated() {
                output.append("")
                if index > 0 { output.append(String(repeating: " ", count: Self.detailIndent) + style.dim(Self.place(of: check, path: path))) }
                output += Self.diagram(check, of: test, labelled: labelled).lines(style: style)
            }
        }
        output.append("")
        return output
    }

    /// `specs/prices.marble:4:3: expect doubled`.
    static func place(of check: CheckReport, path: String) -> String {
        "\(path):\(check.line):\(check.column): expect \(check.label)"
    }

    /// `path` as typed from the working directory: relative when it lies inside it.
    static func relativeToWorkingDirectory(_ path: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        let base = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        guard path.hasPrefix("/"), path.hasPrefix(base), path.count > base.count else { return path }
        return String(path.dropFirst(base.count))
    }

    /// Output of `print` operators, under the test line.
    private func trace(_ test: TestReport) -> [String] {
        let width = test.trace.map { String($0.frame).count }.max() ?? 0
        return test.trace.map { line in
            let frame = String(line.frame)
            return "    " + style.dim("frame " + String(repeating: " ", count: width - frame.count) + frame + ": " + line.text)
        }
    }

    /// The sources of the checked stream, then the expected and the actual line of `check`
    /// (drawn by MarbleDiff, which test failures in MarbleTesting share).
    static func diagram(_ check: CheckReport, of test: TestReport, labelled: Bool) -> TextDiagramLayout {
        TextDiagramLayout(failing: check, of: test, labelled: labelled, indent: Self.detailIndent)
    }
}

extension String {
    var trimmingLeadingSpaces: String { String(drop { $0 == " " || $0 == "\t" }) }
}
