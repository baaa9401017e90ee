import MarbleNotation
import MarbleSpec

/// Lays a scene out and writes it as SVG. All sizes are in pixels (user units).
struct Renderer {
    // MARK: Fixed measures

    static let padding = 20.0
    static let defaultFrameWidth = 36.0
    static let widestAutomaticFrame = 84.0
    static let narrowestAutomaticFrame = 14.0
    static let widestAutomaticAxis = 2400.0
    /// Operator boxes widen the frames (up to `widestAutomaticFrame`) to be this wide before they wrap.
    static let widestOneLineBox = 720.0
    static let headerHeight = 50.0
    static let labelFont = 13.0
    static let sublabelFont = 11.0
    static let boxFont = 13.0
    static let boxLineHeight = 18.0
    static let rulerFont = 10.0
    /// Differences and errors under the diagram wrap at no less than this.
    static let narrowestFooter = 380.0
    /// Angle of inner arrows below the horizontal, and how far down the first one levels off.
    static let innerSlope = 0.7  // tan 35°
    static let arrowStroke = 1.5
    static let markStroke = 2.5

    let test: TestReport
    let path: String
    let scene: Scene
    let options: DiagramOptions
    let theme: Theme
    let labels: ValueLabels
    /// The hue of every value drawn, by its key.
    let hues: [String: Int]

    let frameWidth: Double
    /// Marble radius.
    let radius: Double
    let valueFont: Double
    let scale: TimeScale
    let labelColumn: Double
    /// Inner-arrow lanes, per lane index.
    let innerLayouts: [Int: InnerLayout]
    /// Width of the widest operator box text on one line, up to `widestOneLineBox`.
    let widestBox: Double
    /// What the legend under the ruler explains: named values, then labels cut short in their marbles.
    var legend: [LegendEntry] = []

    var writer = SVGWriter()

    init(test: TestReport, path: String, scene: Scene, values: [NamedValue], options: DiagramOptions) {
        self.test = test
        self.path = path
        self.scene = scene
        self.options = options
        theme = options.theme == .dark ? .dark : .light

        // Every value token drawn, for labels and colours.
        var tokens: [String] = []
        var frames: [Int] = [0]
        for lane in scene.lanes {
            for event in Self.events(of: lane) {
                frames.append(event.frame)
                if case .value(let token) = event.event { tokens.append(token) }
            }
            frames += Self.structuralFrames(of: lane)
        }
        frames += scene.differences.map(\.frame)
        labels = ValueLabels(values: values, tokens: tokens)
        hues = ValueColor.hues(for: tokens.map(labels.key))

        let firstFrame = min(0, frames.min() ?? 0)
        let lastFrame = max(SceneBuilder.lastFrame(test), frames.max() ?? 0)
        let breaks = TimeScale.breaks(busyFrames: frames, firstFrame: firstFrame, lastFrame: lastFrame, compress: options.compressIdleTime)

        // Frame width: as given, else wide enough for neighbouring labels, narrow enough for long tests.
        var width = options.frameWidth ?? Self.defaultFrameWidth
        let provisionalRadius = Self.radius(forFrameWidth: width)
        if options.frameWidth == nil {
            let font = Self.valueFont(forRadius: provisionalRadius)
            var needed = width
            for lane in scene.lanes {
                let byFrame = Self.valueWidths(Self.events(of: lane), labels: labels, radius: provisionalRadius, font: font)
                for (a, b) in zip(byFrame, byFrame.dropFirst()) where b.frame - a.frame <= 4 {
                    needed = max(needed, ((a.width + b.width) / 2 + 6) / Double(b.frame - a.frame))
                }
            }
            // Room for an operator box's text on one line, when it is not too long for one.
            let provisional = TimeScale(origin: 0, frameWidth: 1, firstFrame: firstFrame, lastFrame: lastFrame, breaks: breaks)
            for lane in scene.lanes {
                guard case .box(let lines, false) = lane.content else { continue }
                for line in lines {
                    let text = TextMetrics.monospace(line, size: Self.boxFont) + 18
                    needed = max(needed, (min(text, Self.widestOneLineBox) - 9) / (provisional.span + 1.65))
                }
            }
            width = min(needed, Self.widestAutomaticFrame)
            if provisional.span * width > Self.widestAutomaticAxis {
                width = max(Self.narrowestAutomaticFrame, Self.widestAutomaticAxis / max(provisional.span, 1))
            }
        }
        frameWidth = width
        radius = Self.radius(forFrameWidth: width)
        valueFont = Self.valueFont(forRadius: radius)

        var column = 0.0
        for lane in scene.lanes {
            if let label = lane.label { column = max(column, TextMetrics.monospace(label, size: Self.labelFont)) }
            if let sublabel = lane.sublabel { column = max(column, TextMetrics.monospace(sublabel, size: Self.sublabelFont)) }
        }
        labelColumn = max(48, column + 24)
        let axisStart = Self.padding + labelColumn
        scale = TimeScale(origin: axisStart + 0.75 * width, frameWidth: width, firstFrame: firstFrame, lastFrame: lastFrame, breaks: breaks)

        var widestBox = 0.0
        for lane in scene.lanes {
            guard case .box(let lines, _) = lane.content else { continue }
            for line in lines { widestBox = max(widestBox, min(TextMetrics.monospace(line, size: Self.boxFont) + 18, Self.widestOneLineBox)) }
        }
        self.widestBox = widestBox
        let radius = Self.radius(forFrameWidth: width)
        let axisEnd = max(scale.x(lastFrame) + 0.9 * width, axisStart + widestBox - 9)
        var innerLayouts: [Int: InnerLayout] = [:]
        for (index, lane) in scene.lanes.enumerated() {
            guard case .inner(let instances) = lane.content else { continue }
            innerLayouts[index] = Self.layInner(instances, scale: scale, frameWidth: width, axisEnd: axisEnd,
                                                knee: Self.innerKnee(radius: radius), step: Self.innerLaneStep(radius: radius))
        }
        self.innerLayouts = innerLayouts
        legend = labels.legend.map { LegendEntry(key: $0.literal, text: "\($0.name) = \($0.literal)") }
        for token in truncatedTokens() where !legend.contains(where: { $0.key == labels.key(token) }) {
            legend.append(LegendEntry(key: labels.key(token), text: labels.label(token)))
        }
    }

