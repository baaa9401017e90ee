import MarbleNotation
import MarbleReport

/// Lanes: labels, arrows, operator boxes and the taps into them, inner bands.
extension Renderer {
    // MARK: Lanes

    mutating func drawLabel(_ lane: Lane, axisY: Double, ghost: Bool) {
        let x = axisStart - Layout.labelToAxis
        if let label = lane.label {
            writer.element("text", [Attribute("x", x), Attribute("y", axisY + Layout.labelBaseline), Attribute("text-anchor", "end"),
                                    Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", Layout.labelFont),
                                    Attribute("fill", ghost ? theme.muted : theme.ink)], text: label)
        }
        if let sublabel = lane.sublabel {
            writer.element("text", [Attribute("x", x), Attribute("y", axisY + Layout.sublabelBaseline), Attribute("text-anchor", "end"),
                                    Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", Layout.sublabelFont),
                                    Attribute("fill", lane.sublabelIsAlert ? theme.alert : theme.muted)], text: sublabel)
        }
    }

    mutating func draw(_ lane: Lane, index: Int, top: Double) {
        switch lane.content {
        case .timeline(let timeline):
            writer.open("g", [Attribute("class", timeline.ghost ? "expected" : "stream")])
            drawTimeline(timeline, lane: lane, axisY: top + axisOffset(timeline))
            writer.close("g")
        case .box(let lines, let subscriber, let taps):
            drawBox(boxLines(lines), subscriber: subscriber, taps: taps, top: top)
        case .inner(let instances):
            writer.open("g", [Attribute("class", "inner")])
            drawInner(instances, lane: lane, index: index, top: top)
            writer.close("g")
        case .requests(let events, let ghost):
            writer.open("g", ghost ? [Attribute("class", "expected"), Attribute("opacity", "0.6")] : [Attribute("class", "requests")])
            drawRequests(events, lane: lane, y: top + Layout.requestsAxisOffset, ghost: ghost)
            writer.close("g")
        case .expectedSpans(let spans):
            writer.open("g", [Attribute("class", "expected"), Attribute("opacity", "0.6")])
            drawLabel(lane, axisY: top + Layout.expectedSpansLabel, ghost: true)
            drawSpans(spans, rows: spanRows(spans), y: top + Layout.expectedSpansRow, ghost: true)
            writer.close("g")
        }
    }

    mutating func drawTimeline(_ timeline: Timeline, lane: Lane, axisY: Double) {
        drawLabel(lane, axisY: axisY, ghost: timeline.ghost)
        let colour = timeline.ghost || timeline.dashed ? theme.muted : theme.ink
        // A subscriber that cancelled sees nothing after its `!`: its arrow stops there (or at
        // the last event, when Combine still delivers after a cancel, as `delay` does).
        let end = timeline.cancelledAt.map { cancel in scale.x(max(cancel, timeline.events.map(\.frame).max() ?? cancel)) } ?? axisEnd
        var line = [Attribute("class", "axis"), Attribute("x1", axisStart), Attribute("y1", axisY), Attribute("x2", end), Attribute("y2", axisY),
                    Attribute("stroke", colour), Attribute("stroke-width", Layout.arrowStroke)]
        if timeline.ghost { line.append(Attribute("stroke-dasharray", "5 4")) }
        if timeline.dashed { line.append(Attribute("stroke-dasharray", "2 4")) }
        writer.element("line", line)
        if let cancel = timeline.cancelledAt {
            drawCut(x: scale.x(cancel), y: axisY, frame: cancel)
        } else {
            drawArrowhead(x: axisEnd, y: axisY, colour: colour)
        }
        for item in scale.breaks where scale.x(item.to) <= end { drawBreak(item, y: axisY, colour: colour) }
        if let note = timeline.note {
            // Over an empty arrow, in its middle; past the arrowhead when marbles are drawn.
            let position = notePosition(timeline, axisY: axisY)
            writer.element("text", [Attribute("x", position.x), Attribute("y", position.y), Attribute("text-anchor", Self.drawsEvents(timeline) ? "start" : "middle"),
                                    Attribute("font-size", Layout.noteFont), Attribute("font-style", "italic"), Attribute("fill", theme.muted)], text: note)
        }
        drawEvents(timeline.events, ghost: timeline.ghost, dropped: timeline.dropped, droppedBy: timeline.droppedBy, dropReasons: timeline.dropReasons) { _ in axisY }
        for cut in timeline.cuts { drawCut(x: scale.x(cut), y: axisY, frame: cut) }
        let extent = below(timeline)
        if !timeline.spans.isEmpty {
            drawSpans(timeline.spans, rows: spanRows(timeline.spans), y: axisY + extent.marbles + Layout.spanRowStep, ghost: false)
        }
        if !timeline.connections.isEmpty { drawConnections(timeline.connections, y: axisY + extent.total - Layout.connectionAxisFromBottom) }
    }

