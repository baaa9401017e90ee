import MarbleDiff
import MarbleSpec

/// A run's findings as LSP diagnostics (`textDocument/publishDiagnostics`).
enum Diagnostics {
    enum Severity: Int {
        case error = 1, warning = 2, information = 3, hint = 4
    }

    /// The mistakes and warnings of `report` (the run of `text`), and with `withResults` each
    /// failing expectation (on its `expect` line, the diff in its message) and each runtime error.
    static func of(_ report: FileReport, in text: DocumentText, uri: String, withResults: Bool) -> [JSON] {
        var diagnostics = report.allDiagnostics.map { problem($0, in: text) }
        for test in report.tests {
            diagnostics += test.warnings.map { problem($0, in: text) }
            guard withResults, test.diagnostics.isEmpty else { continue }
            if let error = test.error {
                // A runtime error, or a limit that stopped the run.
                var diagnostic = error
                diagnostic.message = "test \"\(test.name)\" stopped: " + error.message + (error.frame.map { " (at frame \($0))" } ?? "")
                diagnostics.append(problem(diagnostic, in: text))
                continue
            }
            let labelled = test.checks.count > 1
            for check in test.checks where !check.passed {
                diagnostics.append(failure(check, of: test, labelled: labelled, in: text))
            }
        }
        return diagnostics
    }

    /// A mistake or warning, on its exact range, its hint on a second line. A caret of one
    /// character at the start of a name (`unknown operator 'mapp'`) underlines the whole name.
    static func problem(_ diagnostic: FileDiagnostic, in text: DocumentText) -> JSON {
        var message = diagnostic.message
        if let hint = diagnostic.hint { message += "\nhint: " + hint }
        var length = diagnostic.length
        if length == 1 {
            let characters = Array(diagnostic.lineText.dropFirst(max(0, diagnostic.column - 1)).prefix(while: DocumentSyntax.isWordCharacter))
            length = max(1, characters.count)
        }
        return make(range: text.range(line: diagnostic.line, column: diagnostic.column, length: length),
                    severity: diagnostic.severity == .warning ? .warning : .error, message: message)
    }

    /// A failing check: from its `expect` to the end of the line, with the diagram `marbles run`
    /// prints (the sources, expected and actual, a caret under each difference, the sentences).
    static func failure(_ check: CheckReport, of test: TestReport, labelled: Bool, in text: DocumentText) -> JSON {
        let diagram = TextDiagramLayout(failing: check, of: test, labelled: labelled, indent: 0).lines()
        let message = "test \"\(test.name)\" failed: expect \(check.label)\n" + diagram.joined(separator: "\n")
        let range = text.range(line: check.line, column: check.column, length: Int.max / 2)
        return make(range: range, severity: .error, message: message)
    }

    static func make(range: Range, severity: Severity, message: String) -> JSON {
        ["range": range.json, "severity": .int(severity.rawValue), "source": "marbles", "message": .string(message)]
    }
}