    struct LegendEntry {
        /// The value's key, for its colour.
        var key: String
        var text: String
    }

    /// Value tokens whose label does not fit its marble somewhere, in order of appearance.
    func truncatedTokens() -> [String] {
        var result: [String] = []
        func collect(_ events: [RenderedEvent]) {
            let rooms = rooms(events)
            for event in events {
                guard case .value(let token) = event.event, !result.contains(token) else { continue }
                if fitted(labels.label(token), room: rooms[event.frame] ?? .infinity) != labels.label(token) { result.append(token) }
            }
        }
        for lane in scene.lanes {
            switch lane.content {
            case .timeline(let timeline): collect(timeline.events)
            case .inner(let instances): instances.forEach { collect($0.events) }
            case .box, .expectedSpans, .requests: break
            }
        }
        return result
    }

    /// The room a marble has at each frame of a lane: up to its neighbours on the lane, less a gap.
    func rooms(_ events: [RenderedEvent]) -> [Int: Double] {
        let frames = Array(Set(events.filter { if case .value = $0.event { return true } else { return false } }.map(\.frame))).sorted()
        var result: [Int: Double] = [:]
        for (index, frame) in frames.enumerated() {
            var room = Double.infinity
            let x = scale.x(frame)
            if index > 0 { room = min(room, x - scale.x(frames[index - 1])) }
            if index + 1 < frames.count { room = min(room, scale.x(frames[index + 1]) - x) }
            result[frame] = room - 4
        }
        return result
    }

    /// A label cut to the room of its marble, with `…` when cut.
    func fitted(_ label: String, room: Double) -> String {
        let maximum = max(2 * radius, room)
        guard TextMetrics.monospace(label, size: valueFont) + 12 > maximum else { return label }
        let cells = max(1, Int((maximum - 12) / (valueFont * 0.61)))
        return TextMetrics.truncated(label, toUnits: cells)
    }

    static func radius(forFrameWidth width: Double) -> Double {
        min(15, max(6, (width - 4) / 2))
    }

    static func valueFont(forRadius radius: Double) -> Double {
        radius >= 12 ? 13 : max(8, radius)
    }

    static func events(of lane: Lane) -> [RenderedEvent] {
        switch lane.content {
        case .timeline(let timeline): return timeline.events
        case .inner(let instances): return instances.flatMap(\.events)
        case .box, .expectedSpans, .requests: return []
        }
    }

    /// Frames where a lane shows something other than an event: subscriptions, cuts.
    static func structuralFrames(of lane: Lane) -> [Int] {
        switch lane.content {
        case .timeline(let timeline):
            return timeline.cuts + timeline.spans.flatMap { [$0.start] + ($0.end.map { [$0] } ?? []) }
        case .inner(let instances):
            return instances.flatMap { [$0.start] + ($0.end.map { [$0] } ?? []) }
        case .expectedSpans(let spans):
            return spans.flatMap { [$0.start] + ($0.end.map { [$0] } ?? []) }
        case .requests(let events, _):
            return events.map(\.frame)
        case .box:
            return []
        }
    }

    /// Widths of the value marbles of a lane, one per frame (the widest there), in frame order.
    static func valueWidths(_ events: [RenderedEvent], labels: ValueLabels, radius: Double, font: Double) -> [(frame: Int, width: Double)] {
        var result: [(frame: Int, width: Double)] = []
        for event in events.sorted(by: { $0.frame < $1.frame }) {
            guard case .value(let token) = event.event else { continue }
            let width = max(2 * radius, TextMetrics.monospace(labels.label(token), size: font) + 12)
            if let last = result.last, last.frame == event.frame {
                result[result.count - 1].width = max(last.width, width)
            } else {
                result.append((event.frame, width))
            }
        }
        return result
    }

    /// Where the inner arrows of one lane go.
    struct InnerLayout {
        /// The lane of each instance.
        var lanes: [Int]
        /// How far below the origin the arrows and their marbles' centres reach.
        var reach: Double
    }

    /// Where an inner arrow ends: at its cut, a little after its terminal event, or at the axis end.
    static func innerEnd(_ instance: Instance, scale: TimeScale, frameWidth: Double, axisEnd: Double) -> Double {
        switch instance.ending {
        case .cancelled: return scale.x(instance.end ?? instance.start)
        case .terminated:
            let terminal = instance.events.last(where: { $0.event.isTerminal })?.frame ?? instance.end ?? instance.start
            return scale.x(terminal) + 0.6 * frameWidth
        case .open: return axisEnd
        }
    }

    /// Inner-arrow lanes. An arrow slants down from its origin and levels off at its lane;
    /// only the level parts of two arrows may not share a lane at the same x (a short arrow
    /// that is cut before levelling off takes no room), and arrows starting at the same frame
    /// take different lanes so that they part.
    static func layInner(_ instances: [Instance], scale: TimeScale, frameWidth: Double, axisEnd: Double, knee: Double, step: Double) -> InnerLayout {
        var occupied: [[ClosedRange<Double>]] = []
        var startsByLane: [[Int]] = []
        var result = [Int](repeating: 0, count: instances.count)
        var reach = 0.0
        let order = instances.indices.sorted { (instances[$0].start, $0) < (instances[$1].start, $1) }
        for index in order {
            let instance = instances[index]
            let startX = scale.x(instance.start)
            let endX = max(startX, innerEnd(instance, scale: scale, frameWidth: frameWidth, axisEnd: axisEnd))
            var lane = 0
            while true {
                if occupied.count <= lane {
                    occupied.append([])
                    startsByLane.append([])
                }
                let depth = knee + Double(lane) * step
                let levelFrom = startX + depth / innerSlope
                let sameStart = startsByLane[lane].contains(instance.start)
                if !sameStart {
                    if endX <= levelFrom { break }
                    let level = (levelFrom - 4)...(endX + 12)
                    if !occupied[lane].contains(where: { $0.overlaps(level) }) {
                        occupied[lane].append(level)
                        break
                    }
                }
                lane += 1
            }
            startsByLane[lane].append(instance.start)
            result[index] = lane
            let depth = knee + Double(lane) * step
            reach = max(reach, min(depth, (endX - startX) * innerSlope))
        }
        return InnerLayout(lanes: result, reach: reach)
    }

    func colour(_ key: String) -> String {
        ValueColor.fill(hue: hues[key] ?? ValueColor.hue(key), theme: theme)
    }

    // MARK: Derived measures

