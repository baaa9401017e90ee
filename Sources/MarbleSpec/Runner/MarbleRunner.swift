import Foundation
import MarbleSyntax

/// Runs `.marble` files: parses each, prepares every test (a file with any error runs
/// nothing), then runs the tests and reports each expectation.
public enum MarbleRunner {
    /// Reads and runs one file.
    public static func run(path: String, options: RunOptions = RunOptions()) -> FileReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            return FileReport(path: path, diagnostics: [FileDiagnostic(path: path, line: 1, column: 1, message: "cannot read the file")], tests: [])
        }
        guard let source = String(data: data, encoding: .utf8) else {
            return FileReport(path: path, diagnostics: [invalidUTF8(data, path: path)], tests: [])
        }
        return run(source: source, path: path, options: options)
    }

    /// "not valid UTF-8" at the first byte that is not, with its line (decoded with
    /// replacement characters) and a caret under it.
    static func invalidUTF8(_ data: Data, path: String) -> FileDiagnostic {
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = data.makeIterator()
        var (line, column, lineStart, offset) = (1, 1, 0, 0)
        decoding: while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let encoded):
                offset += encoded.count
                if encoded.count == 1, encoded.first == UInt8(ascii: "\n") {
                    (line, column, lineStart) = (line + 1, 1, offset)
                } else {
                    column += 1
                }
            case .error, .emptyInput:
                break decoding
            }
        }
        let start = data.startIndex + lineStart
        let lineEnd = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
        let lineText = String(decoding: data[start..<lineEnd], as: UTF8.self)
        return FileDiagnostic(path: path, line: line, column: column, message: "the file is not valid UTF-8 (at byte \(offset + 1))",
                              hint: "save the file as UTF-8", lineText: lineText)
    }

    /// Runs the text of a file; `path` is only used in messages.
    public static func run(source: String, path: String, options: RunOptions = RunOptions()) -> FileReport {
        onLargeStack { runOnThisThread(source: source, path: path, options: options) }
    }

    /// The stack each file runs on. The limits (expression depth, pipeline depth, a stream
    /// inside itself) bound every recursion of the parser's walks, the interpreter and the
    /// engine; this is the margin under them whatever thread calls in — a secondary thread's
    /// default stack (512 KB on some systems) is far smaller than the main thread's.
    static let stackSize = 256 << 20

    /// How many prepared tests of one file are kept from the check for their run.
    static let preparedTestsKept = 1_000

    /// `work` on a thread with `stackSize` bytes of stack (reserved, not touched), waited for.
    static func onLargeStack<T: Sendable>(_ work: @escaping @Sendable () -> T) -> T {
        let result = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result.value = work()
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        // The semaphore orders the write before this read.
        return result.value!
    }

    private final class ResultBox<T>: @unchecked Sendable {
        var value: T?
    }

    private static func runOnThisThread(source: String, path: String, options: RunOptions) -> FileReport {
        let lines = LineTable(source)
        // Every test is prepared (and checked) before any runs. A prepared test holds its
        // scheduler, interpreter and streams, so only the first `preparedTestsKept` selected ones
        // are kept for their run (preparing parses every line: twice would cost twice); the
        // others are let go and prepared again when they run (preparing is deterministic). The
        // file is parsed test by test, each test's syntax let go once it is prepared, and parsed
        // again for the run only past the kept tests: a file of a million tests holds neither a
        // million sessions nor a million syntax trees.
        func prepare(_ test: TestSyntax, _ fileStatements: [Statement]) -> TestSession {
            TestSession(test, path: path, lines: lines, fileStatements: fileStatements, options: options)
        }
        func isSelected(_ test: TestSyntax) -> Bool { options.selectedTests?.contains(test.name) ?? true }
        var kept: [TestSession] = []
        var selectedCount = 0
        var testCount = 0
        // A mistake in a file-level statement (a declaration, a `values` line) is found by every
        // test that sees it: reported once.
        var sessionDiagnostics: [FileDiagnostic] = []
        var reported: Set<FileDiagnostic> = []
        let (file, syntaxErrors) = MarbleFileParser.parse(source) { fileStatements, test in
            testCount += 1
            let session = prepare(test, fileStatements)
            sessionDiagnostics += session.diagnostics.filter { reported.insert($0).inserted }
            guard isSelected(test) else {
                session.tearDown()
                return
            }
            selectedCount += 1
            if kept.count < preparedTestsKept { kept.append(session) } else { session.tearDown() }
        }
        let syntaxDiagnostics = syntaxErrors.map { error in
            FileDiagnostic(path: path, line: error.location.line, column: error.location.column, length: error.length,
                           message: error.message, hint: error.hint,
                           lineText: lines.line(error.location.line))
        }
        let syntaxSet = Set(syntaxDiagnostics)
        var diagnostics = syntaxDiagnostics + sessionDiagnostics.filter { !syntaxSet.contains($0) }
        if testCount == 0 && diagnostics.isEmpty {
            // At the last file-level statement (where a test would follow), else the first line.
            let place = file.statements.last?.location ?? SourceLocation(line: 1, column: 1)
            diagnostics.append(FileDiagnostic(path: path, line: place.line, column: place.column, message: "the file has no tests",
                                              hint: "start one with `test \"name\"`", lineText: lines.line(place.line)))
        }
        guard diagnostics.isEmpty else {
            for session in kept { session.tearDown() }
            return FileReport(path: path, diagnostics: diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) }, tests: [])
        }
        var reports: [TestReport] = []
        reports.reserveCapacity(selectedCount)
        func run(_ session: TestSession) {
            defer { session.tearDown() }
            let report = session.run()
            reports.append(options.keepsPassingReports || report.outcome != .passed ? report : report.passingSummary)
        }
        let keptCount = kept.count
        for index in kept.indices {
            run(kept[index])
        }
        kept = []
        if selectedCount > keptCount {
            var selectedIndex = 0
            _ = MarbleFileParser.parse(source) { fileStatements, test in
                guard isSelected(test) else { return }
                defer { selectedIndex += 1 }
                if selectedIndex >= keptCount { run(prepare(test, fileStatements)) }
            }
        }
        return FileReport(path: path, diagnostics: [], tests: reports)
    }
}

extension TestReport {
    /// What a summary shows of a passing test: its name, line, time, warnings and `print`
    /// output (not its checks' events, its streams or its values).
    var passingSummary: TestReport {
        var summary = TestReport(name: name, line: line, checks: [], error: nil, trace: trace, frameNanoseconds: frameNanoseconds, seconds: seconds)
        summary.warnings = warnings
        summary.endFrame = endFrame
        return summary
    }
}
