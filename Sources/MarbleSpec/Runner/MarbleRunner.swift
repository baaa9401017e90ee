import Foundation
import MarbleSyntax

/// Runs `.marble` files: parses each, prepares every test, then runs the tests and reports each
/// expectation. A mistake costs the tests it is in or that use it; one in the file's structure
/// costs the file.
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
        // Every test is prepared (and checked) before any runs: the whole file is parsed first,
        // since a mistake in its structure anywhere (a `test` line) means none can. A prepared
        // test holds its scheduler, interpreter and streams, so only the first
        // `preparedTestsKept` selected ones are kept for their run; the others are prepared when
        // they run, the file parsed again test by test (preparing is deterministic), each test's
        // syntax let go once it is prepared: a file of a million tests holds neither a million
        // sessions nor a million syntax trees.
        //
        // What a mistake costs (docs/language.md, "One mistake costs one test"): one in a test's
        // lines, that test; one in a file-level declaration or `values` line, the tests that use
        // it (`FilePrelude`); one in the file's structure or its `frame`, the whole file.
        var prelude: FilePrelude?
        /// The file-level mistakes some test of the file uses (selected or not).
        var usedMistakes: Set<Int> = []
        func isSelected(_ test: TestSyntax) -> Bool { options.selectedTests?.contains(test.name) ?? true }
        /// A selected test, prepared to run, or with the mistakes that keep it from running.
        enum Prepared {
            case session(TestSession)
            case notRun(TestReport)
        }
        func prepare(_ test: TestSyntax, _ prelude: FilePrelude) -> Prepared {
            let used = prelude.mistakes(usedBy: test, lines: lines)
            guard used.isEmpty else {
                return .notRun(.notRun(name: test.name, line: test.location.line, diagnostics: prelude.diagnostics(used), frameNanoseconds: 1_000_000))
            }
            let session = TestSession(test, path: path, lines: lines, fileStatements: prelude.statements, options: options)
            guard session.diagnostics.isEmpty else {
                defer { session.tearDown() }
                return .notRun(.notRun(name: test.name, line: test.location.line,
                                       diagnostics: session.diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) },
                                       frameNanoseconds: session.frameNanoseconds))
            }
            return .session(session)
        }
        var kept: [Prepared] = []
        var selectedCount = 0
        var testCount = 0
        var structureBroken = false
        let (file, syntaxErrors) = MarbleFileParser.parseTests(source) { fileSoFar, test in
            testCount += 1
            if prelude == nil { prelude = FilePrelude(fileSoFar, path: path, lines: lines, options: options) }
            guard let prelude else { return }
            structureBroken = structureBroken || !fileSoFar.structureErrors.isEmpty || !prelude.fileErrors.isEmpty
            if prelude.hasMistakes { usedMistakes.formUnion(prelude.mistakes(usedBy: test, lines: lines)) }
            guard isSelected(test) else { return }
            selectedCount += 1
            if !structureBroken, kept.count < preparedTestsKept { kept.append(prepare(test, prelude)) }
        }
        let filePrelude = prelude ?? FilePrelude(file, path: path, lines: lines, options: options)
        var diagnostics: [FileDiagnostic]
        if !file.structureErrors.isEmpty || !filePrelude.fileErrors.isEmpty {
            // No test can run: every syntax error of the file, and what voided it.
            diagnostics = syntaxErrors.map { FileDiagnostic($0, path: path, lines: lines) } + filePrelude.fileErrors
        } else {
            diagnostics = filePrelude.unusedMistakes(used: usedMistakes)
            if testCount == 0 && diagnostics.isEmpty {
                // At the last file-level statement (where a test would follow), else the first line.
                let place = file.statements.last?.location ?? SourceLocation(line: 1, column: 1)
                diagnostics.append(FileDiagnostic(path: path, line: place.line, column: place.column, message: "the file has no tests",
                                                  hint: "start one with `test \"name\"`", lineText: lines.line(place.line)))
            }
        }
        diagnostics.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        guard file.structureErrors.isEmpty && filePrelude.fileErrors.isEmpty && testCount > 0 else {
            for case .session(let session) in kept { session.tearDown() }
            return FileReport(path: path, diagnostics: diagnostics, tests: [])
        }
        var reports: [TestReport] = []
        reports.reserveCapacity(selectedCount)
        func run(_ prepared: Prepared) {
            switch prepared {
            case .notRun(let report):
                reports.append(report)
            case .session(let session):
                defer { session.tearDown() }
                let report = session.run()
                reports.append(options.keepsPassingReports || report.outcome != .passed ? report : report.passingSummary)
            }
        }
        let keptCount = kept.count
        for index in kept.indices {
            run(kept[index])
        }
        kept = []
        if selectedCount > keptCount {
            var selectedIndex = 0
            _ = MarbleFileParser.parseTests(source) { _, test in
                guard isSelected(test) else { return }
                defer { selectedIndex += 1 }
                if selectedIndex >= keptCount { run(prepare(test, filePrelude)) }
            }
        }
        return FileReport(path: path, diagnostics: diagnostics, tests: reports)
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