    var axisStart: Double { Self.padding + labelColumn }
    /// The arrows end a little after the last frame, or under the right edge of the widest
    /// operator box when that is further (a box up to `widestOneLineBox` never wraps).
    var axisEnd: Double {
        max(scale.x(scale.lastFrame) + 0.9 * frameWidth, axisStart + widestBox - 9)
    }
    var arrowTip: Double { axisEnd + 9 }
    var stackStep: Double { 2 * radius + 4 }
    var innerKnee: Double { Self.innerKnee(radius: radius) }
    var innerLaneStep: Double { Self.innerLaneStep(radius: radius) }
    static func innerKnee(radius: Double) -> Double { radius + 16 }
    static func innerLaneStep(radius: Double) -> Double { 2 * radius + 12 }

    func time(_ frame: Int) -> String {
        TimeText.describe(frames: frame, frameNanoseconds: test.frameNanoseconds)
    }

    /// `300ms (frame 3)`
    func when(_ frame: Int) -> String {
        "\(time(frame)) (frame \(frame))"
    }

    // MARK: Lane heights

    /// The most values at one frame, and whether a failure shows its message.
    func extent(_ events: [RenderedEvent]) -> (stack: Int, message: Bool) {
        var counts: [Int: Int] = [:]
        var message = false
        for event in events {
            switch event.event {
            case .value: counts[event.frame, default: 0] += 1
            case .failure(let text): if ValueLabels.failureMessage(text) != "error" { message = true }
            default: break
            }
        }
        return (counts.values.max() ?? 1, message)
    }

    /// Sub-lanes of brackets so that overlapping spans do not share one.
    func spanRows(_ spans: [Span]) -> [Int] {
        var ends: [Double] = []
        var rows: [Int] = []
        for span in spans {
            let start = Double(span.start)
            let end = span.end.map(Double.init) ?? Double.infinity
            if let row = ends.firstIndex(where: { $0 < start }) {
                rows.append(row)
                ends[row] = end
            } else {
                rows.append(ends.count)
                ends.append(end)
            }
        }
        return rows
    }

    /// Distance from a timeline lane's top to its axis.
    var axisOffset: Double { radius + 10 }

    /// How far below the axis a timeline's marbles, messages and brackets reach.
    func below(_ timeline: Timeline) -> (marbles: Double, total: Double) {
        let (stack, message) = extent(timeline.events)
        var below = radius + Double(stack - 1) * stackStep
        if message { below += 16 }
        let marbles = below
        if !timeline.spans.isEmpty {
            let rows = (spanRows(timeline.spans).max() ?? 0) + 1
            below += 10 + Double(rows - 1) * 10 + 4
        }
        return (marbles, below)
    }

    func height(of lane: Lane, at index: Int) -> Double {
        let ghostRoom = isHighlightBottom(index) ? 14.0 : 0
        switch lane.content {
        case .timeline(let timeline):
            return axisOffset + below(timeline).total + 10 + ghostRoom
        case .box(let lines, _):
            return Double(boxLines(lines).count) * Self.boxLineHeight + 12 + 12
        case .inner(let instances):
            let reach = max(innerLayouts[index]?.reach ?? 0, innerKnee)
            let (stack, message) = extent(instances.flatMap(\.events))
            return 6 + reach + radius + Double(stack - 1) * stackStep + (message ? 16 : 0) + 12 + ghostRoom
        case .expectedSpans:
            return 28 + ghostRoom
        case .requests(let events, _):
            let stack = Dictionary(grouping: events, by: \.frame).values.map(\.count).max() ?? 1
            return 40 + Double(stack - 1) * 20 + ghostRoom
        }
    }

    func isHighlightBottom(_ index: Int) -> Bool {
        scene.highlights.contains { $0.lanes.upperBound == index }
    }

    /// Box text broken to the width of the axis.
    func boxLines(_ lines: [String]) -> [String] {
        let available = arrowTip - axisStart - 16
        let cells = max(24, Int(available / (Self.boxFont * 0.61)))
        return lines.flatMap { PipelineText.lines($0, width: cells) }
    }

    // MARK: Rendering

    mutating func render() -> String {
        // Vertical layout of the lanes.
        var tops: [Double] = []
        var y = Self.padding + Self.headerHeight
        for (index, lane) in scene.lanes.enumerated() {
            tops.append(y)
            y += height(of: lane, at: index)
        }
        let lanesBottom = y
        let rulerY = lanesBottom + (scale.breaks.isEmpty ? 6 : 16)

        // Width: the arrows, the header, the boxes, the failure messages.
        var right = arrowTip + Self.padding
        right = max(right, Self.padding + TextMetrics.sans(test.name, size: 15, bold: true) + Self.padding)
        right = max(right, Self.padding + TextMetrics.sans(subtitle + (status.map { " · " + $0 } ?? ""), size: 12) + Self.padding)
        if test.outcome != .passed { right = max(right, 2 * Self.padding + 26 + Self.narrowestFooter) }
        for lane in scene.lanes {
            if case .box(let lines, _) = lane.content {
                for line in boxLines(lines) { right = max(right, axisStart + TextMetrics.monospace(line, size: Self.boxFont) + 16 + Self.padding) }
            }
            for event in Self.events(of: lane) {
                if case .failure(let text) = event.event {
                    let message = ValueLabels.failureMessage(text)
                    right = max(right, scale.x(event.frame) + TextMetrics.sans(message, size: 11) / 2 + 8 + radius + Self.padding)
                }
            }
        }
        let width = right.rounded(.up)
        let footer = footerLines(width: width)
        var height = rulerY + 24
        if !legend.isEmpty { height += 8 + Double(legendRows(width: width).count) * 22 }
        if !footer.isEmpty { height += 8 + Double(footer.count) * 18 }
        height = (height + Self.padding - 4).rounded(.up)

        writer.open("svg", [
            Attribute("xmlns", "http://www.w3.org/2000/svg"),
            Attribute("width", width), Attribute("height", height),
            Attribute("viewBox", "0 0 \(SVG.number(width)) \(SVG.number(height))"),
            Attribute("role", "img"),
            Attribute("font-family", TextMetrics.sansFamily),
        ])
        writer.element("title", text: test.name)
        writer.element("desc", text: description())
        switch options.background {
        case .theme: writer.element("rect", [Attribute("width", "100%"), Attribute("height", "100%"), Attribute("fill", theme.background)])
        case .color(let color): writer.element("rect", [Attribute("width", "100%"), Attribute("height", "100%"), Attribute("fill", color)])
        case .transparent: break
        }
        drawHeader()
        for highlight in scene.highlights { drawHighlight(highlight, tops: tops, lanesBottom: lanesBottom) }
        for (index, lane) in scene.lanes.enumerated() { draw(lane, index: index, top: tops[index]) }
        for highlight in scene.highlights { drawBadges(highlight, tops: tops, lanesBottom: lanesBottom) }
        drawRuler(y: rulerY)
        var footerY = rulerY + 24
        if !legend.isEmpty {
            footerY += 8
            for row in legendRows(width: width) {
                drawLegendRow(row, y: footerY + 11)
                footerY += 22
            }
        }
        if !footer.isEmpty {
            footerY += 8
            for line in footer {
                drawFooterLine(line, y: footerY + 13)
                footerY += 18
            }
        }
        writer.close("svg")
        return writer.document
    }

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

