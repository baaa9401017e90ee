import MarbleDiff
import MarbleSpec

extension LanguageServer {
    /// `textDocument/hover`: on a stream's name, what it did in the last run, drawn under the
    /// sources that feed it, frame by frame in the same columns; on an operator or publisher,
    /// its Combine signature and one line of behaviour, from the catalogue (`marbles operators`).
    func hover(_ params: JSON?) throws(ResponseError) -> JSON {
        let (document, position) = try documentPosition(params)
        let syntax = DocumentSyntax(document.text)
        guard let word = syntax.word(at: position) else { return .null }
        let range = document.text.range(line: word.line, column: word.column, length: word.text.count)
        let test = syntax.test(atLine: word.line)
        let lines: [String]
        if let test, word.before != ".", syntax.streams(of: test).contains(where: { $0.name == word.text }) {
            lines = Hovers.stream(word.text, test: test.name, run: document.run?.report)
        } else if let operatorLines = Hovers.catalogue(word.text, asMember: word.before == ".") {
            lines = operatorLines
        } else {
            return .null
        }
        let value = hoverMarkdown ? lines.joined(separator: "\n") : Hovers.plain(lines)
        return ["contents": ["kind": .string(hoverMarkdown ? "markdown" : "plaintext"), "value": .string(value)], "range": range.json]
    }
}

enum Hovers {
    /// A stream's hover: its marbles in the last run, under the sources that feed it.
    static func stream(_ name: String, test testName: String, run: FileReport?) -> [String] {
        let test = run?.tests.first { $0.name == testName }
        guard let test, let stream = test.streams.first(where: { $0.name == name }) else {
            let why = test?.cannotRunAsWritten == true ? "the test has a mistake, so it did not run" : "no run of this test yet"
            return ["**\(name)**: a stream of test \"\(testName)\"", "", "(\(why))"]
        }
        var rows: [DiagramRow] = TextDiagramLayout.sources(of: name, in: test).map { source in
            source.isCold
                ? .unaligned(label: source.name, events: source.events, frameNanoseconds: test.frameNanoseconds, note: "(cold: plays from each subscription)")
                : .aligned(label: source.name, events: source.events)
        }
        let isSource = stream.kind != .derived && stream.kind != .subject
        if let observed = stream.observed {
            rows.append(.aligned(label: isSource ? name + " (received)" : name, events: observed))
        }
        var lines = ["**\(name)**" + (stream.expression.map { " = `\($0)`" } ?? " (\(kind(stream.kind)))"), ""]
        if rows.isEmpty {
            lines.append("(not observed in the last run: no expect, subscribe or demand line names it)")
            return lines
        }
        lines.append("```marble")
        lines += TextDiagramLayout(rows: rows, differences: [], notes: [], indent: 0).lines()
        lines.append("```")
        if stream.observed == nil { lines.append("(\(name) itself is not observed: no expect, subscribe or demand line names it)") }
        let subscriptions = stream.subscriptions.map { "frame \($0.start) " + ($0.end.map { "to \($0)" } ?? "on") }
        if !subscriptions.isEmpty { lines.append("subscribed " + subscriptions.joined(separator: ", ")) }
        return lines
    }

    static func kind(_ kind: StreamReport.Kind) -> String {
        switch kind {
        case .hot: return "hot"
        case .cold: return "cold"
        case .subject: return "subject"
        case .derived: return "derived"
        }
    }

    /// An operator's or publisher's hover: each signature of that name, and what it does.
    static func catalogue(_ name: String, asMember: Bool) -> [String]? {
        let signatures = Catalogue.signatures.filter { signature in
            switch signature.kind {
            case .method: return signature.name == name && asMember
            case .constructor: return signature.name == name || signature.name.hasSuffix("." + name)
            case .property: return false
            }
        }
        guard !signatures.isEmpty else { return nil }
        var lines: [String] = []
        for signature in signatures {
            if !lines.isEmpty { lines.append("") }
            lines += ["```swift", signature.usage, "```", signature.summary, "", "(marbles/operators/\(signature.family).marble)"]
        }
        return lines
    }

    /// Markdown lines as plain text: code fences dropped, `**` and backticks kept out.
    static func plain(_ lines: [String]) -> String {
        lines.filter { !$0.hasPrefix("```") }.map { $0.replacingBold }.joined(separator: "\n")
    }
}

private extension String {
    var replacingBold: String { split(separator: "**", omittingEmptySubsequences: false).joined() }
}
