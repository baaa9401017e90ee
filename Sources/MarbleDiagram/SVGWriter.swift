/// Text escaping, number formatting and an element writer that produce the same bytes for
/// the same drawing: attributes keep the order they are given in, numbers are rounded to
/// hundredths and written without trailing zeros.
enum SVG {
    /// Escapes text for element content and for double-quoted attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                // Characters XML 1.0 does not allow at all (other control characters,
                // surrogates, U+FFFE/U+FFFF) become U+FFFD so that the output always parses.
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `12`, `12.5`, `-0.25`: hundredths, no trailing zeros, never `-0`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = Int((value * 100).rounded())
        if hundredths == 0 { return "0" }
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        let whole = magnitude / 100
        let fraction = magnitude % 100
        if fraction == 0 { return "\(sign)\(whole)" }
        if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

/// One attribute: a name and its value (escaped when written).
struct Attribute {
    var name: String
    var value: String

    init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    init(_ name: String, _ value: Double) {
        self.name = name
        self.value = SVG.number(value)
    }

    init(_ name: String, _ value: Int) {
        self.name = name
        self.value = String(value)
    }
}

/// Builds an indented SVG document element by element.
struct SVGWriter {
    private(set) var lines: [String] = []
    private var depth = 0
    /// Whether to note the colours of `fill` and `stroke` attributes (for an adaptive diagram's style).
    var recordsPaints = false
    /// The values of the `fill` and `stroke` attributes written, by attribute name (when `recordsPaints`).
    private(set) var paints: [String: Set<String>] = [:]

    private mutating func render(_ name: String, _ attributes: [Attribute]) -> String {
        var text = "<" + name
        for attribute in attributes {
            text += " " + attribute.name + "=\"" + SVG.escape(attribute.value) + "\""
            if recordsPaints, attribute.name == "fill" || attribute.name == "stroke" { paints[attribute.name, default: []].insert(attribute.value) }
        }
        return text
    }

    private var indent: String { String(repeating: "  ", count: depth) }

    mutating func open(_ name: String, _ attributes: [Attribute] = []) {
        lines.append(indent + render(name, attributes) + ">")
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        lines.append(indent + "</" + name + ">")
    }

    /// An element without children, or with `text` as its only content.
    mutating func element(_ name: String, _ attributes: [Attribute] = [], text: String? = nil) {
        if let text {
            lines.append(indent + render(name, attributes) + ">" + SVG.escape(text) + "</" + name + ">")
        } else {
            lines.append(indent + render(name, attributes) + "/>")
        }
    }

    /// An element with a `<title>` child (a tooltip in browsers) and nothing else.
    mutating func element(_ name: String, _ attributes: [Attribute], title: String?) {
        guard let title else { return element(name, attributes) }
        open(name, attributes)
        element("title", text: title)
        close(name)
    }

    /// A `<text>` of several differently styled `<tspan>`s, on one line so that no whitespace
    /// appears between them.
    mutating func text(_ attributes: [Attribute], spans: [(attributes: [Attribute], text: String)]) {
        var line = indent + render("text", attributes) + ">"
        for span in spans {
            line += span.attributes.isEmpty ? SVG.escape(span.text) : render("tspan", span.attributes) + ">" + SVG.escape(span.text) + "</tspan>"
        }
        lines.append(line + "</text>")
    }

    /// Lines written as they are (no escaping) at one level inside the root, before line `index`.
    mutating func insert(_ raw: [String], at index: Int) {
        lines.insert(contentsOf: raw.map { "  " + $0 }, at: index)
    }

    var document: String { lines.joined(separator: "\n") + "\n" }
}