    mutating func drawHeader() {
        writer.element("text", [Attribute("x", Self.padding), Attribute("y", Self.padding + 15), Attribute("font-size", "15"),
                                Attribute("font-weight", "600"), Attribute("fill", theme.ink)], text: test.name)
        let attributes = [Attribute("x", Self.padding), Attribute("y", Self.padding + 33), Attribute("font-size", "12"), Attribute("fill", theme.muted)]
        if let status {
            writer.text(attributes, spans: [([], subtitle + " · "), ([Attribute("fill", theme.alert), Attribute("font-weight", "600")], status)])
        } else {
            writer.element("text", attributes, text: subtitle)
        }
    }

    // MARK: Lanes

    mutating func drawLabel(_ lane: Lane, axisY: Double, ghost: Bool) {
        let x = axisStart - 12
        if let label = lane.label {
            writer.element("text", [Attribute("x", x), Attribute("y", axisY + 4.5), Attribute("text-anchor", "end"),
                                    Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", Self.labelFont),
                                    Attribute("fill", ghost ? theme.muted : theme.ink)], text: label)
        }
        if let sublabel = lane.sublabel {
            writer.element("text", [Attribute("x", x), Attribute("y", axisY + 19), Attribute("text-anchor", "end"),
                                    Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", Self.sublabelFont),
                                    Attribute("fill", lane.sublabelIsAlert ? theme.alert : theme.muted)], text: sublabel)
        }
    }

    mutating func draw(_ lane: Lane, index: Int, top: Double) {
        switch lane.content {
        case .timeline(let timeline):
            writer.open("g", [Attribute("class", timeline.ghost ? "expected" : "stream")])
            drawTimeline(timeline, lane: lane, axisY: top + axisOffset)
            writer.close("g")
        case .box(let lines, let subscriber):
            drawBox(boxLines(lines), subscriber: subscriber, top: top)
        case .inner(let instances):
            writer.open("g", [Attribute("class", "inner")])
            drawInner(instances, lanes: innerLayouts[index]?.lanes ?? [], lane: lane, top: top)
            writer.close("g")
        case .requests(let events, let ghost):
            writer.open("g", ghost ? [Attribute("class", "expected"), Attribute("opacity", "0.6")] : [Attribute("class", "requests")])
            drawRequests(events, lane: lane, y: top + 16, ghost: ghost)
            writer.close("g")
        case .expectedSpans(let spans):
            writer.open("g", [Attribute("class", "expected"), Attribute("opacity", "0.6")])
            drawLabel(lane, axisY: top + 10, ghost: true)
            drawSpans(spans, rows: spanRows(spans), y: top + 12, ghost: true)
            writer.close("g")
        }
    }

    mutating func drawTimeline(_ timeline: Timeline, lane: Lane, axisY: Double) {
        drawLabel(lane, axisY: axisY, ghost: timeline.ghost)
        let colour = timeline.ghost || timeline.dashed ? theme.muted : theme.ink
        var line = [Attribute("x1", axisStart), Attribute("y1", axisY), Attribute("x2", axisEnd), Attribute("y2", axisY),
                    Attribute("stroke", colour), Attribute("stroke-width", Self.arrowStroke)]
        if timeline.ghost { line.append(Attribute("stroke-dasharray", "5 4")) }
        if timeline.dashed { line.append(Attribute("stroke-dasharray", "2 4")) }
        writer.element("line", line)
        drawArrowhead(x: axisEnd, y: axisY, colour: colour)
        for item in scale.breaks { drawBreak(item, y: axisY, colour: colour) }
        if let note = timeline.note {
            writer.element("text", [Attribute("x", (axisStart + axisEnd) / 2), Attribute("y", axisY - 7), Attribute("text-anchor", "middle"),
                                    Attribute("font-size", "11"), Attribute("font-style", "italic"), Attribute("fill", theme.muted)], text: note)
        }
        drawEvents(timeline.events, ghost: timeline.ghost) { _ in axisY }
        for cut in timeline.cuts { drawCut(x: scale.x(cut), y: axisY, frame: cut) }
        if !timeline.spans.isEmpty {
            drawSpans(timeline.spans, rows: spanRows(timeline.spans), y: axisY + below(timeline).marbles + 10, ghost: false)
        }
    }

    mutating func drawArrowhead(x: Double, y: Double, colour: String) {
        writer.element("path", [Attribute("d", "M\(SVG.number(x)) \(SVG.number(y - 4.5))L\(SVG.number(x + 9)) \(SVG.number(y))L\(SVG.number(x)) \(SVG.number(y + 4.5))Z"),
                                Attribute("fill", colour)])
    }

    /// An axis break: the line interrupted by two parallel slashes.
    mutating func drawBreak(_ item: TimeScale.Break, y: Double, colour: String) {
        let cx = (scale.x(item.from) + scale.x(item.to)) / 2
        let gap = "M\(SVG.number(cx - 6)) \(SVG.number(y + 7))L\(SVG.number(cx)) \(SVG.number(y - 7))L\(SVG.number(cx + 6)) \(SVG.number(y - 7))L\(SVG.number(cx)) \(SVG.number(y + 7))Z"
        writer.element("path", [Attribute("d", gap), Attribute("fill", backgroundFill)])
        let slashes = "M\(SVG.number(cx - 6)) \(SVG.number(y + 7))L\(SVG.number(cx)) \(SVG.number(y - 7))M\(SVG.number(cx)) \(SVG.number(y + 7))L\(SVG.number(cx + 6)) \(SVG.number(y - 7))"
        writer.element("path", [Attribute("d", slashes), Attribute("stroke", colour), Attribute("stroke-width", "1.5"), Attribute("fill", "none")],
                       title: "\(time(item.to - item.from)) without events, squeezed (\(when(item.from)) to \(when(item.to)))")
    }

