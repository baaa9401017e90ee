import Foundation
import MarbleNotation
import MarbleReport

/// Marks on the arrows: marbles, completions, failures, cancels, demand badges, subscription spans.
extension Renderer {
    // MARK: Events

    /// Draws events grouped by frame, all at the frame's x: values stacked downwards in order;
    /// a completion or failure at the same frame is drawn behind the first marble, bigger than
    /// it, so that marks of one frame line up across lanes. `axis` gives the y of the arrow.
    mutating func drawEvents(_ events: [RenderedEvent], ghost: Bool, dropped: [RenderedEvent] = [], droppedBy: [RenderedEvent: String] = [:],
                             dropReasons: [RenderedEvent: DropReason] = [:], axis: (Int) -> Double) {
        typealias Frame = (frame: Int, events: [PrintableEvent], dropped: [Bool])
        var frames: [Frame] = []
        let all = events.map { ($0, false) } + dropped.map { ($0, true) }
        // A frame is gathered apart and stored once: appending through `frames[i]` copied its
        // arrays each time in a debug build (100,000 values at one frame: minutes).
        var current: Frame?
        for (event, isDropped) in all.enumerated().sorted(by: { ($0.element.0.frame, $0.offset) < ($1.element.0.frame, $1.offset) }).map(\.element) {
            if current?.frame == event.frame {
                current?.events.append(event.event)
                current?.dropped.append(isDropped)
            } else {
                if let current { frames.append(current) }
                current = (event.frame, [event.event], [isDropped])
            }
        }
        if let current { frames.append(current) }
        let rooms = rooms(events + dropped)
        for entry in frames {
            let x = scale.x(entry.frame)
            let y = axis(entry.frame)
            let values = zip(entry.events, entry.dropped).compactMap { event, isDropped -> (token: String, dropped: Bool)? in
                if case .value(let token) = event { return (token, isDropped) } else { return nil }
            }
            let room = rooms[entry.frame] ?? .infinity
            let half = values.isEmpty ? radius : radius + Layout.terminalOverhang
            for event in entry.events {
                switch event {
                case .finished:
                    drawFinish(x: x, y: y, half: half, ghost: ghost, frame: entry.frame)
                case .failure(let text):
                    let message = ValueLabels.failureMessage(text)
                    writer.open("g", [Attribute("class", "failure"), Attribute("data-frame", entry.frame)])
                    writer.element("title", text: "failed with \"\(message)\" at \(when(entry.frame))")
                    drawCross(x: x, y: y, arm: values.isEmpty ? min(Layout.crossArm, radius * Layout.crossArmPerRadius) : half * Layout.crossArmPerOverhang, ghost: ghost)
                    if message != "error" {
                        let stack = Double(max(values.count, 1) - 1) * stackStep
                        writer.element("text", [Attribute("x", x), Attribute("y", y + half + stack + Layout.failureMessageDrop), Attribute("text-anchor", "middle"),
                                                Attribute("font-size", Layout.messageFont), Attribute("font-style", "italic"), Attribute("fill", theme.muted)], text: message)
                    }
                    writer.close("g")
                default:
                    break
                }
            }
            if values.count > 1 {
                writer.element("line", [Attribute("class", "stack"), Attribute("x1", x), Attribute("y1", y), Attribute("x2", x),
                                        Attribute("y2", y + Double(values.count - 1) * stackStep), Attribute("stroke", theme.muted), Attribute("stroke-width", "1")])
            }
            for (index, value) in values.enumerated() {
                let event = RenderedEvent(frame: entry.frame, event: .value(value.token))
                drawValue(value.token, x: x, y: y + Double(index) * stackStep, room: room, frame: entry.frame, ghost: ghost || value.dropped,
                          dropped: value.dropped ? dropReasons[event] ?? .noDemand : nil, droppedBy: droppedBy[event])
            }
        }
    }

    /// A completion: a bar across the arrow.
    mutating func drawFinish(x: Double, y: Double, half: Double, ghost: Bool, frame: Int?) {
        var attributes = [Attribute("class", "finish")]
        if let frame { attributes.append(Attribute("data-frame", frame)) }
        let ends = [Attribute("x1", x), Attribute("y1", y - half), Attribute("x2", x), Attribute("y2", y + half)]
        if haloMarks { writer.element("line", ends + halo) }
        attributes += ends + [Attribute("stroke", ghost ? theme.muted : theme.ink), Attribute("stroke-width", Layout.markStroke),
                              Attribute("stroke-linecap", "round")] + dashes(ghost)
        writer.element("line", attributes, title: frame.map { "finished at \(when($0))" })
    }

