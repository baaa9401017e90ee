import Foundation
import MarbleNotation
import MarbleReport

/// Lays a scene out and writes it as SVG. All sizes are in pixels (user units).
struct Renderer {
    let test: TestReport
    let path: String
    let scene: Scene
    let options: DiagramOptions
    let theme: Theme
    let labels: ValueLabels
    /// The hue of every value drawn, by its key (or the key whose colour it takes).
    let hues: [String: Int]
    /// Values that take the colour of another: what `map` made of it (see `colourIdentities`).
    let colourOf: [String: String]

    let frameWidth: Double
    /// How far the arrows reach past the last frame.
    let axisTailWidth: Double
    /// Marble radius.
    let radius: Double
    let valueFont: Double
    let scale: TimeScale
    let labelColumn: Double
    /// What the legend under the ruler explains: named values, then labels cut short in their marbles.
    var legend: [LegendEntry] = []
    /// The marks the diagram uses, explained in the legend.
    var marks: [Mark] = []
    /// The top of each lane (set when rendering).
    var tops: [Double] = []
    /// The gutter column of each lane that a tap reads (see `tapColumns`).
    var tapColumns: [Int: Int] = [:]
    /// Whether marks get a ring of background colour, so that a line crossing them (an inner
    /// arrow dropping to its row) stops short of them.
    var haloMarks = false
    /// The title and subtitle, wrapped to the diagram's width (set when rendering).
    var header: (title: [String], subtitle: [String]) = ([], [])

    var writer = SVGWriter()
    /// What `DrawingBounds` left out of the report, said in the footer.
    var omissions: [String] = []

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
        let labels = ValueLabels(values: values, tokens: tokens)
        let colourOf = Self.colourIdentities(test, labels: labels)
        self.labels = labels
        self.colourOf = colourOf
        hues = ValueColor.hues(for: tokens.map { colourOf[labels.key($0)] ?? labels.key($0) })

        let firstFrame = min(0, frames.min() ?? 0)
        let lastFrame = max(SceneBuilder.lastFrame(test), frames.max() ?? 0)
        let breaks = TimeScale.breaks(busyFrames: frames, firstFrame: firstFrame, lastFrame: lastFrame, compress: options.compressIdleTime)

        var column = 0.0
        for lane in scene.lanes {
            if let label = lane.label { column = max(column, TextMetrics.monospace(label, size: Layout.labelFont)) }
            if let sublabel = lane.sublabel { column = max(column, TextMetrics.monospace(sublabel, size: Layout.sublabelFont)) }
        }
        labelColumn = max(Layout.narrowestLabelColumn, column + Layout.labelColumnMargin)
        let axisStart = Layout.padding + labelColumn

        // Frame width: as given, else wide enough for neighbouring labels, narrow enough for
        // the diagram to fit `targetWidth` (or, for a long test, `widestAutomaticAxis`). Operator
        // text never widens frames: it wraps.
        var width = options.frameWidth ?? Layout.defaultFrameWidth
        let provisionalRadius = Self.radius(forFrameWidth: width)
        if options.frameWidth == nil {
            let font = Self.valueFont(forRadius: provisionalRadius)
            var needed = width
            for lane in scene.lanes {
                let byFrame = Self.valueWidths(Self.events(of: lane), labels: labels, radius: provisionalRadius, font: font)
                for (a, b) in zip(byFrame, byFrame.dropFirst()) where b.frame - a.frame <= Layout.neighbourFrames {
                    needed = max(needed, ((a.width + b.width) / 2 + Layout.labelGap) / Double(b.frame - a.frame))
                }
            }
            let provisional = TimeScale(origin: 0, frameWidth: 1, firstFrame: firstFrame, lastFrame: lastFrame, breaks: breaks)
            let fitting = (Layout.targetWidth - 2 * Layout.padding - labelColumn - Layout.arrowheadLength) / (provisional.span + Layout.axisLead + Layout.axisTail)
            width = min(needed, Layout.widestAutomaticFrame)
            if fitting >= Layout.narrowestFittingFrame {
                // Labels too long for the frames are cut short and explained in the legend.
                width = min(width, fitting)
            } else if provisional.span * width > Layout.widestAutomaticAxis {
                width = max(Layout.narrowestAutomaticFrame, Layout.widestAutomaticAxis / max(provisional.span, 1))
            }
            width = (width / Layout.frameWidthStep).rounded(.down) * Layout.frameWidthStep
        }
        frameWidth = width
        radius = Self.radius(forFrameWidth: width)
        valueFont = Self.valueFont(forRadius: radius)