    /// What covers the axis inside a break.
    var backgroundFill: String {
        switch options.background {
        case .theme: return theme.background
        case .color(let color): return color
        case .transparent: return theme.background
        }
    }

    mutating func drawBox(_ lines: [String], subscriber: Bool, top: Double) {
        let boxTop = top + 6
        let boxHeight = Double(lines.count) * Self.boxLineHeight + 12
        let longest = lines.map { TextMetrics.monospace($0, size: Self.boxFont) }.max() ?? 0
        let boxRight = max(arrowTip, axisStart + longest + 16)
        var rect = [Attribute("x", axisStart), Attribute("y", boxTop), Attribute("width", boxRight - axisStart), Attribute("height", boxHeight),
                    Attribute("rx", "4"), Attribute("fill", subscriber ? "none" : theme.boxFill), Attribute("stroke", subscriber ? theme.muted : theme.ink),
                    Attribute("stroke-width", subscriber ? "1" : "1.25")]
        if subscriber { rect.append(Attribute("stroke-dasharray", "4 3")) }
        writer.element("rect", rect)
        for (index, line) in lines.enumerated() {
            let y = boxTop + 6 + Double(index) * Self.boxLineHeight + 13.5
            if subscriber {
                writer.element("text", [Attribute("x", (axisStart + boxRight) / 2), Attribute("y", y), Attribute("text-anchor", "middle"),
                                        Attribute("font-size", "12"), Attribute("font-style", "italic"), Attribute("fill", theme.muted)], text: line)
            } else {
                // Centred when it fits on one line; code lines of a wrapped pipeline align left.
                let centred = lines.count == 1
                writer.element("text", [Attribute("x", centred ? (axisStart + boxRight) / 2 : axisStart + 8), Attribute("y", y),
                                        Attribute("text-anchor", centred ? "middle" : "start"), Attribute("xml:space", "preserve"),
                                        Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", Self.boxFont),
                                        Attribute("fill", theme.ink)], text: line)
            }
        }
    }

    /// Inner arrows: each instance leaves the top of the band at its subscription frame, slants
    /// down to its own lane, and runs along it until it ends; a cut marks a cancellation.
    mutating func drawInner(_ instances: [Instance], lanes: [Int], lane: Lane, top: Double) {
        let originY = top + 6
        drawLabel(lane, axisY: originY + innerKnee, ghost: false)
        for (index, instance) in instances.enumerated() {
            let laneIndex = lanes.indices.contains(index) ? lanes[index] : 0
            let depth = innerKnee + Double(laneIndex) * innerLaneStep
            let startX = scale.x(instance.start)
            let knee = startX + depth / Self.innerSlope
            func y(_ x: Double) -> Double { originY + min(max(0, x - startX) * Self.innerSlope, depth) }
            let endX = Self.innerEnd(instance, scale: scale, frameWidth: frameWidth, axisEnd: axisEnd)
            var title = "\(lane.label ?? "inner") subscribed at \(when(instance.start))"
            switch instance.ending {
            case .cancelled: title += ", cancelled at \(when(instance.end ?? instance.start))"
            case .terminated: if let end = instance.end { title += ", ended at \(when(end))" }
            case .open: title += ", still subscribed when the run stopped"
            }
            writer.open("g", [Attribute("class", "instance")])
            writer.element("title", text: title)
            var points = "M\(SVG.number(startX)) \(SVG.number(originY))"
            if endX > knee {
                points += "L\(SVG.number(knee)) \(SVG.number(originY + depth))L\(SVG.number(endX)) \(SVG.number(originY + depth))"
            } else {
                points += "L\(SVG.number(endX)) \(SVG.number(y(endX)))"
            }
            writer.element("path", [Attribute("d", points), Attribute("fill", "none"), Attribute("stroke", theme.ink),
                                    Attribute("stroke-width", Self.arrowStroke), Attribute("stroke-linejoin", "round")])
            if instance.ending != .cancelled, endX > knee + 4 { drawArrowhead(x: endX, y: originY + depth, colour: theme.ink) }
            writer.element("circle", [Attribute("cx", startX), Attribute("cy", originY), Attribute("r", "3"), Attribute("fill", theme.ink)])
            let scale = self.scale
            drawEvents(instance.events, ghost: false) { frame in y(scale.x(frame)) }
            if instance.ending == .cancelled, let end = instance.end {
                drawCut(x: scale.x(end), y: y(scale.x(end)), frame: end)
            }
            writer.close("g")
        }
    }

    /// A cancellation: a short bar across the arrow where it was cut.
    mutating func drawCut(x: Double, y: Double, frame: Int) {
        writer.element("line", [Attribute("x1", x), Attribute("y1", y - 9), Attribute("x2", x), Attribute("y2", y + 9),
                                Attribute("stroke", theme.cancel), Attribute("stroke-width", Self.markStroke), Attribute("stroke-linecap", "round")],
                       title: "cancelled at \(when(frame))")
    }

    // MARK: Events

