/// The lines of a source text, found once and quoted on demand (a diagnostic shows its line).
/// Lines break where the parser counts them — at every newline character, `\r\n` being one — so
/// line N here is line N of every `SourceLocation`.
public struct LineTable: Sendable {
    private let text: String
    /// For each line, the UTF-8 offsets where its content starts and ends (before its line break).
    private let ranges: [Range<Int>]

    public init(_ text: String) {
        var text = text
        self.ranges = text.withUTF8(LineTable.lines(in:))
        self.text = text
    }

    /// Every newline character of `Character.isNewline` in UTF-8: LF, VT, FF, CR (CR LF is one),
    /// NEL (C2 85), LINE SEPARATOR and PARAGRAPH SEPARATOR (E2 80 A8/A9).
    private static func lines(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            // Most bytes cannot start a line break: step over them first.
            if byte > 0x0D && byte < 0xC2 {
                index += 1
                continue
            }
            var breakLength = 0
            switch byte {
            case 0x0A, 0x0B, 0x0C: breakLength = 1
            case 0x0D: breakLength = index + 1 < count && bytes[index + 1] == 0x0A ? 2 : 1
            case 0xC2: breakLength = index + 1 < count && bytes[index + 1] == 0x85 ? 2 : 0
            case 0xE2: breakLength = index + 2 < count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9) ? 3 : 0
            default: break
            }
            if breakLength > 0 {
                ranges.append(start..<index)
                index += breakLength
                start = index
            } else {
                index += 1
            }
        }
        ranges.append(start..<count)
        return ranges
    }

    /// How many lines the text has (a text ending in a line break has an empty last line).
    public var count: Int { ranges.count }

    /// Line `number` (1-based) without its line break; "" when there is no such line.
    public func line(_ number: Int) -> String {
        guard ranges.indices.contains(number - 1) else { return "" }
        let range = ranges[number - 1]
        let utf8 = text.utf8
        return String(decoding: utf8[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)], as: UTF8.self)
    }
}
