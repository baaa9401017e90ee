/// A file's text as lines, each with the exact line break that ended it, so that text rebuilt
/// from the lines is the original, character for character. Lines are split where the
/// `.marble` parser counts them: at every newline character (`\n`, `\r\n`, `\r`, …).
public struct SourceLines: Equatable, Sendable {
    /// One line: its characters and the line break that ended it.
    public struct Line: Equatable, Sendable {
        /// The line's text: a slice of the file's text until it is changed, so that a file's
        /// lines share its storage (a million-test file is six million lines).
        public var characters: Substring
        /// "" for a last line without a line break.
        public var terminator: String

        public init(content: [Character], terminator: String) {
            self.init(characters: Substring(String(content)), terminator: terminator)
        }

        public init(characters: Substring, terminator: String) {
            self.characters = characters
            self.terminator = terminator
        }

        /// The line's characters, for indexing by column.
        public var content: [Character] {
            get { Array(characters) }
            set { characters = Substring(String(newValue)) }
        }

        /// The line without its line break.
        public var text: String { String(characters) }
    }

    public var lines: [Line]

    /// The lines of `source`; at least one (an empty file is one empty line).
    public init(_ source: String) {
        var lines: [Line] = []
        let utf8 = source.utf8
        // A newline is always a character of its own (`\r\n` one character), so the lines break
        // at the bytes `LineTable` breaks at: found in UTF-8, not character by character.
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte > 0x0D && byte < 0xC2 {
                index = utf8.index(after: index)
                continue
            }
            var end = utf8.index(after: index)
            let next: UInt8? = end < utf8.endIndex ? utf8[end] : nil
            var isBreak = false
            switch byte {
            case 0x0A, 0x0B, 0x0C: isBreak = true
            case 0x0D:
                isBreak = true
                if next == 0x0A { end = utf8.index(after: end) }
            case 0xC2 where next == 0x85:
                isBreak = true
                end = utf8.index(after: end)
            case 0xE2 where next == 0x80:
                let third = utf8.index(after: end)
                if third < utf8.endIndex, utf8[third] == 0xA8 || utf8[third] == 0xA9 {
                    isBreak = true
                    end = utf8.index(after: third)
                }
            default: break
            }
            guard isBreak else {
                index = utf8.index(after: index)
                continue
            }
            lines.append(Line(characters: source[start..<index], terminator: String(source[index..<end])))
            start = end
            index = end
        }
        if start < utf8.endIndex || lines.isEmpty { lines.append(Line(characters: source[start...], terminator: "")) }
        self.lines = lines
    }

    /// The lines joined again, each with its line break.
    public var text: String {
        var text = ""
        text.reserveCapacity(lines.reduce(0) { $0 + $1.characters.utf8.count + $1.terminator.utf8.count })
        for line in lines {
            text += line.characters
            text += line.terminator
        }
        return text
    }

    /// Line `number` (1-based), if there is one.
    public subscript(number: Int) -> Line? {
        lines.indices.contains(number - 1) ? lines[number - 1] : nil
    }
}