    /// Draws events grouped by frame: values stacked downwards in order, then the terminal
    /// event just right of them. `axis` gives the y of the arrow at a frame.
    mutating func drawEvents(_ events: [RenderedEvent], ghost: Bool, axis: (Int) -> Double) {
        var frames: [(frame: Int, events: [PrintableEvent])] = []
        for event in events.enumerated().sorted(by: { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }).map(\.element) {
            if let last = frames.last, last.frame == event.frame {
                frames[frames.count - 1].events.append(event.event)
            } else {
                frames.append((event.frame, [event.event]))
            }
        }
        let rooms = rooms(events)
        for entry in frames {
            let x = scale.x(entry.frame)
            let y = axis(entry.frame)
            let values = entry.events.compactMap { event -> String? in
                if case .value(let token) = event { return token } else { return nil }
            }
            let room = rooms[entry.frame] ?? .infinity
            var widest = 2 * radius
            if values.count > 1 {
                writer.element("line", [Attribute("x1", x), Attribute("y1", y), Attribute("x2", x), Attribute("y2", y + Double(values.count - 1) * stackStep),
                                        Attribute("stroke", theme.muted), Attribute("stroke-width", "1")])
            }
            for (index, token) in values.enumerated() {
                widest = max(widest, drawValue(token, x: x, y: y + Double(index) * stackStep, room: room, frame: entry.frame, ghost: ghost))
            }
            let offset = values.isEmpty ? 0 : widest / 2 + 6
            var terminalX = x + offset
            for event in entry.events {
                switch event {
                case .finished:
                    writer.element("line", [Attribute("x1", terminalX), Attribute("y1", y - radius), Attribute("x2", terminalX), Attribute("y2", y + radius),
                                            Attribute("stroke", ghost ? theme.muted : theme.ink), Attribute("stroke-width", Self.markStroke),
                                            Attribute("stroke-linecap", "round")] + dashes(ghost),
                                   title: "finished at \(when(entry.frame))")
                    terminalX += 8
                case .failure(let text):
                    let message = ValueLabels.failureMessage(text)
                    let arm = min(7.5, radius * 0.55)
                    let d = "M\(SVG.number(terminalX - arm)) \(SVG.number(y - arm))L\(SVG.number(terminalX + arm)) \(SVG.number(y + arm))"
                        + "M\(SVG.number(terminalX - arm)) \(SVG.number(y + arm))L\(SVG.number(terminalX + arm)) \(SVG.number(y - arm))"
                    writer.open("g", [Attribute("class", "failure")])
                    writer.element("title", text: "failed with \"\(message)\" at \(when(entry.frame))")
                    // A wider transparent stroke makes the tooltip easy to hit.
                    writer.element("path", [Attribute("d", d), Attribute("stroke", "transparent"), Attribute("stroke-width", "10")])
                    writer.element("path", [Attribute("d", d), Attribute("stroke", ghost ? theme.muted : theme.ink), Attribute("stroke-width", Self.markStroke),
                                            Attribute("stroke-linecap", "round")] + dashes(false))
                    if message != "error" {
                        let stack = Double(max(values.count, 1) - 1) * stackStep
                        writer.element("text", [Attribute("x", terminalX), Attribute("y", y + radius + stack + 13), Attribute("text-anchor", "middle"),
                                                Attribute("font-size", "11"), Attribute("font-style", "italic"), Attribute("fill", theme.muted)], text: message)
                    }
                    writer.close("g")
                    terminalX += 2 * arm + 4
                default:
                    break
                }
            }
        }
    }

    func dashes(_ ghost: Bool) -> [Attribute] {
        ghost ? [Attribute("stroke-dasharray", "3 3")] : []
    }

