/// A position as the Language Server Protocol counts it: a 0-based line (lines break at `\n`,
/// `\r\n` and `\r`) and a 0-based offset in UTF-16 code units within it.
public struct Position: Hashable, Sendable, Comparable {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    public static func < (lhs: Position, rhs: Position) -> Bool { (lhs.line, lhs.character) < (rhs.line, rhs.character) }

    var json: JSON { ["line": .int(line), "character": .int(character)] }

    init?(_ json: JSON?) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int, line >= 0, character >= 0 else { return nil }
        self.init(line: line, character: character)
    }
}

/// A half-open stretch of a document in LSP positions.
public struct Range: Hashable, Sendable {
    public var start: Position
    public var end: Position

    public init(start: Position, end: Position) {
        self.start = start
        self.end = end
    }

    var json: JSON { ["start": start.json, "end": end.json] }

    init?(_ json: JSON?) {
        guard let start = Position(json?["start"]), let end = Position(json?["end"]), start <= end else { return nil }
        self.init(start: start, end: end)
    }
}

/// The text of an open document, with the two ways of counting positions in it: the project's
/// (1-based line and column, columns in `Character`s, lines broken at every newline character
/// `Character.isNewline` knows, as `LineTable` does) and LSP's (0-based, UTF-16 code units,
/// lines broken at `\n`, `\r\n` and `\r` only). Both map through the UTF-16 offset from the start
/// of the text, so a line holding `é`, an emoji or a vertical tab converts exactly.
public struct DocumentText: Sendable {
    public let text: String
    /// UTF-16 offset where each of the project's lines starts, and where its content ends.
    private let projectLines: [(start: Int, end: Int)]
    /// UTF-16 offset where each LSP line starts.
    private let lspLineStarts: [Int]
    /// The text's length in UTF-16 code units.
    private let length: Int