        // Room before the first frame and after the last for the marbles there (a pill is wider than a frame).
        var firstHalf = 0.0
        var lastHalf = 0.0
        for lane in scene.lanes {
            for item in Self.valueWidths(Self.events(of: lane), labels: labels, radius: radius, font: valueFont) {
                if item.frame == firstFrame { firstHalf = max(firstHalf, item.width / 2) }
                if item.frame == lastFrame { lastHalf = max(lastHalf, item.width / 2) }
            }
        }
        axisTailWidth = max(Layout.axisTail * width, lastHalf + Layout.edgeMarbleMargin)
        scale = TimeScale(origin: axisStart + max(Layout.axisLead * width, firstHalf + Layout.edgeMarbleMargin), frameWidth: width, firstFrame: firstFrame, lastFrame: lastFrame,
                          breaks: breaks)
        legend = labels.legend.map { LegendEntry(symbol: .value(key: $0.literal), text: "\($0.name) = \($0.literal)") }
        for token in truncatedTokens() where !legend.contains(where: { $0.symbol == .value(key: labels.key(token)) }) {
            legend.append(LegendEntry(symbol: .value(key: labels.key(token)), text: labels.label(token)))
        }
        // Names the mismatch sentences use ("expected E, got D") are explained when the marbles show literals.
        for name in labels.namesUsed(in: scene.differences.map(\.sentence)) where !legend.contains(where: { $0.text == "\(name.name) = \(name.literal)" }) {
            legend.append(LegendEntry(symbol: .value(key: name.literal), text: "\(name.name) = \(name.literal)"))
        }
        marks = Self.marks(of: scene, test: test, squeezed: !scale.breaks.isEmpty)
        tapColumns = Self.tapColumns(scene.lanes)
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
            case .timeline(let timeline): collect(timeline.events + timeline.dropped)
            case .inner(let instances): instances.forEach { collect($0.events + $0.dropped) }
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
            result[frame] = room - Layout.labelRoomGap
        }
        return result
    }

    /// A label cut to the room of its marble, with `…` when cut.
    func fitted(_ label: String, room: Double) -> String {
        let maximum = max(2 * radius, room)
        guard TextMetrics.monospace(label, size: valueFont) + Layout.pillPadding > maximum else { return label }
        let cells = max(1, Int((maximum - Layout.pillPadding) / (valueFont * TextMetrics.monospaceAdvance)))
        return TextMetrics.truncated(label, toUnits: cells)
    }

    static func radius(forFrameWidth width: Double) -> Double {
        min(Layout.largestRadius, max(Layout.smallestRadius, (width - Layout.marbleSpacing) / 2))
    }

    static func valueFont(forRadius radius: Double) -> Double {
        radius >= Layout.fullValueFontRadius ? Layout.fullValueFont : max(Layout.smallestValueFont, radius)
    }

    static func events(of lane: Lane) -> [RenderedEvent] {
        switch lane.content {
        case .timeline(let timeline): return timeline.events + timeline.dropped
        case .inner(let instances): return instances.flatMap { $0.events + $0.dropped }
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
            let width = max(2 * radius, TextMetrics.monospace(labels.label(token), size: font) + Layout.pillPadding)
            if let last = result.last, last.frame == event.frame {
                result[result.count - 1].width = max(last.width, width)
            } else {
                result.append((event.frame, width))
            }
        }
        return result
    }

    /// Where an inner arrow ends: at its cut, a little after its terminal event, or at the axis end.
    func innerEnd(_ instance: Instance) -> Double {
        switch instance.ending {
        case .cancelled: return scale.x(instance.end ?? instance.start)
        case .terminated:
            return scale.x(instance.events.last(where: { $0.event.isTerminal })?.frame ?? instance.end ?? instance.start)
        case .open: return axisEnd
        }
    }

    /// The row of each inner arrow: one per subscription (so no two arrows share a row and no
    /// marble sits where an arrow turns), in order of subscription — except that a subscription
    /// whose drop would pass through a mark of an earlier one at its frame (flatMap's second
    /// request starting as the first one's `x` arrives) takes a row above that one. Its drop then
    /// crosses only rows of subscriptions made at or before its frame that have no mark there;
    /// the earlier subscription's drop crosses its row where its arrow has not begun.
    static func innerRows(_ instances: [Instance]) -> [Int] {
        let order = instances.indices.sorted { (instances[$0].start, $0) < (instances[$1].start, $1) }
        func marks(_ index: Int, at frame: Int) -> Bool {
            let instance = instances[index]
            return (instance.events + instance.dropped).contains { $0.frame == frame } || (instance.ending == .cancelled && instance.end == frame)
        }
        // Top to bottom.
        var stack: [Int] = []
        for index in order {
            let start = instances[index].start
            let position = stack.firstIndex { $0 != index && instances[$0].start < start && marks($0, at: start) } ?? stack.count
            stack.insert(index, at: position)
        }
        var rows = [Int](repeating: 0, count: instances.count)
        for (row, index) in stack.enumerated() { rows[index] = row }
        return rows
    }

    func colour(_ key: String) -> String {
        let identity = colourOf[key] ?? key
        return ValueColor.fill(hue: hues[identity] ?? ValueColor.hue(identity), theme: theme)
    }

    /// Operators that turn each value into one other value in the same frame: what they make
    /// of a value is drawn in the value's colour (as RxMarbles does), so it can be followed.
    static let oneToOne: Set<String> = ["map", "tryMap"]

    /// For a stream `input.map { … }` (one input, one step), each output value takes the colour
    /// of the input value it was made from (the same frame, the same place in the frame) —
    /// unless it is itself a value of the input (then it keeps its own) or two inputs would
    /// give it two colours.
    static func colourIdentities(_ test: TestReport, labels: ValueLabels) -> [String: String] {
        var streams: [String: StreamReport] = [:]
        for stream in test.streams where streams[stream.name] == nil { streams[stream.name] = stream }
        func values(_ stream: StreamReport) -> [Int: [String]] {
            var byFrame: [Int: [String]] = [:]
            for event in stream.observed ?? (stream.kind == .derived ? [] : stream.declared ?? []) {
                if case .value(let token) = event.event { byFrame[event.frame, default: []].append(labels.key(token)) }
            }
            return byFrame
        }
        var result: [String: String] = [:]
        var conflicting: Set<String> = []
        for stream in test.streams where stream.kind == .derived && stream.inputs.count == 1 {
            guard let expression = stream.expression, let input = streams[stream.inputs[0]], input.kind != .cold else { continue }
            let steps = PipelineText.steps(expression)
            guard steps.count == 2, steps[0] == input.name,
                  let name = steps[1].dropFirst().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).first.map(String.init),
                  oneToOne.contains(name) else { continue }
            let before = values(input)
            let own = Set(before.values.joined())
            // One value out for each value in, in the same order, within a frame.
            for (frame, after) in values(stream) {
                guard let source = before[frame], source.count == after.count else { continue }
                for (made, from) in zip(after, source) where !own.contains(made) && made != from {
                    let identity = result[from] ?? from
                    if let existing = result[made], existing != identity { conflicting.insert(made) }
                    result[made] = identity
                }
            }
        }
        for key in conflicting { result[key] = nil }
        return result
    }

    // MARK: Derived measures

    var axisStart: Double { Layout.padding + labelColumn }
    /// The arrows end a little after the last frame.
    var axisEnd: Double { scale.x(scale.lastFrame) + axisTailWidth }
    var arrowTip: Double { axisEnd + Layout.arrowheadLength }
    var stackStep: Double { 2 * radius + Layout.stackGap }
    /// How far below the top of an inner band its first row runs, and the distance between rows.
    var innerKnee: Double { radius + Layout.innerKneeDrop }
    var innerLaneStep: Double { 2 * radius + Layout.innerRowGap }

    /// How far below the top of an inner band each row runs (by row), and how far the band reaches.
    func innerDepths(_ instances: [Instance]) -> (rows: [Double], bottom: Double) {
        let rows = Self.innerRows(instances)
        var byRow = [(stack: Int, message: Bool)](repeating: (1, false), count: instances.count)
        for (index, instance) in instances.enumerated() { byRow[rows[index]] = extent(instance.events + instance.dropped) }
        var depths: [Double] = []
        var depth = innerKnee
        for item in byRow {
            depths.append(depth)
            depth += innerLaneStep + Double(item.stack - 1) * stackStep + (item.message ? Layout.innerMessageHeight : 0)
        }
        let last = byRow.last ?? (1, false)
        let bottom = (depths.last ?? innerKnee) + radius + Double(last.stack - 1) * stackStep + (last.message ? Layout.innerMessageHeight : 0)
        return (rows.map { depths[$0] }, bottom)
    }

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

    /// Distance from a timeline lane's top to its axis. An arrow without marbles or marks (a
    /// stream nobody observed) needs no room for them.
    func axisOffset(_ timeline: Timeline) -> Double {
        Self.drawsEvents(timeline) ? radius + Layout.terminalOverhang + Layout.laneGap / 2 : Layout.emptyAxisOffset
    }

    static func drawsEvents(_ timeline: Timeline) -> Bool {
        !timeline.events.isEmpty || !timeline.dropped.isEmpty
    }

    /// How far below the axis a timeline's marbles, messages and brackets reach.
    func below(_ timeline: Timeline) -> (marbles: Double, total: Double) {
        let (stack, message) = extent(timeline.events + timeline.dropped)
        var below = Self.drawsEvents(timeline) ? radius + Layout.terminalOverhang + Double(stack - 1) * stackStep : 0
        if message { below += Layout.messageHeight }
        let marbles = below
        if !timeline.spans.isEmpty {
            let rows = (spanRows(timeline.spans).max() ?? 0) + 1
            below += Layout.spanRowStep + Double(rows - 1) * Layout.spanRowStep + Layout.spanBottomGap
        }
        if !timeline.connections.isEmpty { below += Layout.connectionRowHeight }
        return (marbles, below)
    }

    func height(of lane: Lane, at index: Int) -> Double {
        let badgeRoom = isHighlightBottom(index) ? Layout.differenceBadgeRoom : 0
        switch lane.content {
        case .timeline(let timeline):
            return axisOffset(timeline) + below(timeline).total + Layout.laneGap + badgeRoom
        case .box(let lines, _, _):
            return Double(boxLines(lines).count) * Layout.boxLineHeight + 2 * Layout.boxPadding
        case .inner(let instances):
            return Layout.bandInset + innerDepths(instances).bottom + Layout.laneGap + Layout.innerBottomGap + badgeRoom
        case .expectedSpans:
            return Layout.expectedSpansHeight + badgeRoom
        case .requests(let events, _):
            let stack = Dictionary(grouping: events, by: \.frame).values.map(\.count).max() ?? 1
            return Layout.requestsHeight + Double(stack - 1) * Layout.requestRowStep + badgeRoom
        }
    }

    func isHighlightBottom(_ index: Int) -> Bool {
        scene.highlights.contains { $0.lanes.upperBound == index }
    }

    /// Box text broken to the width of the axis.
    func boxLines(_ lines: [String]) -> [String] {
        let available = arrowTip - axisStart - Layout.boxTextInset
        let cells = max(Layout.narrowestBoxLine, Int(available / (Layout.boxFont * TextMetrics.monospaceAdvance)))
        return lines.flatMap { PipelineText.lines($0, width: cells) }
    }

    // MARK: Rendering

    mutating func render() -> String {
        // Width: what the lanes need; the header and the footer wrap to it.
        var right = arrowTip + Layout.padding
        if test.outcome != .passed { right = max(right, 2 * Layout.padding + Layout.footerBadgeColumn + Layout.narrowestFooter) }
        for lane in scene.lanes {
            if case .box(let lines, let subscriber, _) = lane.content {
                for line in boxLines(lines) {
                    let text = subscriber ? TextMetrics.sans(line, size: Layout.subscriberFont) : TextMetrics.monospace(line, size: Layout.boxFont)
                    right = max(right, axisStart + text + Layout.boxTextInset + Layout.padding)
                }
            }
            for event in Self.events(of: lane) {
                if case .failure(let text) = event.event {
                    let message = ValueLabels.failureMessage(text)
                    right = max(right, scale.x(event.frame) + TextMetrics.sans(message, size: Layout.messageFont) / 2 + Layout.padding)
                }
            }
            if case .timeline(let timeline) = lane.content, let note = timeline.note {
                let position = notePosition(timeline, axisY: 0)
                let text = TextMetrics.sans(note, size: Layout.noteFont)
                right = max(right, position.x + (Self.drawsEvents(timeline) ? text : text / 2) + Layout.padding)
            }
            if case .requests(let events, _) = lane.content, events.isEmpty, let note = lane.note {
                right = max(right, arrowTip + Layout.noteGap + TextMetrics.sans(note, size: Layout.noteFont) + Layout.padding)
            }
        }
        if !options.bare {
            // A long title may widen a narrow diagram a little rather than wrap into many lines.
            right = max(right, min(2 * Layout.padding + TextMetrics.sans(test.name, size: Layout.titleFont, bold: true), Layout.narrowestTitle))
            // A word of the header too long to wrap (a path) widens the diagram.
            for word in test.name.split(separator: " ") { right = max(right, 2 * Layout.padding + TextMetrics.sans(String(word), size: Layout.titleFont, bold: true)) }
            for part in subtitle.components(separatedBy: " · ") { right = max(right, 2 * Layout.padding + TextMetrics.sans(part, size: Layout.subtitleFont)) }
        }
        for entry in legend + marks.map(\.legendEntry) { right = max(right, 2 * Layout.padding + Self.legendWidth(entry) - Layout.legendGap) }
        let width = right.rounded(.up)
        if !options.bare { header = headerLines(width: width) }

        // Vertical layout of the lanes.
        tops = []
        var y = Layout.padding + (options.bare ? 0 : headerHeight)
        for (index, lane) in scene.lanes.enumerated() {
            tops.append(y)
            y += height(of: lane, at: index)
        }
        let lanesBottom = y
        let rulerY = lanesBottom + (scale.breaks.isEmpty ? Layout.rulerGap : Layout.rulerGapWithBreaks)

        // Where the legend and the footer start: under the ruler, or under the lanes without one.
        let belowRuler = options.bare ? lanesBottom : rulerY + Layout.rulerHeight
        let footer = footerLines(width: width)
        var height = belowRuler
        let legendRows = Self.legendRows(legend + marks.map(\.legendEntry), width: width)
        if !legendRows.isEmpty { height += Layout.legendTopGap + Double(legendRows.count) * Layout.legendRowHeight }
        if !footer.isEmpty { height += Layout.footerTopGap + Double(footer.count) * Layout.footerLineHeight }
        height = (height + Layout.padding - Layout.bottomTrim).rounded(.up)

        writer.recordsPaints = options.theme == .auto
        writer.open("svg", [
            Attribute("xmlns", "http://www.w3.org/2000/svg"),
            Attribute("width", width * options.scale), Attribute("height", height * options.scale),
            Attribute("viewBox", "0 0 \(SVG.number(width)) \(SVG.number(height))"),
            Attribute("role", "img"),
            Attribute("font-family", TextMetrics.sansFamily),
        ])
        writer.element("title", text: test.name)
        writer.element("desc", text: description())
        let styleLine = writer.lines.count
        switch options.background {
        case .theme: writer.element("rect", [Attribute("width", "100%"), Attribute("height", "100%"), Attribute("fill", theme.background)])
        case .color(let color): writer.element("rect", [Attribute("width", "100%"), Attribute("height", "100%"), Attribute("fill", color)])
        case .transparent: break
        }
        if !options.bare { drawHeader() }
        for highlight in scene.highlights { drawHighlight(highlight, tops: tops, lanesBottom: lanesBottom) }
        for (index, lane) in scene.lanes.enumerated() { draw(lane, index: index, top: tops[index]) }
        for highlight in scene.highlights { drawBadges(highlight, tops: tops, lanesBottom: lanesBottom) }
        if !options.bare { drawRuler(y: rulerY) }
        var footerY = belowRuler
        if !legendRows.isEmpty {
            footerY += Layout.legendTopGap
            for row in legendRows {
                drawLegendRow(row, y: footerY + Layout.legendBaseline)
                footerY += Layout.legendRowHeight
            }
        }
        if !footer.isEmpty {
            footerY += Layout.footerTopGap
            for line in footer {
                drawFooterLine(line, y: footerY + Layout.footerBaseline)
                footerY += Layout.footerLineHeight
            }
        }
        writer.close("svg")
        if options.theme == .auto {
            // After the drawing, so that the rules are those of the colours it uses.
            writer.insert(Theme.darkSchemeStyle(paints: writer.paints), at: styleLine)
        }
        return writer.document
    }

}