    /// A failure: a cross on the arrow.
    mutating func drawCross(x: Double, y: Double, arm: Double, ghost: Bool) {
        let d = "M\(SVG.number(x - arm)) \(SVG.number(y - arm))L\(SVG.number(x + arm)) \(SVG.number(y + arm))"
            + "M\(SVG.number(x - arm)) \(SVG.number(y + arm))L\(SVG.number(x + arm)) \(SVG.number(y - arm))"
        // A wider transparent stroke makes the tooltip easy to hit.
        writer.element("path", [Attribute("d", d), Attribute("stroke", "transparent"), Attribute("stroke-width", "10")])
        if haloMarks { writer.element("path", [Attribute("d", d)] + halo) }
        writer.element("path", [Attribute("d", d), Attribute("stroke", ghost ? theme.muted : theme.ink), Attribute("stroke-width", Layout.markStroke),
                                Attribute("stroke-linecap", "round")] + dashes(ghost))
    }

    var halo: [Attribute] {
        [Attribute("stroke", backgroundFill), Attribute("stroke-width", Layout.markStroke + Layout.haloWidth), Attribute("stroke-linecap", "round"), Attribute("fill", "none")]
    }

    func dashes(_ ghost: Bool) -> [Attribute] {
        ghost ? [Attribute("stroke-dasharray", "3 3")] : []
    }

