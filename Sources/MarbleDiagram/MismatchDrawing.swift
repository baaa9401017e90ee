import MarbleNotation
import MarbleReport

/// The mismatch view: highlights and numbered badges where expectation and outcome differ.
extension Renderer {
    // MARK: Mismatch view

    func highlightBounds(_ highlight: Highlight, tops: [Double], lanesBottom: Double) -> (top: Double, bottom: Double) {
        let top = tops.indices.contains(highlight.lanes.lowerBound) ? tops[highlight.lanes.lowerBound] : lanesBottom
        let next = highlight.lanes.upperBound + 1
        let bottom = tops.indices.contains(next) ? tops[next] : lanesBottom
        return (top + Layout.highlightInset, bottom - Layout.highlightInset)
    }

    mutating func drawHighlight(_ highlight: Highlight, tops: [Double], lanesBottom: Double) {
        let bounds = highlightBounds(highlight, tops: tops, lanesBottom: lanesBottom)
        for item in highlight.frames {
            let x = scale.x(item.frame)
            let width = highlightWidth(highlight, frame: item.frame)
            writer.element("rect", [Attribute("class", "highlight"), Attribute("x", x - width / 2), Attribute("y", bounds.top), Attribute("width", width),
                                    Attribute("height", bounds.bottom - bounds.top), Attribute("rx", Layout.highlightCorner), Attribute("fill", theme.alertFill),
                                    Attribute("stroke", theme.alert), Attribute("stroke-width", "1"), Attribute("stroke-dasharray", "3 2")])
        }
    }

    /// A highlight is as wide as the widest marble it covers at its frame (a pill can be several frames wide).
    func highlightWidth(_ highlight: Highlight, frame: Int) -> Double {
        var widest = frameWidth
        for index in highlight.lanes where scene.lanes.indices.contains(index) {
            let events = Self.events(of: scene.lanes[index])
            let rooms = rooms(events)
            for event in events where event.frame == frame {
                guard case .value(let token) = event.event else { continue }
                let label = fitted(labels.label(token), room: rooms[frame] ?? .infinity)
                widest = max(widest, max(2 * radius, TextMetrics.monospace(label, size: valueFont) + Layout.pillPadding) + Layout.highlightMargin)
            }
        }
        return widest
    }

    mutating func drawBadges(_ highlight: Highlight, tops: [Double], lanesBottom: Double) {
        let bounds = highlightBounds(highlight, tops: tops, lanesBottom: lanesBottom)
        for item in highlight.frames {
            let text = item.numbers.map(String.init).joined(separator: ",")
            let width = max(Layout.narrowestDifferenceBadge, TextMetrics.sans(text, size: Layout.differenceBadgeFont) + Layout.differenceBadgePadding)
            let x = scale.x(item.frame)
            let y = bounds.bottom - Layout.highlightBadgeRaise
            writer.open("g", [Attribute("class", "difference")])
            writer.element("rect", [Attribute("x", x - width / 2), Attribute("y", y - Layout.differenceBadgeHeight / 2), Attribute("width", width),
                                    Attribute("height", Layout.differenceBadgeHeight), Attribute("rx", Layout.differenceBadgeHeight / 2), Attribute("fill", theme.alert)])
            writer.element("text", [Attribute("x", x), Attribute("y", y + Layout.differenceBadgeBaseline), Attribute("text-anchor", "middle"), Attribute("font-size", Layout.differenceBadgeFont),
                                    Attribute("font-weight", "700"), Attribute("fill", theme.background)], text: text)
            writer.close("g")
        }
    }
}
