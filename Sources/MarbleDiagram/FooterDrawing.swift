import MarbleNotation
import MarbleReport

/// Under the ruler: the numbered differences, notes and errors.
extension Renderer {
    // MARK: Footer

    enum FooterLine {
        case difference(number: Int?, text: String)
        case note(String)
        case error(String)
    }

    /// Numbered differences, the checks' notes, and a runtime error, wrapped to the width.
    func footerLines(width: Double) -> [FooterLine] {
        let available = max(Layout.narrowestFooter, width - 2 * Layout.padding - Layout.footerBadgeColumn)
        var lines: [FooterLine] = []
        if let error = test.error {
            var text = "error: \(error.message) (line \(error.line), column \(error.column)"
            if let frame = error.frame { text += ", at \(when(frame))" }
            text += ")"
            lines += wrap(text, width: available, size: Layout.footerFont, bold: true).map(FooterLine.error)
            if let hint = error.hint { lines += wrap("hint: " + hint, width: available, size: Layout.footerFont).map(FooterLine.note) }
        }
        for difference in scene.differences {
            let text = "\(when(difference.frame)): \(difference.sentence)"
            for (index, line) in wrap(text, width: available, size: Layout.footerFont).enumerated() {
                lines.append(.difference(number: index == 0 ? difference.number : nil, text: line))
            }
        }
        for check in test.checks where !check.passed {
            for note in check.notes { lines += wrap(note, width: available, size: Layout.footerFont).map(FooterLine.note) }
        }
        for omission in omissions { lines += wrap("not drawn: " + omission, width: available, size: Layout.footerFont).map(FooterLine.note) }
        return lines
    }

    func wrap(_ text: String, width: Double, size: Double, bold: Bool = false) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if !current.isEmpty, TextMetrics.sans(candidate, size: size, bold: bold) > width {
                lines.append(current)
                current = String(word)
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    mutating func drawFooterLine(_ line: FooterLine, y: Double) {
        let x = Layout.padding + Layout.footerBadgeColumn
        switch line {
        case .difference(let number, let text):
            if let number {
                let label = String(number)
                let width = max(Layout.narrowestDifferenceBadge, TextMetrics.sans(label, size: Layout.differenceBadgeFont) + Layout.differenceBadgePadding)
                writer.element("rect", [Attribute("x", Layout.padding + Layout.footerBadgeCentre - width / 2),
                                        Attribute("y", y - Layout.differenceBadgeBaseline - Layout.differenceBadgeHeight / 2), Attribute("width", width),
                                        Attribute("height", Layout.differenceBadgeHeight), Attribute("rx", Layout.differenceBadgeHeight / 2), Attribute("fill", theme.alert)])
                writer.element("text", [Attribute("x", Layout.padding + Layout.footerBadgeCentre), Attribute("y", y), Attribute("text-anchor", "middle"),
                                        Attribute("font-size", Layout.differenceBadgeFont), Attribute("font-weight", "700"), Attribute("fill", theme.background)], text: label)
            }
            writer.element("text", [Attribute("x", x), Attribute("y", y), Attribute("font-size", Layout.footerFont), Attribute("fill", theme.alert)], text: text)
        case .note(let text):
            writer.element("text", [Attribute("x", x), Attribute("y", y), Attribute("font-size", Layout.footerFont), Attribute("font-style", "italic"),
                                    Attribute("fill", theme.muted)], text: text)
        case .error(let text):
            writer.element("text", [Attribute("x", x), Attribute("y", y), Attribute("font-size", Layout.footerFont), Attribute("font-weight", "600"),
                                    Attribute("fill", theme.alert)], text: text)
        }
    }
}
