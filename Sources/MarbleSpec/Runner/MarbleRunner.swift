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
        let (file, syntaxErrors) = MarbleFileParser.parse(source)
        var diagnostics = syntaxErrors.map { error in
            FileDiagnostic(path: path, line: error.location.line, column: error.location.column, length: error.length,
                           message: error.message, hint: error.hint,
                           lineText: lines.line(error.location.line))
        }
        // Every test is prepared (and checked) before any runs. A prepared test holds its
        // scheduler, interpreter and streams, so only the first `preparedTestsKept` selected ones
        // are kept for their run (preparing parses every line: twice would cost twice); the
        // others are let go and prepared again when they run (preparing is deterministic), so a
        // file of a million tests does not hold a million of them.
        func prepare(_ test: TestSyntax) -> TestSession {
            TestSession(test, path: path, lines: lines, fileStatements: file.statements, options: options)
        }
        func isSelected(_ test: TestSyntax) -> Bool { options.selectedTests?.contains(test.name) ?? true }
        var kept: [TestSession?] = []
        // A mistake in a file-level statement (a declaration, a `values` line) is found by every
        // test that sees it: reported once.
        var reported = Set(diagnostics)
        for test in file.tests {
            let session = prepare(test)
            diagnostics += session.diagnostics.filter { reported.insert($0).inserted }
            if kept.count < preparedTestsKept, isSelected(test) {
                kept.append(session)
            } else {
                if isSelected(test) { kept.append(nil) }
                session.tearDown()
            }
        }
        if file.tests.isEmpty && diagnostics.isEmpty {
            // At the last file-level statement (where a test would follow), else the first line.
            let place = file.statements.last?.location ?? SourceLocation(line: 1, column: 1)
            diagnostics.append(FileDiagnostic(path: path, line: place.line, column: place.column, message: "the file has no tests",
                                              hint: "start one with `test \"name\"`", lineText: lines.line(place.line)))
        }
        guard diagnostics.isEmpty else {
            for session in kept { session?.tearDown() }
            return FileReport(path: path, diagnostics: diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) }, tests: [])
        }
        let selected = file.tests.filter(isSelected)
        return FileReport(path: path, diagnostics: [], tests: selected.enumerated().map { index, test in
            let session = kept[index] ?? prepare(test)
            kept[index] = nil
            defer { session.tearDown() }
            return session.run()
        })
    }
}
