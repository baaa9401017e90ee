import AtomicFiles
import Foundation
import MarbleDiff
import MarbleRewrite
import MarbleSpec

/// One file's outcome in `marbles run`: the report, how long the file took, and what
/// `--update` did to it.
struct FileResult: Sendable {
    var report: FileReport
    /// Wall time for the file: reading, parsing, preparing and running its tests.
    var seconds: Double
    var update: FileUpdate?
}

/// A test and its wall time, for `--slowest`.
struct TimedTest: Sendable, Equatable {
    var path: String
    var name: String
    var line: Int
    var seconds: Double
}

/// What the reporters hear at the end of a run.
struct RunSummary {
    var tally: Tally
    var milliseconds: Int
    /// `--fail-fast` stopped the run at a failure.
    var stoppedEarly = false
    /// With `--slowest N`: the N slowest tests, slowest first.
    var slowest: [TimedTest]? = nil
    /// With `--update`: lines changed, and files written.
    var updatedLines = 0
    var updatedFiles = 0
}

/// Receives a run's results in discovery order, whatever order they were computed in.
protocol Reporter: AnyObject {
    /// A path given on the command line that cannot be run.
    func problem(path: String, message: String)
    func file(_ result: FileResult)
    func finish(_ summary: RunSummary)
}

/// Where a reporter writes: standard output as it goes, or a file written whole (atomically) at
/// the end of the run.
final class ReportTarget {
    private let printer: Printer?
    let path: String?
    private var buffer = ""

    private init(printer: Printer?, path: String?) {
        self.printer = printer
        self.path = path
    }

    static func standardOutput(_ printer: Printer) -> ReportTarget { ReportTarget(printer: printer, path: nil) }
    static func file(_ path: String) -> ReportTarget { ReportTarget(printer: nil, path: path) }

    func line(_ text: String = "") {
        if let printer {
            printer.line(text)
        } else {
            buffer += text + "\n"
        }
    }

    func write(_ text: String) {
        if let printer {
            printer.sink.standardOutput(text)
        } else {
            buffer += text
        }
    }

    /// Writes a file target's text (its folder created if need be). Standard output needs nothing.
    func close() throws {
        guard let path else { return }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A report to a FIFO or a device (`--output /dev/stdout`) is written into it.
        try AtomicFile.write(Data(buffer.utf8), to: path, nonRegular: .writeInPlace)
    }
}

extension TestReport {
    /// What stopped the test: its mistakes (it did not run), or its runtime error.
    var errors: [FileDiagnostic] {
        diagnostics.isEmpty ? (error.map { [$0] } ?? []) : diagnostics
    }

    /// The first difference of each failing check, or the (first) error: one line for a summary.
    var failureHeadline: String {
        if let error {
            let more = diagnostics.count > 1 ? " (and \(diagnostics.count - 1) more)" : ""
            return error.message + (error.frame.map { " (at frame \($0))" } ?? "") + more
        }
        let failing = checks.filter { !$0.passed }
        guard let first = failing.first, let difference = first.differences.first else { return "failed" }
        let total = failing.reduce(0) { $0 + $1.differences.count }
        let more = total > 1 ? " (and \(total - 1) more)" : ""
        return "\(first.label): frame \(difference.frame): \(difference.sentence)" + more
    }
}

/// The failure of a test as plain text (no colour): the marble diagram of each failing check,
/// or the runtime error with its line — what a human reads in a CI report.
enum FailureText {
    static func lines(for test: TestReport) -> [String] {
        let style = Style(enabled: false)
        if test.error != nil {
            return test.errors.flatMap { SourceExcerpt.lines($0, indent: 0, style: style) }
        }
        let failing = test.checks.filter { !$0.passed }
        var output: [String] = []
        for check in failing {
            if !output.isEmpty { output.append("") }
            var layout = HumanReporter.diagram(check, of: test, labelled: test.checks.count > 1)
            layout.indent = 0
            output += layout.lines(style: style)
        }
        return output
    }

    static func text(for test: TestReport) -> String { lines(for: test).joined(separator: "\n") }

    /// The file's own diagnostics, as plain text.
    static func lines(for diagnostics: [FileDiagnostic]) -> [String] {
        diagnostics.flatMap { SourceExcerpt.lines($0, indent: 0, style: Style(enabled: false)) }
    }
}

extension Double {
    /// Seconds as text with millisecond precision, for XML attributes and summaries: `0.012`.
    var secondsText: String {
        String(format: "%.3f", self)
    }

    /// Seconds as milliseconds for people: `12.3 ms`, `1,234 ms`.
    var millisecondsText: String {
        let milliseconds = self * 1000
        return milliseconds < 10 ? String(format: "%.2f ms", milliseconds)
            : milliseconds < 100 ? String(format: "%.1f ms", milliseconds)
            : String(format: "%.0f ms", milliseconds)
    }
}
