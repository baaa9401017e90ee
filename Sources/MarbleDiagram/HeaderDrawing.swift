import Foundation
import MarbleNotation
import MarbleReport

/// The title and subtitle above the lanes, wrapped to the diagram's width.
extension Renderer {
    // MARK: Header

    var subtitle: String {
        var text = "\(path):\(test.line) · 1 frame = \(TimeText.describe(nanoseconds: test.frameNanoseconds))"
        if !scale.breaks.isEmpty { text += " · idle stretches squeezed" }
        return text
    }

    var status: String? {
        switch test.outcome {
        case .passed: return nil
        case .failed: return "expectation not met"
        case .error: return "stopped with an error"
        }
    }

    /// The title wrapped at words, then the subtitle wrapped at its ` · ` parts, to the width.
    func headerLines(width: Double) -> (title: [String], subtitle: [String]) {
        let available = width - 2 * Layout.padding
        var title = wrap(test.name, width: available, size: Layout.titleFont, bold: true)
        // Balanced: the narrowest width that needs no more lines, so no word is left alone.
        if title.count > 1 {
            var narrow = available / 2
            var wide = available
            while wide - narrow > Layout.titleBalanceTolerance {
                let middle = (narrow + wide) / 2
                if wrap(test.name, width: middle, size: Layout.titleFont, bold: true).count > title.count { narrow = middle } else { wide = middle }
            }
            title = wrap(test.name, width: wide, size: Layout.titleFont, bold: true)
        }
        var parts = subtitle.components(separatedBy: " · ")
        if let status { parts.append(status) }
        var lines: [String] = []
        for part in parts {
            if let last = lines.last, TextMetrics.sans(last + " · " + part, size: Layout.subtitleFont) <= available {
                lines[lines.count - 1] = last + " · " + part
            } else {
                lines += wrap(part, width: available, size: Layout.subtitleFont)
            }
        }
        return (title, lines)
    }

    var headerHeight: Double {
        Double(header.title.count) * Layout.titleLineHeight + Double(header.subtitle.count) * Layout.subtitleLineHeight + Layout.headerGap
    }

    mutating func drawHeader() {
        var y = Layout.padding + Layout.titleBaseline
        for line in header.title {
            writer.element("text", [Attribute("x", Layout.padding), Attribute("y", y), Attribute("font-size", Layout.titleFont),
                                    Attribute("font-weight", "600"), Attribute("fill", theme.ink)], text: line)
            y += Layout.titleLineHeight
        }
        y -= Layout.subtitleRaise
        for line in header.subtitle {
            let attributes = [Attribute("x", Layout.padding), Attribute("y", y), Attribute("font-size", Layout.subtitleFont), Attribute("fill", theme.muted)]
            if let status, line.hasSuffix(status) {
                let lead = String(line.dropLast(status.count))
                writer.text(attributes, spans: [([], lead), ([Attribute("fill", theme.alert), Attribute("font-weight", "600")], status)])
            } else {
                writer.element("text", attributes, text: line)
            }
            y += Layout.subtitleLineHeight
        }
    }
}