    func notePosition(_ timeline: Timeline, axisY: Double) -> (x: Double, y: Double) {
        Self.drawsEvents(timeline) ? (arrowTip + Layout.noteGap, axisY + Layout.noteBaseline) : ((axisStart + axisEnd) / 2, axisY - Layout.noteAboveAxis)
    }

    mutating func drawArrowhead(x: Double, y: Double, colour: String) {
        let half = Layout.arrowheadHalfWidth
        writer.element("path", [Attribute("d", "M\(SVG.number(x)) \(SVG.number(y - half))L\(SVG.number(x + Layout.arrowheadLength)) \(SVG.number(y))L\(SVG.number(x)) \(SVG.number(y + half))Z"),
                                Attribute("fill", colour)])
    }

    /// An axis break: the line interrupted by two parallel slashes.
    mutating func drawBreak(_ item: TimeScale.Break, y: Double, colour: String) {
        drawBreakSlashes(x: (scale.x(item.from) + scale.x(item.to)) / 2, y: y, colour: colour,
                         title: "\(time(item.to - item.from)) without events, squeezed (\(when(item.from)) to \(when(item.to)))")
    }

    mutating func drawBreakSlashes(x cx: Double, y: Double, colour: String, title: String? = nil) {
        let (w, h) = (Layout.breakHalfWidth, Layout.breakHalfHeight)
        let gap = "M\(SVG.number(cx - w)) \(SVG.number(y + h))L\(SVG.number(cx)) \(SVG.number(y - h))L\(SVG.number(cx + w)) \(SVG.number(y - h))L\(SVG.number(cx)) \(SVG.number(y + h))Z"
        writer.element("path", [Attribute("d", gap), Attribute("fill", backgroundFill)])
        let slashes = "M\(SVG.number(cx - w)) \(SVG.number(y + h))L\(SVG.number(cx)) \(SVG.number(y - h))M\(SVG.number(cx)) \(SVG.number(y + h))L\(SVG.number(cx + w)) \(SVG.number(y - h))"
        writer.element("path", [Attribute("d", slashes), Attribute("stroke", colour), Attribute("stroke-width", "1.5"), Attribute("fill", "none")],
                       title: title)
    }

    /// What covers the axis inside a break.
    var backgroundFill: String {
        switch options.background {
        case .theme: return theme.background
        case .color(let color): return color
        case .transparent: return theme.background
        }
    }

    /// The y of a lane's arrow (of an inner band: the top its arrows leave from).
    func axisY(ofLane index: Int) -> Double? {
        guard scene.lanes.indices.contains(index), tops.indices.contains(index) else { return nil }
        switch scene.lanes[index].content {
        case .timeline(let timeline): return tops[index] + axisOffset(timeline)
        case .inner: return tops[index] + Layout.bandInset
        case .requests: return tops[index] + Layout.requestsAxisOffset
        case .box, .expectedSpans: return nil
        }
    }

    /// The gutter column of each tapped lane: taps from different lanes that pass the same
    /// lanes get different columns (taps from one lane share a column: a fan-out's trunk).
    static func tapColumns(_ lanes: [Lane]) -> [Int: Int] {
        var reach: [Int: ClosedRange<Int>] = [:]
        for (index, lane) in lanes.enumerated() {
            guard case .box(_, _, let taps) = lane.content else { continue }
            for tap in taps { reach[tap] = min(reach[tap]?.lowerBound ?? tap, tap)...max(reach[tap]?.upperBound ?? index, index) }
        }
        var columns: [Int: Int] = [:]
        var occupied: [[ClosedRange<Int>]] = []
        for (lane, range) in reach.sorted(by: { $0.key < $1.key }) {
            let column = occupied.firstIndex { !$0.contains { $0.overlaps(range) } } ?? occupied.count
            if column == occupied.count { occupied.append([]) }
            occupied[column].append(range)
            columns[lane] = column
        }
        return columns
    }

    /// Lines from inputs drawn further up down to the box that reads them, in the gutter left
    /// of the arrows: a fan-out reads as a fan-out, not as a chain through the lanes between.
    mutating func drawTaps(_ taps: [Int], boxTop: Double, boxHeight: Double) {
        for (ordinal, tap) in taps.enumerated() {
            guard let fromY = axisY(ofLane: tap) else { continue }
            let x = axisStart - Layout.tapGutterInset - Layout.tapSpacing * Double(tapColumns[tap] ?? 0)
            let toY = boxTop + min(boxHeight / 2, Layout.tapEntryDepth) + Layout.tapEntryStep * Double(ordinal)
            writer.element("path", [Attribute("class", "tap"), Attribute("d", "M\(SVG.number(axisStart)) \(SVG.number(fromY))H\(SVG.number(x))V\(SVG.number(toY))H\(SVG.number(axisStart))"),
                                    Attribute("fill", "none"), Attribute("stroke", theme.muted), Attribute("stroke-width", "1.25")],
                           title: "\(scene.lanes[tap].label ?? "input") is read here too")
        }
    }

