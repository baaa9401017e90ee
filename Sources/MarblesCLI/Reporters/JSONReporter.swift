import Foundation
import MarbleNotation
import MarbleRewrite
import MarbleSpec

/// The whole run as one JSON document (keys sorted, so equal runs give equal text): the
/// summary, every path that could not run, and per file its diagnostics or its tests — each
/// test with its outcome, wall time, runtime error, sources, print output and checks, and each
/// check with every event it expected and every event that happened (frame, type, value as a
/// marble token), its marbles, and the differences. `JSONReport` is the schema.
final class JSONReporter: Reporter {
    private let target: ReportTarget
    private var document = JSONReport()

    init(target: ReportTarget) {
        self.target = target
    }

    func problem(path: String, message: String) {
        document.problems.append(.init(path: path, message: message))
    }

    func file(_ result: FileResult) {
        let report = result.report
        var file = JSONReport.File(path: report.path, seconds: result.seconds, diagnostics: report.diagnostics.map(JSONReport.Diagnostic.init),
                                   tests: report.tests.map(JSONReport.Test.init))
        if let update = result.update, case .updated(let changes) = update {
            file.updated = changes.map { .init(line: $0.line, test: $0.test, before: $0.before, after: $0.after) }
        } else if let update = result.update, case .refused(let reason) = update {
            file.notUpdated = reason
        } else if let update = result.update, case .unwritable(let reason) = update {
            file.notUpdated = reason
        }
        document.files.append(file)
    }

    func finish(_ summary: RunSummary) {
        let tally = summary.tally
        document.summary = .init(files: tally.files, tests: tally.tests, passed: tally.passed, failed: tally.failed, errors: tally.errors,
                                 warnings: tally.warnings, milliseconds: summary.milliseconds, stoppedEarly: summary.stoppedEarly, exitCode: Int(tally.exitCode))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            target.write(String(decoding: try encoder.encode(document), as: UTF8.self) + "\n")
        } catch {
            target.write("{\"error\": \"the report could not be encoded\"}\n")
        }
    }
}

/// The schema of `--reporter json`.
struct JSONReport: Codable, Equatable {
    var version = 1
    var summary = Summary()
    var problems: [Problem] = []
    var files: [File] = []

    struct Summary: Codable, Equatable {
        var files = 0
        var tests = 0
        var passed = 0
        var failed = 0
        var errors = 0
        var warnings = 0
        var milliseconds = 0
        var stoppedEarly = false
        var exitCode = 0
    }

    /// A path given on the command line that could not run.
    struct Problem: Codable, Equatable {
        var path: String
        var message: String
    }

    struct File: Codable, Equatable {
        var path: String
        var seconds: Double
        /// The file's own mistakes: why none of its tests ran (`tests` is empty), or a
        /// declaration with a mistake no test uses.
        var diagnostics: [Diagnostic]
        var tests: [Test]
        /// With `--update`: the lines rewritten.
        var updated: [LineChange]? = nil
        /// With `--update`: why the file was left alone.
        var notUpdated: String? = nil
    }

    struct LineChange: Codable, Equatable {
        var line: Int
        var test: String
        var before: String?
        var after: String?
    }

    struct Diagnostic: Codable, Equatable {
        var line: Int
        var column: Int
        var length: Int
        var message: String
        var hint: String?
        var frame: Int?

        init(_ diagnostic: FileDiagnostic) {
            line = diagnostic.line
            column = diagnostic.column
            length = diagnostic.length
            message = diagnostic.message
            hint = diagnostic.hint
            frame = diagnostic.frame
        }
    }

    struct Test: Codable, Equatable {
        var name: String
        var line: Int
        /// `passed`, `failed` or `error`.
        var outcome: String
        var seconds: Double
        /// What stopped it: the first of `diagnostics`, or a runtime error.
        var error: Diagnostic?
        /// Its mistakes (in it, or in a file-level declaration it uses): it did not run.
        var diagnostics: [Diagnostic]
        /// Streams the test defines and never checks.
        var warnings: [Diagnostic]
        var sources: [Source]
        var checks: [Check]
        var trace: [TraceLine]

        init(_ test: TestReport) {
            name = test.name
            line = test.line
            switch test.outcome {
            case .passed: outcome = "passed"
            case .failed: outcome = "failed"
            case .error: outcome = "error"
            }
            seconds = test.seconds
            error = test.error.map(Diagnostic.init)
            diagnostics = test.diagnostics.map(Diagnostic.init)
            warnings = test.warnings.map(Diagnostic.init)
            sources = test.sources.map { Source(name: $0.name, cold: $0.isCold, timeline: Timeline($0.events, frameNanoseconds: test.frameNanoseconds)) }
            checks = test.checks.map { Check($0, frameNanoseconds: test.frameNanoseconds) }
            trace = test.trace.map { TraceLine(frame: $0.frame, text: $0.text) }
        }
    }

    struct Source: Codable, Equatable {
        var name: String
        var cold: Bool
        var timeline: Timeline
    }

    struct Check: Codable, Equatable {
        /// `events`, `subscriptions` or `requests`.
        var kind: String
        var label: String
        var stream: String
        var line: Int
        /// The column of the line's `expect`.
        var column: Int
        var passed: Bool
        var expected: Timeline
        var actual: Timeline
        var differences: [Difference]
        var notes: [String]

        init(_ check: CheckReport, frameNanoseconds: Int64) {
            switch check.kind {
            case .events: kind = "events"
            case .subscriptions: kind = "subscriptions"
            case .requests: kind = "requests"
            }
            label = check.label
            stream = check.stream
            line = check.line
            column = check.column
            passed = check.passed
            expected = Timeline(check.expected, frameNanoseconds: frameNanoseconds)
            actual = Timeline(check.actual, frameNanoseconds: frameNanoseconds)
            differences = check.differences.map { Difference(frame: $0.frame, sentence: $0.sentence) }
            notes = check.notes
        }
    }

    struct Difference: Codable, Equatable {
        var frame: Int
        var sentence: String
    }

    /// Events, and the same events as marbles.
    struct Timeline: Codable, Equatable {
        var marbles: String
        var events: [Event]

        init(_ events: [RenderedEvent], frameNanoseconds: Int64) {
            marbles = MarblePrinter.render(events.map { ($0.frame, $0.event) }, frameNanoseconds: frameNanoseconds, compressingGapsLongerThan: 40)
            self.events = events.map(Event.init)
        }
    }

    struct Event: Codable, Equatable {
        var frame: Int
        /// `value`, `finished`, `failure`, `subscribe`, `cancel` or `request`.
        var type: String
        /// A value as a marble token (`a`, `{42}`); a failure's error (`{"boom"}`, absent for `#`);
        /// a request's demand (`3`, `{12}`, `*` for unlimited).
        var value: String?

        init(_ event: RenderedEvent) {
            frame = event.frame
            switch event.event {
            case .value(let token): type = "value"; value = token
            case .finished: type = "finished"
            case .failure(let error): type = "failure"; value = error
            case .subscribe: type = "subscribe"
            case .cancel: type = "cancel"
            case .request: type = "request"; value = event.event.text
            }
        }
    }

    struct TraceLine: Codable, Equatable {
        var frame: Int
        var text: String
    }
}