    public init(_ text: String) {
        self.text = text
        var project: [(start: Int, end: Int)] = []
        var lsp: [Int] = [0]
        var offset = 0
        var projectStart = 0
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let width = scalar.utf16.count
            switch scalar.value {
            case 0x0D where index + 1 < scalars.count && scalars[index + 1] == "\n":
                project.append((projectStart, offset))
                offset += 2
                index += 2
                projectStart = offset
                lsp.append(offset)
                continue
            case 0x0A, 0x0D:
                project.append((projectStart, offset))
                offset += 1
                projectStart = offset
                lsp.append(offset)
            case 0x0B, 0x0C, 0x85, 0x2028, 0x2029:
                project.append((projectStart, offset))
                offset += width
                projectStart = offset
            default:
                offset += width
            }
            index += 1
        }
        project.append((projectStart, offset))
        projectLines = project
        lspLineStarts = lsp
        length = offset
    }

    /// How many LSP lines the text has (a text ending in a line break has an empty last line).
    public var lineCount: Int { lspLineStarts.count }

    // MARK: offsets

    /// The UTF-16 offset of an LSP position, clamped into its line (a character past the line's
    /// end is its end; a line past the last is the text's end).
    func offset(of position: Position) -> Int {
        guard position.line < lspLineStarts.count else { return length }
        let start = lspLineStarts[position.line]
        let end = lineContentEnd(lspLine: position.line)
        return min(start + position.character, end)
    }

    /// Where the content of LSP line `line` ends (before its line break).
    private func lineContentEnd(lspLine line: Int) -> Int {
        guard line + 1 < lspLineStarts.count else { return length }
        let next = lspLineStarts[line + 1]
        // The break before the next line is 1 unit, or 2 for CR LF.
        let breakStart = next - 1
        if breakStart > lspLineStarts[line], utf16Unit(at: breakStart - 1) == 0x0D, utf16Unit(at: breakStart) == 0x0A { return breakStart - 1 }
        return breakStart
    }

    private func utf16Unit(at offset: Int) -> UInt16? {
        let utf16 = text.utf16
        guard offset >= 0, offset < length else { return nil }
        return utf16[utf16.index(utf16.startIndex, offsetBy: offset)]
    }

    /// The LSP position of a UTF-16 offset.
    func position(ofOffset offset: Int) -> Position {
        let offset = max(0, min(offset, length))
        var low = 0
        var high = lspLineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lspLineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return Position(line: low, character: offset - lspLineStarts[low])
    }

    /// The text of the project's line `line` (1-based), without its break; nil past the end.
    private func projectLineText(_ line: Int) -> Substring? {
        guard line >= 1, line <= projectLines.count else { return nil }
        let (start, end) = projectLines[line - 1]
        let utf16 = text.utf16
        let from = utf16.index(utf16.startIndex, offsetBy: start)
        let to = utf16.index(from, offsetBy: end - start)
        return text[from..<to]
    }

    /// The UTF-16 offset of the project's (line, column), 1-based, columns in `Character`s; a
    /// column past the line's end is its end.
    func offset(line: Int, column: Int) -> Int {
        guard line >= 1 else { return 0 }
        guard line <= projectLines.count, let characters = projectLineText(line) else { return length }
        var index = characters.startIndex
        var steps = column - 1
        while steps > 0, index < characters.endIndex {
            index = characters.index(after: index)
            steps -= 1
        }
        return projectLines[line - 1].start + characters.utf16.distance(from: characters.startIndex, to: index)
    }

    /// The LSP range of `length` characters from the project's (line, column), kept within the line.
    public func range(line: Int, column: Int, length: Int) -> Range {
        let start = offset(line: line, column: column)
        let end = offset(line: line, column: column + max(length, 0))
        return Range(start: position(ofOffset: start), end: position(ofOffset: max(start, end)))
    }

    /// The LSP position of the project's (line, column).
    public func position(line: Int, column: Int) -> Position { position(ofOffset: offset(line: line, column: column)) }

    /// The project's (line, column) of an LSP position (a position inside a character, such as
    /// between the two halves of a surrogate pair, is that character).
    public func projectLocation(of position: Position) -> (line: Int, column: Int) {
        let target = offset(of: position)
        var low = 0
        var high = projectLines.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if projectLines[middle].start <= target { low = middle } else { high = middle - 1 }
        }
        guard let characters = projectLineText(low + 1) else { return (low + 1, 1) }
        var column = 1
        var consumed = projectLines[low].start
        var index = characters.startIndex
        while index < characters.endIndex {
            let next = characters.index(after: index)
            let width = characters.utf16.distance(from: index, to: next)
            if consumed + width > target { break }
            consumed += width
            column += 1
            index = next
        }
        return (low + 1, column)
    }

    /// The range of the whole text, for an edit that replaces it.
    public var wholeRange: Range { Range(start: Position(line: 0, character: 0), end: position(ofOffset: length)) }

    /// The text between two LSP positions.
    func text(in range: Range) -> String {
        let utf16 = text.utf16
        let from = utf16.index(utf16.startIndex, offsetBy: offset(of: range.start))
        let to = utf16.index(utf16.startIndex, offsetBy: max(offset(of: range.start), offset(of: range.end)))
        return String(Substring(text[from..<to]))
    }

    /// The text with `range` replaced by `newText` (an incremental change).
    func replacing(_ range: Range, with newText: String) -> String {
        let utf16 = text.utf16
        let from = utf16.index(utf16.startIndex, offsetBy: offset(of: range.start))
        let to = utf16.index(utf16.startIndex, offsetBy: max(offset(of: range.start), offset(of: range.end)))
        // Offsets inside a surrogate pair round to a character boundary.
        let lower = from.samePosition(in: text.unicodeScalars) ?? text.unicodeScalars.index(before: from)
        let upper = to.samePosition(in: text.unicodeScalars) ?? text.unicodeScalars.index(after: to)
        var result = String(text.unicodeScalars[..<lower])
        result += newText
        result += String(text.unicodeScalars[upper...])
        return result
    }
}
