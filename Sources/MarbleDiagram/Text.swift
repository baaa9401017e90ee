import MarbleNotation

/// A `values` entry of the test: `A = ("a", 1)`. The report writes such values by their
/// one-character name; with the literal the diagram can show what the name stands for.
public struct NamedValue: Sendable, Hashable {
    public var name: Character
    /// The literal as written after `=`.
    public var literal: String

    public init(name: Character, literal: String) {
        self.name = name
        self.literal = literal
    }
}

/// What the marbles of one diagram say, and which values share a colour.
struct ValueLabels {
    /// The longest literal written inside a marble instead of its name.
    static let longestInlineLiteral = 8

    private(set) var table: [Character: String] = [:]
    /// Whether named values are drawn as their literals (all short enough) or as their names.
    private(set) var inline = true
    /// The named values drawn by name, in order of name, for the legend.
    private(set) var legend: [NamedValue] = []

    /// - Parameters:
    ///   - values: the test's `values` entries in file order (a later entry of a name wins).
    ///   - tokens: every value token the diagram draws.
    init(values: [NamedValue], tokens: [String]) {
        for value in values { table[value.name] = value.literal }
        var used: [Character] = []
        for token in tokens {
            if let name = Self.name(of: token), table[name] != nil, !used.contains(name) { used.append(name) }
        }
        inline = used.allSatisfy { name in table[name].map { TextMetrics.units($0) <= Self.longestInlineLiteral } ?? true }
        if !inline {
            legend = used.sorted().compactMap { name in table[name].map { NamedValue(name: name, literal: $0) } }
        }
    }

    private static func name(of token: String) -> Character? {
        token.count == 1 ? token.first : nil
    }

    /// The value's literal: what two equal values have in common however they were written.
    func key(_ token: String) -> String {
        if let name = Self.name(of: token) {
            if let literal = table[name] { return literal }
            if name.isASCII, name.isWholeNumber { return token }
            return "\"" + token + "\""
        }
        return Self.unbraced(token)
    }

    /// The text inside the marble.
    func label(_ token: String) -> String {
        if let name = Self.name(of: token) {
            if inline, let literal = table[name] { return literal }
            return token
        }
        return Self.unbraced(token)
    }

    /// The tooltip of a marble: the value as a literal, and its name if it has one.
    func tooltip(_ token: String) -> String {
        if let name = Self.name(of: token), let literal = table[name] { return "\(name) = \(literal)" }
        return key(token)
    }

    /// `{42}` → `42`; anything else unchanged.
    static func unbraced(_ token: String) -> String {
        guard token.count >= 2, token.hasPrefix("{"), token.hasSuffix("}") else { return token }
        return String(token.dropFirst().dropLast())
    }

    /// The message of a failure token: `nil` → `error`, `{"boom"}` → `boom`.
    static func failureMessage(_ text: String?) -> String {
        guard let text else { return "error" }
        let literal = unbraced(text)
        if literal.count >= 2, literal.hasPrefix("\""), literal.hasSuffix("\""), !literal.dropFirst().dropLast().contains("\\"),
           !literal.dropFirst().dropLast().contains("\"") {
            return String(literal.dropFirst().dropLast())
        }
        return literal
    }
}

/// Text widths. An SVG has no font metrics; these are measured widths of the fallback fonts
/// (the widest of the families declared), so that boxes and columns are wide enough in any of
/// them. Monospace: 0.61 em a cell (DejaVu Sans Mono and Menlo 0.602, Liberation Mono 0.6).
enum TextMetrics {
    static let monospaceFamily = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', 'Liberation Mono', monospace"
    static let sansFamily = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, 'DejaVu Sans', sans-serif"

    /// Width in monospace cells: wide (East Asian, emoji) characters count two.
    static func units(_ text: String) -> Int {
        text.reduce(0) { $0 + (isWide($1) ? 2 : 1) }
    }

    static func isWide(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        let value = scalar.value
        return (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
            || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1FAFF).contains(value) || (0x20000...0x3FFFD).contains(value)
    }

    /// A monospace cell's advance, in ems (see above).
    static let monospaceAdvance = 0.61

