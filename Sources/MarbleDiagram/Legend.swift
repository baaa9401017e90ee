import MarbleReport

/// A mark other than a value marble that a diagram can use; the legend explains the ones it uses.
enum Mark: CaseIterable {
    case finished, failed, cancelled, dropped, subscription, repeated, requested, demand, connected, squeezed, expected, fanOut

    var text: String {
        switch self {
        case .finished: return "finished"
        case .failed: return "failed"
        case .cancelled: return "cancelled"
        case .dropped: return "dropped: no demand for it"
        case .subscription: return "subscribed … ended"
        case .repeated: return "identical subscriptions"
        case .requested: return "demand asked of a source"
        case .demand: return "demand of the test's subscriber"
        case .connected: return "connected (connect line)"
        case .squeezed: return "idle time squeezed"
        case .expected: return "expected (dashed)"
        case .fanOut: return "input read by several operators"
        }
    }

    var legendEntry: LegendEntry { LegendEntry(symbol: .mark(self), text: text) }
}

/// One entry of the legend under the ruler: a value's colour and what it stands for, or a mark.
struct LegendEntry: Equatable {
    enum Symbol: Equatable {
        case value(key: String)
        case mark(Mark)
    }

    var symbol: Symbol
    var text: String
}

extension Renderer {
    /// The marks a scene draws, in the order of `Mark`.
    static func marks(of scene: Scene, test: TestReport, squeezed: Bool) -> [Mark] {
        var used: Set<Mark> = []
        func note(_ events: [RenderedEvent]) {
            for event in events {
                switch event.event {
                case .finished: used.insert(.finished)
                case .failure: used.insert(.failed)
                default: break
                }
            }
        }
        func note(_ spans: [Span]) {
            if !spans.isEmpty { used.insert(.subscription) }
            if spans.contains(where: \.cancelled) { used.insert(.cancelled) }
            if spans.contains(where: { $0.count > 1 }) { used.insert(.repeated) }
        }
        for lane in scene.lanes {
            switch lane.content {
            case .timeline(let timeline):
                note(timeline.events)
                note(timeline.spans)
                if !timeline.cuts.isEmpty || timeline.cancelledAt != nil { used.insert(.cancelled) }
                if !timeline.connections.isEmpty { used.insert(.connected) }
                if timeline.ghost { used.insert(.expected) }
                if !timeline.dropped.isEmpty { used.insert(.dropped) }
            case .inner(let instances):
                instances.forEach { note($0.events) }
                if instances.contains(where: { $0.ending == .cancelled }) { used.insert(.cancelled) }
                if instances.contains(where: { !$0.dropped.isEmpty }) { used.insert(.dropped) }
            case .expectedSpans(let spans):
                note(spans)
                used.insert(.expected)
            case .requests(let events, let ghost):
                // A lane that says its subscriber never asked has no badge to explain.
                if !events.isEmpty || lane.note == nil { used.insert(lane.label == "demand" ? .demand : .requested) }
                if ghost { used.insert(.expected) }
            case .box(_, _, let taps):
                if !taps.isEmpty { used.insert(.fanOut) }
            }
        }
        if squeezed { used.insert(.squeezed) }
        return Mark.allCases.filter(used.contains)
    }

    /// A value's entry is drawn in the monospace face (`a = "done"`), a mark's in the sans one.
    static func legendWidth(_ entry: LegendEntry) -> Double {
        let text: Double
        switch entry.symbol {
        case .value: text = TextMetrics.monospace(entry.text, size: Layout.legendFont)
        case .mark: text = TextMetrics.sans(entry.text, size: Layout.legendFont)
        }
        return Layout.legendSymbolWidth + text + Layout.legendGap
    }

    static func legendRows(_ entries: [LegendEntry], width: Double) -> [[LegendEntry]] {
        var rows: [[LegendEntry]] = [[]]
        var x = Layout.padding
        for entry in entries {
            let entryWidth = legendWidth(entry)
            if x + entryWidth - Layout.legendGap > width - Layout.padding, !(rows.last?.isEmpty ?? true) {
                rows.append([])
                x = Layout.padding
            }
            rows[rows.count - 1].append(entry)
            x += entryWidth
        }
        return rows.filter { !$0.isEmpty }
    }

