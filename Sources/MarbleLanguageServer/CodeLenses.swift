import MarbleRewrite
import MarbleSpec

/// The commands the server's code lenses run (`workspace/executeCommand`).
enum ServerCommand: String, CaseIterable {
    /// `[uri, test name]`: runs one test of the document as it is, and shows its result.
    case runTest = "marbles.runTest"
    /// `[uri, test name, line]`: rewrites the failing `expect` line `line` (1-based; 0 or absent:
    /// every failing one) of the test with what happened, as `marbles run --update` would, as
    /// an edit the client applies (`workspace/applyEdit`).
    case updateExpect = "marbles.updateExpect"
}

extension LanguageServer {
    /// `textDocument/codeLens`: "run this test" above each test, and "update this expect" above
    /// each failing `expect` line of the last run of the text as it is.
    func codeLenses(_ params: JSON?) throws(ResponseError) -> JSON {
        let document = try document(params)
        let syntax = DocumentSyntax(document.text)
        var lenses: [JSON] = syntax.file.tests.map { test in
            lens(document.text.range(line: test.location.line, column: test.location.column, length: 4),
                 title: "▶ run this test", .runTest, [.string(document.uri), .string(test.name)])
        }
        if let run = document.run, run.text.text == document.text.text {
            for test in run.report.tests where test.outcome == .failed {
                for check in test.checks where !check.passed && check.rewritable {
                    lenses.append(lens(document.text.range(line: check.line, column: check.column, length: 6),
                                       title: "update this expect", .updateExpect, [.string(document.uri), .string(test.name), .int(check.line)]))
                }
            }
        }
        return .array(lenses)
    }

    private func lens(_ range: Range, title: String, _ command: ServerCommand, _ arguments: [JSON]) -> JSON {
        ["range": range.json, "command": ["title": .string(title), "command": .string(command.rawValue), "arguments": .array(arguments)]]
    }

    /// `workspace/executeCommand` for the lenses' commands.
    func executeCommand(_ params: JSON?) throws(ResponseError) -> JSON {
        guard let name = params?["command"]?.string else { throw .invalidParams("the request names no command") }
        guard let command = ServerCommand(rawValue: name) else { throw .invalidParams("unknown command '\(name)'") }
        let arguments = params?["arguments"]?.array ?? []
        guard let uri = arguments.first?.string, let testName = arguments.dropFirst().first?.string else {
            throw .invalidParams("\(name) takes the document's URI and the test's name")
        }
        guard let document = documents[uri] else { throw .invalidParams("the document \(uri) is not open") }
        guard DocumentSyntax(document.text).file.tests.contains(where: { $0.name == testName }) else {
            throw .invalidParams("the document has no test \"\(testName)\"")
        }
        switch command {
        case .runTest: return runTest(testName, of: document)
        case .updateExpect: return try updateExpect(testName, line: arguments.dropFirst(2).first?.int ?? 0, of: document)
        }
    }

    /// Runs the document's text as it is, shows the test's outcome (`window/showMessage`) and
    /// its failures (diagnostics), and answers the outcome.
    private func runTest(_ name: String, of document: OpenDocument) -> JSON {
        check(document, withResults: true)
        guard let report = document.run?.report.tests.first(where: { $0.name == name }) else {
            let message = "test \"\(name)\" did not run: the file has a mistake"
            notify("window/showMessage", ["type": 1, "message": .string(message)])
            return ["test": .string(name), "outcome": "error", "message": .string(message)]
        }
        let outcome: String
        let message: String
        switch report.outcome {
        case .passed:
            outcome = "passed"
            message = "✓ \(name)"
        case .failed:
            outcome = "failed"
            let failing = report.checks.filter { !$0.passed }
            message = "✗ \(name): " + failing.map { "expect \($0.label) (line \($0.line))" }.joined(separator: ", ")
        case .error:
            outcome = "error"
            message = "✗ \(name): " + (report.error.map { "line \($0.line): \($0.message)" } ?? "error")
        }
        notify("window/showMessage", ["type": .int(report.outcome == .passed ? 3 : 1), "message": .string(message)])
        return ["test": .string(name), "outcome": .string(outcome), "message": .string(message)]
    }

    /// Sends the client the edit that updates the test's failing `expect` line `line` (0: all
    /// of them), computed as `--update` computes it, from the text as it is; answers the edits.
    private func updateExpect(_ name: String, line: Int, of document: OpenDocument) throws(ResponseError) -> JSON {
        var options = Self.runOptions
        options.selectedTests = [name]
        let source = document.text.text
        let report = MarbleRunner.run(source: source, path: document.path, options: options)
        let rewritten: String
        switch SnapshotWriter.rewrite(source: source, report: report, path: document.path, options: options) {
        case .failure(let refusal): throw ResponseError(code: ErrorCode.requestFailed, message: refusal.reason)
        case .success(let result): rewritten = result.source
        }
        let edits = TextEdits.updating(document.text, to: rewritten, onlyLine: line)
        guard !edits.isEmpty else { return ["edits": 0] }
        sendRequest("workspace/applyEdit", ["label": .string("update expect (\(name))"),
                                            "edit": ["changes": .object([document.uri: .array(edits.map(\.json))])]])
        return ["edits": .int(edits.count)]
    }
}

extension TextEdits {
    /// The edits from `old` to `new`: when both have the same lines, one per changed line (only
    /// line `onlyLine` when it is not 0 and changed); otherwise (lines added or removed) the one
    /// edit `between` gives.
    static func updating(_ old: DocumentText, to new: String, onlyLine: Int) -> [TextEdit] {
        let before = old.text.split(separator: "\n", omittingEmptySubsequences: false)
        let after = new.split(separator: "\n", omittingEmptySubsequences: false)
        guard before.count == after.count else { return between(old, and: new) }
        var edits: [TextEdit] = []
        var offset = 0
        for (index, (was, now)) in zip(before, after).enumerated() {
            defer { offset += was.utf16.count + 1 }
            guard was != now, onlyLine == 0 || onlyLine == index + 1 else { continue }
            edits.append(TextEdit(range: Range(start: old.position(ofOffset: offset), end: old.position(ofOffset: offset + was.utf16.count)),
                                  newText: String(now)))
        }
        return edits
    }
}