    mutating func drawBox(_ lines: [String], subscriber: Bool, taps: [Int], top: Double) {
        let boxTop = top + Layout.bandInset
        let boxHeight = Double(lines.count) * Layout.boxLineHeight + 2 * Layout.boxPadding - 2 * Layout.bandInset
        let longest = lines.map { subscriber ? TextMetrics.sans($0, size: Layout.subscriberFont) : TextMetrics.monospace($0, size: Layout.boxFont) }.max() ?? 0
        let boxRight = max(arrowTip, axisStart + longest + Layout.boxTextInset)
        drawTaps(taps, boxTop: boxTop, boxHeight: boxHeight)
        writer.open("g", [Attribute("class", subscriber ? "box subscriber" : "box")])
        var rect = [Attribute("x", axisStart), Attribute("y", boxTop), Attribute("width", boxRight - axisStart), Attribute("height", boxHeight),
                    Attribute("rx", Layout.boxCorner), Attribute("fill", subscriber ? "none" : theme.boxFill), Attribute("stroke", subscriber ? theme.muted : theme.ink),
                    Attribute("stroke-width", subscriber ? "1" : "1.25")]
        if subscriber { rect.append(Attribute("stroke-dasharray", "4 3")) }
        writer.element("rect", rect)
        for (index, line) in lines.enumerated() {
            let y = boxTop + (Layout.boxPadding - Layout.bandInset) + Double(index) * Layout.boxLineHeight + Layout.boxBaseline
            if subscriber {
                writer.element("text", [Attribute("x", (axisStart + boxRight) / 2), Attribute("y", y), Attribute("text-anchor", "middle"),
                                        Attribute("font-size", Layout.subscriberFont), Attribute("font-style", "italic"), Attribute("fill", theme.muted)], text: line)
            } else {
                // Centred when it fits on one line; code lines of a wrapped pipeline align left.
                let centred = lines.count == 1
                writer.element("text", [Attribute("x", centred ? (axisStart + boxRight) / 2 : axisStart + Layout.boxTextInset / 2), Attribute("y", y),
                                        Attribute("text-anchor", centred ? "middle" : "start"), Attribute("xml:space", "preserve"),
                                        Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", Layout.boxFont),
                                        Attribute("fill", theme.ink)], text: line)
            }
        }
        writer.close("g")
    }

    /// Inner arrows: each subscription drops from the top of the band at its frame to a row of
    /// its own and runs along it until it ends (a slash where it was cancelled). The paths go
    /// first, then the marks, so no line crosses a marble.
    mutating func drawInner(_ instances: [Instance], lane: Lane, index laneIndex: Int, top: Double) {
        let originY = top + Layout.bandInset
        let depths = innerDepths(instances).rows
        drawLabel(lane, axisY: originY + innerKnee, ghost: false)
        for (index, instance) in instances.enumerated() {
            let levelY = originY + depths[index]
            let startX = scale.x(instance.start)
            let dropY = parentPoint(above: laneIndex, frame: instance.start) ?? originY
            let endX = max(startX, innerEnd(instance))
            var title = "\(lane.label ?? "inner") subscribed at \(when(instance.start))"
            switch instance.ending {
            case .cancelled: title += ", cancelled at \(when(instance.end ?? instance.start))"
            case .terminated: if let end = instance.end { title += ", ended at \(when(end))" }
            case .open: title += ", still subscribed when the run stopped"
            }
            writer.open("g", [Attribute("class", "instance"), Attribute("data-row", index)])
            writer.element("title", text: title)
            let d = "M\(SVG.number(startX)) \(SVG.number(dropY))V\(SVG.number(levelY))H\(SVG.number(endX))"
            writer.element("path", [Attribute("class", "axis"), Attribute("d", d), Attribute("fill", "none"), Attribute("stroke", theme.ink),
                                    Attribute("stroke-width", Layout.arrowStroke), Attribute("stroke-linejoin", "round")])
            if instance.ending == .open { drawArrowhead(x: endX, y: levelY, colour: theme.ink) }
            writer.element("circle", [Attribute("cx", startX), Attribute("cy", dropY), Attribute("r", Layout.subscribeDotRadius), Attribute("fill", theme.ink)])
            writer.close("g")
        }
        // Marks after every arrow: a later subscription's drop never crosses an earlier one's marks.
        for (index, instance) in instances.enumerated() {
            let levelY = originY + depths[index]
            writer.open("g", [Attribute("class", "instance-marks"), Attribute("data-row", index)])
            haloMarks = true
            defer { haloMarks = false }
            drawEvents(instance.events, ghost: false, dropped: instance.dropped,
                       droppedBy: Dictionary(instance.dropped.map { ($0, innerReader(lane)) }, uniquingKeysWith: { first, _ in first }),
                       dropReasons: instance.dropReasons) { _ in levelY }
            if instance.ending == .cancelled, let end = instance.end {
                drawCut(x: scale.x(end), y: levelY, frame: end)
            }
            writer.close("g")
        }
    }