    /// A value marble: a circle, or a pill when the label is longer than the circle. Returns its width.
    @discardableResult
    mutating func drawValue(_ token: String, x: Double, y: Double, room: Double, frame: Int, ghost: Bool) -> Double {
        let label = fitted(labels.label(token), room: room)
        let textWidth = TextMetrics.monospace(label, size: valueFont)
        let width = max(2 * radius, textWidth + 12)
        let fill = colour(labels.key(token))
        writer.open("g", ghost ? [Attribute("class", "value"), Attribute("opacity", "0.6")] : [Attribute("class", "value")])
        writer.element("title", text: "\(labels.tooltip(token)) at \(when(frame))")
        var shape: [Attribute]
        if width <= 2 * radius {
            shape = [Attribute("cx", x), Attribute("cy", y), Attribute("r", radius)]
        } else {
            shape = [Attribute("x", x - width / 2), Attribute("y", y - radius), Attribute("width", width), Attribute("height", 2 * radius),
                     Attribute("rx", radius)]
        }
        shape += [Attribute("fill", fill), Attribute("stroke", theme.ink), Attribute("stroke-width", "1.5")]
        if ghost { shape.append(Attribute("stroke-dasharray", "3 2")) }
        writer.element(width <= 2 * radius ? "circle" : "rect", shape)
        writer.element("text", [Attribute("x", x), Attribute("y", y + valueFont * 0.35), Attribute("text-anchor", "middle"),
                                Attribute("xml:space", "preserve"),
                                Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", valueFont), Attribute("fill", theme.ink)],
                       text: label)
        writer.close("g")
        return width
    }

    // MARK: Demand

    /// Requests as tags on a faint guide: `2` for `.max(2)`, `∞` for `.unlimited`; several at one frame stack.
    mutating func drawRequests(_ events: [RenderedEvent], lane: Lane, y: Double, ghost: Bool) {
        drawLabel(lane, axisY: y - 4, ghost: ghost)
        writer.element("line", [Attribute("x1", axisStart), Attribute("y1", y), Attribute("x2", axisEnd), Attribute("y2", y),
                                Attribute("stroke", theme.grid), Attribute("stroke-width", "1"), Attribute("stroke-dasharray", "2 3")])
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
            let x = scale.x(event.frame)
            let tagY = y + Double(row) * 20
            let width = max(18, TextMetrics.monospace(text, size: 11) + 10)
            let colour = ghost ? theme.muted : theme.span
            writer.open("g", [Attribute("class", "request")])
            writer.element("title", text: title)
            writer.element("rect", [Attribute("x", x - width / 2), Attribute("y", tagY - 8), Attribute("width", width), Attribute("height", "16"),
                                    Attribute("rx", "3"), Attribute("fill", theme.background), Attribute("stroke", colour), Attribute("stroke-width", "1.25")]
                           + dashes(ghost))
            writer.element("text", [Attribute("x", x), Attribute("y", tagY + 4), Attribute("text-anchor", "middle"),
                                    Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", "11"), Attribute("fill", colour)],
                           text: text)
            writer.close("g")
        }
    }

    // MARK: Subscriptions

    /// Brackets under an arrow: a dot where a subscription began, a line while it lasted, a
    /// bar where it ended (orange when it was cancelled).
    mutating func drawSpans(_ spans: [Span], rows: [Int], y: Double, ghost: Bool) {
        for (index, span) in spans.enumerated() {
            let rowY = y + Double(rows.indices.contains(index) ? rows[index] : 0) * 10
            let startX = scale.x(span.start)
            // A subscription that ends in the frame it began still shows its two ends.
            let endX = span.end == span.start ? startX + 5 : span.end.map { scale.x($0) } ?? axisEnd
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
            writer.element("circle", [Attribute("cx", startX), Attribute("cy", rowY), Attribute("r", "3"), Attribute("fill", colour)])
            if span.end != nil {
                writer.element("line", [Attribute("x1", endX), Attribute("y1", rowY - 4.5), Attribute("x2", endX), Attribute("y2", rowY + 4.5),
                                        Attribute("stroke", span.cancelled && !ghost ? theme.cancel : colour), Attribute("stroke-width", "2.5"),
                                        Attribute("stroke-linecap", "round")])
            }
            if span.count > 1 {
                writer.element("text", [Attribute("x", endX + 6), Attribute("y", rowY + 3.5), Attribute("font-size", "10"), Attribute("fill", theme.muted)],
                               text: "×\(span.count)")
            }
            writer.close("g")
        }
    }

    // MARK: Mismatch view

    func highlightBounds(_ highlight: Highlight, tops: [Double], lanesBottom: Double) -> (top: Double, bottom: Double) {
        let top = tops.indices.contains(highlight.lanes.lowerBound) ? tops[highlight.lanes.lowerBound] : lanesBottom
        let next = highlight.lanes.upperBound + 1
        let bottom = tops.indices.contains(next) ? tops[next] : lanesBottom
        return (top + 2, bottom - 2)
    }

    mutating func drawHighlight(_ highlight: Highlight, tops: [Double], lanesBottom: Double) {
        let bounds = highlightBounds(highlight, tops: tops, lanesBottom: lanesBottom)
        for item in highlight.frames {
            let x = scale.x(item.frame)
            writer.element("rect", [Attribute("x", x - frameWidth / 2), Attribute("y", bounds.top), Attribute("width", frameWidth),
                                    Attribute("height", bounds.bottom - bounds.top), Attribute("rx", "3"), Attribute("fill", theme.alertFill),
                                    Attribute("stroke", theme.alert), Attribute("stroke-width", "1"), Attribute("stroke-dasharray", "3 2")])
        }
    }

    mutating func drawBadges(_ highlight: Highlight, tops: [Double], lanesBottom: Double) {
        let bounds = highlightBounds(highlight, tops: tops, lanesBottom: lanesBottom)
        for item in highlight.frames {
            let text = item.numbers.map(String.init).joined(separator: ",")
            let width = max(16, TextMetrics.sans(text, size: 10) + 8)
            let x = scale.x(item.frame)
            let y = bounds.bottom - 10
            writer.open("g", [Attribute("class", "difference")])
            writer.element("rect", [Attribute("x", x - width / 2), Attribute("y", y - 8), Attribute("width", width), Attribute("height", "16"),
                                    Attribute("rx", "8"), Attribute("fill", theme.alert)])
            writer.element("text", [Attribute("x", x), Attribute("y", y + 3.5), Attribute("text-anchor", "middle"), Attribute("font-size", "10"),
                                    Attribute("font-weight", "700"), Attribute("fill", theme.background)], text: text)
            writer.close("g")
        }
    }

    // MARK: Ruler

    mutating func drawRuler(y: Double) {
        let left = scale.x(scale.firstFrame) - 0.5 * frameWidth
        let right = scale.x(scale.lastFrame) + 0.5 * frameWidth
        writer.open("g", [Attribute("class", "time"), Attribute("fill", theme.muted), Attribute("font-size", Self.rulerFont)])
        writer.element("line", [Attribute("x1", left), Attribute("y1", y), Attribute("x2", right), Attribute("y2", y),
                                Attribute("stroke", theme.grid), Attribute("stroke-width", "1")])
        // Minor ticks at every frame wide enough to show one.
        let segments = visibleSegments()
        if frameWidth >= 8, segments.reduce(0, { $0 + $1.count }) <= Self.mostMinorTicks {
            var d = ""
            for segment in segments {
                for frame in segment {
                    d += "M\(SVG.number(scale.x(frame))) \(SVG.number(y))v3"
                }
            }
            if !d.isEmpty { writer.element("path", [Attribute("d", d), Attribute("stroke", theme.grid), Attribute("stroke-width", "1")]) }
        }
        for item in scale.breaks {
            drawBreak(item, y: y, colour: theme.grid)
            writer.element("text", [Attribute("x", (scale.x(item.from) + scale.x(item.to)) / 2), Attribute("y", y - 8), Attribute("text-anchor", "middle"),
                                    Attribute("font-style", "italic")], text: "+" + time(item.to - item.from))
        }
        for frame in rulerLabels() {
            let x = scale.x(frame)
            writer.element("line", [Attribute("x1", x), Attribute("y1", y), Attribute("x2", x), Attribute("y2", y + 6),
                                    Attribute("stroke", theme.muted), Attribute("stroke-width", "1")])
            writer.element("text", [Attribute("x", x), Attribute("y", y + 17), Attribute("text-anchor", "middle")], text: time(frame))
        }
        writer.close("g")
    }

    static let mostMinorTicks = 4000
    static let mostRulerCandidates = 2000

    /// The stretches of frames drawn to scale: the axis without the inside of its breaks.
    func visibleSegments() -> [ClosedRange<Int>] {
        var segments: [ClosedRange<Int>] = []
        var start = scale.firstFrame
        for item in scale.breaks where item.from >= start {
            segments.append(start...item.from)
            start = item.to
        }
        if start <= scale.lastFrame { segments.append(start...scale.lastFrame) }
        return segments
    }

    /// Frames that get a time label: 0 and the frames right after squeezed stretches first,
    /// then round multiples, skipping any that would crowd a label already placed.
    func rulerLabels() -> [Int] {
        let steps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100_000, 1_000_000]
        let step = steps.first { Double($0) * frameWidth >= 56 } ?? 1_000_000
        var candidates: [Int] = []
        if scale.firstFrame <= 0 { candidates.append(0) }
        candidates.append(scale.firstFrame)
        candidates += scale.breaks.map(\.to)
        for segment in visibleSegments() where candidates.count < Self.mostRulerCandidates {
            var frame = Int((Double(segment.lowerBound) / Double(step)).rounded(.up)) * step
            while frame <= segment.upperBound, candidates.count < Self.mostRulerCandidates {
                candidates.append(frame)
                frame += step
            }
        }
        var placed: [(frame: Int, left: Double, right: Double)] = []
        for frame in candidates where scale.breakContaining(frame) == nil {
            guard !placed.contains(where: { $0.frame == frame }) else { continue }
            let x = scale.x(frame)
            let half = TextMetrics.sans(time(frame), size: Self.rulerFont) / 2 + 5
            let collides = placed.contains { x - half < $0.right && x + half > $0.left }
            let nearBreak = scale.breaks.contains { abs((scale.x($0.from) + scale.x($0.to)) / 2 - x) < half + 4 }
            if !collides && !nearBreak { placed.append((frame, x - half, x + half)) }
        }
        return placed.map(\.frame).sorted()
    }

