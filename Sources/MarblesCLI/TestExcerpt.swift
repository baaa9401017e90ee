import Foundation
import MarbleRewrite
import MarbleSyntax

/// The lines of one test of a `.marble` file, with the file-level `frame` and `values` lines
/// it depends on: a `.marble` file of its own that runs as the test does there. What the
/// gallery shows beside a diagram and what docs/operators.md quotes.
enum TestExcerpt {
    /// Each test's excerpt by the line of its `test` keyword (nothing for a file that does not parse).
    static func excerpts(of source: String) -> [Int: String] {
        excerptLines(of: source).mapValues { $0.map(\.text).joined(separator: "\n") }
    }

    /// Each test's excerpt as lines, each with the line of the file it was taken from (nil for
    /// the blank line between the file-level lines and the test's).
    static func excerptLines(of source: String) -> [Int: [(text: String, line: Int?)]] {
        let parsed = MarbleFileParser.parse(source)
        guard parsed.errors.isEmpty else { return [:] }
        let lines = SourceLines(source).lines.map(\.text)
        func text(_ range: ClosedRange<Int>) -> [(text: String, line: Int?)] {
            let lower = max(1, range.lowerBound), upper = min(lines.count, range.upperBound)
            return lower <= upper ? (lower...upper).map { (lines[$0 - 1], $0) } : []
        }
        let header = parsed.file.statements.flatMap { text($0.sourceLine...$0.range.end.line) }
        var result: [Int: [(text: String, line: Int?)]] = [:]
        for test in parsed.file.tests {
            let last = test.statements.map(\.range.end.line).max() ?? test.location.line
            let own = text(test.location.line...max(last, test.location.line))
            result[test.location.line] = (header.isEmpty ? [] : header + [("", nil)]) + own
        }
        return result
    }

    static func excerpts(ofFileAt path: String) -> [Int: String] {
        guard let data = FileManager.default.contents(atPath: path), let source = String(data: data, encoding: .utf8) else { return [:] }
        return excerpts(of: source)
    }
}