    /// A value marble: a circle, or a pill when the label is longer than the circle. Returns its
    /// width. An expected (ghost) marble is drawn on an opaque disc so that the dashed arrow
    /// does not strike through its label.
    @discardableResult
    mutating func drawValue(_ token: String, x: Double, y: Double, room: Double, frame: Int, ghost: Bool, dropped: DropReason? = nil, droppedBy: String? = nil) -> Double {
        let label = fitted(labels.label(token), room: room)
        let textWidth = TextMetrics.monospace(label, size: valueFont)
        let width = max(2 * radius, textWidth + Layout.pillPadding)
        let fill = colour(labels.key(token))
        writer.open("g", [Attribute("class", dropped != nil ? "value dropped" : ghost ? "value expected" : "value"), Attribute("data-frame", frame)])
        writer.element("title", text: dropped.map { dropTitle(token, frame: frame, reason: $0, by: droppedBy ?? "the subscriber") } ?? "\(labels.tooltip(token)) at \(when(frame))")
        var shape: [Attribute]
        let circle = width <= 2 * radius
        if circle {
            shape = [Attribute("cx", x), Attribute("cy", y), Attribute("r", radius)]
        } else {
            shape = [Attribute("x", x - width / 2), Attribute("y", y - radius), Attribute("width", width), Attribute("height", 2 * radius),
                     Attribute("rx", radius)]
        }
        if ghost {
            writer.element(circle ? "circle" : "rect", shape + [Attribute("fill", backgroundFill)])
            shape += [Attribute("fill", fill), Attribute("fill-opacity", "0.45"), Attribute("stroke", theme.muted), Attribute("stroke-width", "1.5"),
                      Attribute("stroke-dasharray", "3 2")]
        } else {
            shape += [Attribute("fill", fill), Attribute("stroke", theme.ink), Attribute("stroke-width", "1.5")]
        }
        writer.element(circle ? "circle" : "rect", shape)
        writer.element("text", [Attribute("x", x), Attribute("y", y + valueFont * Layout.valueBaselineShift), Attribute("text-anchor", "middle"),
                                Attribute("xml:space", "preserve"),
                                Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", valueFont), Attribute("fill", theme.ink)],
                       text: label)
        writer.close("g")
        return width
    }

    /// What a dropped value's tooltip says: when it was offered, and why it never arrived.
    func dropTitle(_ token: String, frame: Int, reason: DropReason, by who: String) -> String {
        switch reason {
        case .noDemand:
            return "\(labels.tooltip(token)) sent at \(when(frame)), dropped: \(who) had no demand"
        case .replaced(let newer, let at):
            return "\(labels.tooltip(token)) held from \(when(frame)), dropped: replaced by \(labels.tooltip(newer)) at \(when(at)) before \(who) asked"
        case .completed(let at):
            return "\(labels.tooltip(token)) held from \(when(frame)), dropped: the subject completed at \(when(at)) before \(who) asked"
        }
    }

    // MARK: Demand

    /// Requests as tags on a faint guide: `2` for `.max(2)`, `∞` for `.unlimited`; several at one frame stack.
    mutating func drawRequests(_ events: [RenderedEvent], lane: Lane, y: Double, ghost: Bool) {
        drawLabel(lane, axisY: y - Layout.requestsLabelRaise, ghost: ghost)
        let demandLane = lane.label == "demand"
        writer.element("line", [Attribute("x1", axisStart), Attribute("y1", y), Attribute("x2", axisEnd), Attribute("y2", y),
                                Attribute("stroke", theme.grid), Attribute("stroke-width", "1"), Attribute("stroke-dasharray", "2 3")])
        if events.isEmpty, let note = lane.note {
            // Past the end of the guide, as a note beside an arrow's marbles.
            writer.open("g", [Attribute("class", "request none")])
            writer.element("title", text: "the test's subscriber never requested anything: its demand line asks for nothing, so its demand stays .none")
            writer.element("text", [Attribute("x", arrowTip + Layout.noteGap), Attribute("y", y + Layout.noteBaseline), Attribute("text-anchor", "start"),
                                    Attribute("font-size", Layout.noteFont), Attribute("font-style", "italic"), Attribute("fill", theme.muted)], text: note)
            writer.close("g")
        }
        var counts: [Int: Int] = [:]
        for event in events {
            guard case .request(let demand) = event.event else { continue }
            let text: String
            let title: String
            switch demand {
            case .unlimited:
                text = "∞"
                title = "requested .unlimited at \(when(event.frame))"
            case .max(let count):
                text = String(count)
                title = "requested .max(\(count)) at \(when(event.frame))"
            }
            let row = counts[event.frame, default: 0]
            counts[event.frame] = row + 1
            writer.open("g", [Attribute("class", "request"), Attribute("data-frame", event.frame)])
            writer.element("title", text: demandLane ? title.replacingOccurrences(of: "requested", with: "the test's subscriber requested") : title)
            drawBadge(text, x: scale.x(event.frame), y: y + Double(row) * Layout.requestRowStep, ghost: ghost, demand: demandLane)
            writer.close("g")
        }
    }

    /// A demand badge: outlined for what a source was asked, filled for what the test's
    /// subscriber asked (so the two differ in greyscale too).
    mutating func drawBadge(_ text: String, x: Double, y: Double, ghost: Bool, demand: Bool) {
        let width = max(Layout.narrowestBadge, TextMetrics.monospace(text, size: Layout.badgeFont) + Layout.badgePadding)
        let colour = ghost ? theme.muted : theme.span
        writer.element("rect", [Attribute("x", x - width / 2), Attribute("y", y - Layout.badgeHeight / 2), Attribute("width", width), Attribute("height", Layout.badgeHeight),
                                Attribute("rx", demand ? Layout.demandBadgeCorner : Layout.requestBadgeCorner), Attribute("fill", demand && !ghost ? colour : theme.background),
                                Attribute("stroke", colour), Attribute("stroke-width", "1.25")] + dashes(ghost))
        writer.element("text", [Attribute("x", x), Attribute("y", y + Layout.badgeBaseline), Attribute("text-anchor", "middle"),
                                Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", Layout.badgeFont),
                                Attribute("fill", demand && !ghost ? theme.background : colour)], text: text)
    }

    // MARK: Subscriptions

    /// Brackets under an arrow: a dot where a subscription began, a line while it lasted, a
    /// bar where it ended (orange when it was cancelled).
    mutating func drawSpans(_ spans: [Span], rows: [Int], y: Double, ghost: Bool) {
        for (index, span) in spans.enumerated() {
            let rowY = y + Double(rows.indices.contains(index) ? rows[index] : 0) * Layout.spanRowStep
            let startX = scale.x(span.start)
            // A subscription that ends in the frame it began still shows its two ends.
            let endX = span.end == span.start ? startX + Layout.zeroSpanLength : span.end.map { scale.x($0) } ?? axisEnd
            var title = "subscribed at \(when(span.start))"
            if let end = span.end {
                title += span.cancelled ? ", cancelled at \(when(end))" : ", ended at \(when(end))"
            } else {
                title += ", still subscribed when the run stopped"
            }
            if span.count > 1 { title += " (\(span.count) subscriptions)" }
            let colour = ghost ? theme.muted : theme.span
            writer.open("g", [Attribute("class", "subscription")])
            writer.element("title", text: title)
            writer.element("line", [Attribute("x1", startX), Attribute("y1", rowY), Attribute("x2", endX), Attribute("y2", rowY),
                                    Attribute("stroke", colour), Attribute("stroke-width", "2")] + dashes(ghost))
            writer.element("circle", [Attribute("cx", startX), Attribute("cy", rowY), Attribute("r", Layout.subscribeDotRadius), Attribute("fill", colour)])
            if span.end != nil {
                if span.cancelled && !ghost {
                    drawCancel(x: endX, y: rowY, half: Layout.spanCancelHalf, frame: nil)
                } else {
                    writer.element("line", [Attribute("x1", endX), Attribute("y1", rowY - Layout.spanEndHalf), Attribute("x2", endX), Attribute("y2", rowY + Layout.spanEndHalf),
                                            Attribute("stroke", colour), Attribute("stroke-width", "2.5"), Attribute("stroke-linecap", "round")])
                }
            }
            if span.count > 1 {
                writer.element("text", [Attribute("x", endX + Layout.spanCountGap), Attribute("y", rowY + Layout.spanCountBaseline), Attribute("font-size", Layout.spanCountFont),
                                    Attribute("fill", theme.muted)],
                               text: "×\(span.count)")
            }
            writer.close("g")
        }
    }
}