    /// Who made an inner lane's subscriptions: the operator's stream (the lane's sublabel names
    /// it when several streams use the source), else the source's one consumer.
    func innerReader(_ lane: Lane) -> String {
        let users = test.streams.filter { $0.kind == .derived && $0.innerSources.contains(lane.stream ?? "") }
        return users.count == 1 ? "the closure of \(users[0].name)" : "this inner subscription"
    }

    /// Where an inner arrow subscribed at `frame` leaves from, when the lane above the band is
    /// the arrow of its operator's input: under that arrow's marbles at the frame (the value
    /// that made the subscription), or on the arrow itself. `nil`: from the top of the band.
    func parentPoint(above index: Int, frame: Int) -> Double? {
        guard index > 0, let parent = scene.lanes[index].parent, scene.lanes[index - 1].stream == parent, scene.lanes[index - 1].isRow,
              case .timeline(let timeline) = scene.lanes[index - 1].content, !timeline.ghost, let axisY = axisY(ofLane: index - 1) else { return nil }
        let stack = timeline.events.filter { $0.frame == frame && { if case .value = $0.event { return true } else { return false } }($0) }.count
        return stack == 0 ? axisY : axisY + radius + Double(stack - 1) * stackStep
    }

    /// A cancellation: a slanted stroke across the arrow where it was cut (a slash, so that it
    /// differs from a completion's upright bar without its colour).
    mutating func drawCut(x: Double, y: Double, frame: Int) {
        drawCancel(x: x, y: y, half: Layout.cutHalfLength, frame: frame)
    }

    mutating func drawCancel(x: Double, y: Double, half: Double, frame: Int?) {
        let lean = half * Layout.cancelLean
        let d = Attribute("d", "M\(SVG.number(x - lean)) \(SVG.number(y + half))L\(SVG.number(x + lean)) \(SVG.number(y - half))")
        if haloMarks { writer.element("path", [d] + halo) }
        var attributes = [Attribute("class", "cancel")]
        if let frame { attributes.append(Attribute("data-frame", frame)) }
        attributes += [d, Attribute("stroke", theme.cancel), Attribute("stroke-width", Layout.markStroke), Attribute("stroke-linecap", "round")]
        writer.element("path", attributes, title: frame.map { "cancelled at \(when($0))" })
    }

    /// A `connect`: a small plug (a diamond) on the arrow.
    mutating func drawConnectMark(x: Double, y: Double) {
        let half = Layout.connectMarkHalf
        let d = "M\(SVG.number(x)) \(SVG.number(y - half))L\(SVG.number(x + half)) \(SVG.number(y))L\(SVG.number(x)) \(SVG.number(y + half))L\(SVG.number(x - half)) \(SVG.number(y))Z"
        writer.element("path", [Attribute("d", d), Attribute("fill", theme.background), Attribute("stroke", theme.span), Attribute("stroke-width", "2")])
    }

    /// Connections of a connectable, under its marbles: a diamond where it was connected, a
    /// dashed line while connected, a slash where the connection was cancelled.
    mutating func drawConnections(_ spans: [Span], y: Double) {
        for span in spans {
            let startX = scale.x(span.start)
            let endX = span.end.map { scale.x($0) } ?? axisEnd
            var title = "connected at \(when(span.start))"
            if let end = span.end { title += ", connection cancelled at \(when(end))" }
            writer.open("g", [Attribute("class", "connection"), Attribute("data-frame", span.start)])
            writer.element("title", text: title)
            writer.element("line", [Attribute("x1", startX), Attribute("y1", y), Attribute("x2", endX), Attribute("y2", y),
                                    Attribute("stroke", theme.span), Attribute("stroke-width", "1.5"), Attribute("stroke-dasharray", "6 3")])
            drawConnectMark(x: startX, y: y)
            if let end = span.end { drawCancel(x: scale.x(end), y: y, half: Layout.connectMarkHalf, frame: nil) }
            writer.element("text", [Attribute("x", startX + Layout.connectLabelGap), Attribute("y", y + Layout.connectLabelBaseline),
                                    Attribute("font-size", Layout.connectLabelFont), Attribute("fill", theme.span)],
                           text: "connect")
            writer.close("g")
        }
    }
}
