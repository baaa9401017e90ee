/// A file's text as lines, each with the exact line break that ended it, so that text rebuilt
/// from the lines is the original, character for character. Lines are split where the
/// `.marble` parser counts them: at every newline character (`\n`, `\r\n`, `\r`, …).
public struct SourceLines: Equatable, Sendable {
    /// One line: its characters and the line break that ended it.
    public struct Line: Equatable, Sendable {
        public var content: [Character]
        /// "" for a last line without a line break.
        public var terminator: String

        public init(content: [Character], terminator: String) {
            self.content = content
            self.terminator = terminator
        }

        /// The line without its line break.
        public var text: String { String(content) }
    }

    public var lines: [Line]

    /// The lines of `source`; at least one (an empty file is one empty line).
    public init(_ source: String) {
        var lines: [Line] = []
        var current: [Character] = []
        for character in source {
            if character.isNewline {
                lines.append(Line(content: current, terminator: String(character)))
                current = []
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(Line(content: current, terminator: "")) }
        self.lines = lines
    }

    /// The lines joined again, each with its line break.
    public var text: String {
        var text = ""
        for line in lines {
            text += String(line.content)
            text += line.terminator
        }
        return text
    }

    /// Line `number` (1-based), if there is one.
    public subscript(number: Int) -> Line? {
        lines.indices.contains(number - 1) ? lines[number - 1] : nil
    }
}