    mutating func drawLegendRow(_ row: [LegendEntry], y: Double) {
        var x = Layout.padding
        writer.open("g", [Attribute("class", "legend")])
        for entry in row {
            switch entry.symbol {
            case .value(let key):
                writer.element("circle", [Attribute("cx", x + Layout.legendSymbolCentre), Attribute("cy", y), Attribute("r", Layout.legendValueRadius),
                                          Attribute("fill", colour(key)), Attribute("stroke", theme.ink), Attribute("stroke-width", "1")])
                writer.element("text", [Attribute("x", x + Layout.legendSymbolWidth), Attribute("y", y + Layout.legendTextBaseline), Attribute("xml:space", "preserve"),
                                        Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", Layout.legendFont),
                                        Attribute("fill", theme.ink)], text: entry.text)
            case .mark(let mark):
                drawLegendSymbol(mark, x: x + Layout.legendSymbolCentre, y: y)
                writer.element("text", [Attribute("x", x + Layout.legendSymbolWidth), Attribute("y", y + Layout.legendTextBaseline), Attribute("font-size", Layout.legendFont),
                                        Attribute("fill", theme.muted)], text: entry.text)
            }
            x += Self.legendWidth(entry)
        }
        writer.close("g")
    }

    /// The mark itself, small, centred at `x`.
    mutating func drawLegendSymbol(_ mark: Mark, x: Double, y: Double) {
        switch mark {
        case .finished: drawFinish(x: x, y: y, half: Layout.legendMarkHalf, ghost: false, frame: nil)
        case .failed: drawCross(x: x, y: y, arm: Layout.legendCrossArm, ghost: false)
        case .cancelled: drawCancel(x: x, y: y, half: Layout.legendMarkHalf, frame: nil)
        case .dropped:
            writer.element("circle", [Attribute("cx", x), Attribute("cy", y), Attribute("r", Layout.legendMarkHalf), Attribute("fill", "none"), Attribute("stroke", theme.muted),
                                      Attribute("stroke-width", "1.5"), Attribute("stroke-dasharray", "3 2")])
        case .subscription:
            let half = Layout.legendMarkHalf
            writer.element("line", [Attribute("x1", x - half), Attribute("y1", y), Attribute("x2", x + half), Attribute("y2", y),
                                    Attribute("stroke", theme.span), Attribute("stroke-width", "2")])
            writer.element("circle", [Attribute("cx", x - half), Attribute("cy", y), Attribute("r", Layout.subscribeDotRadius), Attribute("fill", theme.span)])
            writer.element("line", [Attribute("x1", x + half), Attribute("y1", y - Layout.spanEndHalf), Attribute("x2", x + half), Attribute("y2", y + Layout.spanEndHalf),
                                    Attribute("stroke", theme.span), Attribute("stroke-width", "2.5")])
        case .repeated:
            writer.element("text", [Attribute("x", x), Attribute("y", y + Layout.spanCountBaseline), Attribute("text-anchor", "middle"), Attribute("font-size", Layout.spanCountFont),
                                    Attribute("fill", theme.muted)], text: "×2")
        case .requested, .demand: drawBadge("2", x: x, y: y, ghost: false, demand: mark == .demand)
        case .connected: drawConnectMark(x: x, y: y)
        case .squeezed: drawBreakSlashes(x: x, y: y, colour: theme.muted)
        case .expected:
            writer.element("line", [Attribute("x1", x - Layout.legendLineHalf), Attribute("y1", y), Attribute("x2", x + Layout.legendLineHalf), Attribute("y2", y),
                                    Attribute("stroke", theme.muted), Attribute("stroke-width", Layout.arrowStroke), Attribute("stroke-dasharray", "5 4")])
        case .fanOut:
            let (inset, half) = (Layout.legendTapInset, Layout.legendMarkHalf)
            let d = "M\(SVG.number(x - inset)) \(SVG.number(y - half))V\(SVG.number(y + half))M\(SVG.number(x - inset)) \(SVG.number(y))H\(SVG.number(x + Layout.legendTapReach))"
            writer.element("path", [Attribute("d", d),
                                    Attribute("fill", "none"), Attribute("stroke", theme.muted), Attribute("stroke-width", "1.25")])
        }
    }
}