    static func monospace(_ text: String, size: Double) -> Double {
        Double(units(text)) * size * monospaceAdvance
    }

    /// The sans-serif width of `text`: per character the wider of DejaVu Sans and Liberation
    /// Sans (Arial's metrics), the fonts the declared list falls back to on Linux, as measured
    /// in headless Chromium (`CanvasRenderingContext2D.measureText` at 100 px); the system fonts
    /// listed first (San Francisco, Segoe UI, Helvetica) are narrower. Characters outside ASCII
    /// count as wide as the widest letter.
    static func sans(_ text: String, size: Double, bold: Bool = false) -> Double {
        let table = bold ? sansBoldWidths : sansWidths
        var thousandths = 0
        for character in text {
            if isWide(character) { thousandths += 1000; continue }
            if let ascii = character.asciiValue, ascii >= 32, ascii < 127 {
                thousandths += Int(table[Int(ascii) - 32])
            } else {
                thousandths += bold ? 1103 : 1015
            }
        }
        return Double(thousandths) / 1000 * size
    }

    /// Advance widths in thousandths of an em of the characters 32…126.
    private static let sansWidths: [UInt16] = [
        318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
        636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 556,
        1015, 684, 686, 722, 770, 667, 611, 778, 752, 295, 500, 667, 557, 863, 748, 787,
        667, 787, 722, 667, 611, 732, 684, 989, 685, 667, 685, 390, 337, 390, 838, 556,
        500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
        635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
    ]
    private static let sansBoldWidths: [UInt16] = [
        348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
        696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 611,
        1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 556, 775, 637, 995, 837, 850,
        733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 556,
        500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
        716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
    ]

    /// `text` cut to at most `units` cells, ending in `…` when cut.
    static func truncated(_ text: String, toUnits limit: Int) -> String {
        guard units(text) > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = isWide(character) ? 2 : 1
            if used + width > max(0, limit - 1) { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }
}

/// Times on the ruler: `0`, `300ms`, `1.6s`, `250µs`.
enum TimeText {
    static func describe(frames: Int, frameNanoseconds: Int64) -> String {
        let (nanoseconds, overflow) = Int64(frames).multipliedReportingOverflow(by: frameNanoseconds)
        guard !overflow else { return "\(frames)f" }
        return describe(nanoseconds: nanoseconds)
    }

    static func describe(nanoseconds: Int64) -> String {
        if nanoseconds == 0 { return "0" }
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let units: [(UInt64, String)] = [(60_000_000_000, "min"), (1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "µs"), (1, "ns")]
        for (size, suffix) in units where magnitude >= size {
            if suffix == "min", magnitude % size != 0 { continue }
            return sign + decimal(magnitude, over: size) + suffix
        }
        return sign + "\(magnitude)ns"
    }

    /// `magnitude / size` with up to three decimals, trailing zeros dropped.
    private static func decimal(_ magnitude: UInt64, over size: UInt64) -> String {
        let whole = magnitude / size
        let rest = magnitude % size
        guard rest != 0 else { return "\(whole)" }
        let thousandths = (rest * 1000 + size / 2) / size
        if thousandths == 0 { return "\(whole)" }
        if thousandths == 1000 { return "\(whole + 1)" }
        var digits = String(thousandths)
        while digits.count < 3 { digits = "0" + digits }
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}

extension PrintableEvent {
    var isTerminal: Bool {
        switch self {
        case .finished, .failure: return true
        default: return false
        }
    }
}

extension ValueLabels {
    /// The named values a sentence mentions by name (`expected E, got D`) that the marbles do
    /// not show by name (they show literals) and the legend does not explain yet, by name.
    func namesUsed(in sentences: [String]) -> [NamedValue] {
        guard inline else { return [] }
        var names: Set<Character> = []
        for sentence in sentences {
            for word in sentence.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) where word.count == 1 {
                if let name = word.first, table[name] != nil { names.insert(name) }
            }
        }
        return names.sorted().compactMap { name in table[name].map { NamedValue(name: name, literal: $0) } }
    }
}