    // MARK: Legend and footer

    func legendRows(width: Double) -> [[LegendEntry]] {
        var rows: [[LegendEntry]] = [[]]
        var x = Self.padding
        for entry in legend {
            let entryWidth = legendWidth(entry)
            if x + entryWidth > width - Self.padding, !(rows.last?.isEmpty ?? true) {
                rows.append([])
                x = Self.padding
            }
            rows[rows.count - 1].append(entry)
            x += entryWidth
        }
        return rows.filter { !$0.isEmpty }
    }

    func legendWidth(_ entry: LegendEntry) -> Double {
        24 + TextMetrics.monospace(entry.text, size: 12) + 20
    }

    mutating func drawLegendRow(_ row: [LegendEntry], y: Double) {
        var x = Self.padding
        writer.open("g", [Attribute("class", "legend")])
        for entry in row {
            writer.element("circle", [Attribute("cx", x + 9), Attribute("cy", y), Attribute("r", "9"),
                                      Attribute("fill", colour(entry.key)), Attribute("stroke", theme.ink), Attribute("stroke-width", "1")])
            writer.element("text", [Attribute("x", x + 24), Attribute("y", y + 4), Attribute("xml:space", "preserve"),
                                    Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", "12"), Attribute("fill", theme.ink)],
                           text: entry.text)
            x += legendWidth(entry)
        }
        writer.close("g")
    }

    enum FooterLine {
        case difference(number: Int?, text: String)
        case note(String)
        case error(String)
    }

    /// Numbered differences, the checks' notes, and a runtime error, wrapped to the width.
    func footerLines(width: Double) -> [FooterLine] {
        let available = max(Self.narrowestFooter, width - 2 * Self.padding - 26)
        var lines: [FooterLine] = []
        if let error = test.error {
            var text = "error: \(error.message) (line \(error.line), column \(error.column)"
            if let frame = error.frame { text += ", at \(when(frame))" }
            text += ")"
            lines += wrap(text, width: available, size: 12, bold: true).map(FooterLine.error)
            if let hint = error.hint { lines += wrap("hint: " + hint, width: available, size: 12).map(FooterLine.note) }
        }
        for difference in scene.differences {
            let text = "\(when(difference.frame)): \(difference.sentence)"
            for (index, line) in wrap(text, width: available, size: 12).enumerated() {
                lines.append(.difference(number: index == 0 ? difference.number : nil, text: line))
            }
        }
        for check in test.checks where !check.passed {
            for note in check.notes { lines += wrap(note, width: available, size: 12).map(FooterLine.note) }
        }
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
        let x = Self.padding + 26
        switch line {
        case .difference(let number, let text):
            if let number {
                let label = String(number)
                let width = max(16, TextMetrics.sans(label, size: 10) + 8)
                writer.element("rect", [Attribute("x", Self.padding + 8 - width / 2 + 4), Attribute("y", y - 11.5), Attribute("width", width),
                                        Attribute("height", "16"), Attribute("rx", "8"), Attribute("fill", theme.alert)])
                writer.element("text", [Attribute("x", Self.padding + 12), Attribute("y", y), Attribute("text-anchor", "middle"),
                                        Attribute("font-size", "10"), Attribute("font-weight", "700"), Attribute("fill", theme.background)], text: label)
            }
            writer.element("text", [Attribute("x", x), Attribute("y", y), Attribute("font-size", "12"), Attribute("fill", theme.alert)], text: text)
        case .note(let text):
            writer.element("text", [Attribute("x", x), Attribute("y", y), Attribute("font-size", "12"), Attribute("font-style", "italic"),
                                    Attribute("fill", theme.muted)], text: text)
        case .error(let text):
            writer.element("text", [Attribute("x", x), Attribute("y", y), Attribute("font-size", "12"), Attribute("font-weight", "600"),
                                    Attribute("fill", theme.alert)], text: text)
        }
    }

    // MARK: Accessibility

    /// A text version of the diagram: each lane as marble text.
    func description() -> String {
        var parts = ["Marble diagram of the test \"\(test.name)\" in \(path), one frame = \(TimeText.describe(nanoseconds: test.frameNanoseconds))."]
        for lane in scene.lanes {
            let name = lane.label ?? ""
            switch lane.content {
            case .timeline(let timeline):
                let marbles = render(timeline.events)
                var text = name + (lane.sublabel.map { " (\($0))" } ?? "") + ": " + (marbles.isEmpty ? "no events" : marbles)
                if let note = timeline.note { text += " (\(note))" }
                parts.append(text + ".")
            case .box(let lines, let subscriber):
                parts.append(subscriber ? "Received by the test's subscriber:" : "Operator: \(lines.joined(separator: " ")).")
            case .inner(let instances):
                for instance in instances {
                    var text = "\(name) subscribed at frame \(instance.start)"
                    if let end = instance.end { text += instance.ending == .cancelled ? ", cancelled at frame \(end)" : ", ended at frame \(end)" }
                    parts.append(text + ": " + render(instance.events) + ".")
                }
            case .requests(let events, _):
                parts.append("\(name) \(lane.sublabel ?? ""): " + (events.isEmpty ? "none" : render(events)) + ".")
            case .expectedSpans(let spans):
                for span in spans {
                    parts.append("Expected \(lane.sublabel ?? "subscription"): from frame \(span.start)" + (span.end.map { " to frame \($0)" } ?? "") + ".")
                }
            }
        }
        for difference in scene.differences {
            parts.append("Difference \(difference.number) at frame \(difference.frame): \(difference.sentence).")
        }
        return parts.joined(separator: " ")
    }

    func render(_ events: [RenderedEvent]) -> String {
        MarblePrinter.render(events.map { (frame: $0.frame, event: $0.event) }, frameNanoseconds: test.frameNanoseconds,
                             compressingGapsLongerThan: TimeScale.longestDrawnGap)
    }
}
