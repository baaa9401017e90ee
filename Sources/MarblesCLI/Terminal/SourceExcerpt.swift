import MarbleSpec

/// `path:line:column: error: message` (or `warning:`), the offending line and a caret under the column.
enum SourceExcerpt {
    /// The lines for `diagnostic`, each starting with `indent` spaces; the source line and the
    /// caret are indented two more, and the hint follows on its own line.
    static func lines(_ diagnostic: FileDiagnostic, indent: Int, style: Style) -> [String] {
        let lead = String(repeating: " ", count: indent)
        let severity = diagnostic.severity == .warning ? style.yellow("warning:") : style.red("error:")
        var heading = "\(diagnostic.path):\(diagnostic.line):\(diagnostic.column): " + severity + " " + diagnostic.message
        if let frame = diagnostic.frame { heading += " (at frame \(frame))" }
        var output = [lead + heading]
        if !diagnostic.lineText.isEmpty {
            let (text, carets) = excerpt(diagnostic.lineText, column: diagnostic.column, length: diagnostic.length)
            output.append(lead + "  " + text)
            output.append(lead + "  " + carets.prefix + (diagnostic.severity == .warning ? style.yellow(carets.marks) : style.red(carets.marks)))
        }
        if let hint = diagnostic.hint {
            output.append(lead + "  hint: " + hint)
        }
        return output
    }

    /// The line without its indentation (and without trailing whitespace), and the caret line
    /// under it: tabs before the column are kept so that the carets line up in any terminal.
    static func excerpt(_ line: String, column: Int, length: Int) -> (text: String, carets: (prefix: String, marks: String)) {
        var characters = Array(line)
        while let last = characters.last, last == " " || last == "\t" || last == "\r" { characters.removeLast() }
        let leading = characters.prefix { $0 == " " || $0 == "\t" }.count
        let start = Swift.max(0, column - 1)
        let dropped = Swift.min(leading, start)
        characters.removeFirst(dropped)
        let position = start - dropped
        let prefix = String(characters.prefix(position).map { $0 == "\t" ? "\t" : " " })
            + String(repeating: " ", count: Swift.max(0, position - characters.count))
        return (String(characters), (prefix, String(repeating: "^", count: Swift.max(1, length))))
    }
}
