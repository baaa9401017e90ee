import MarbleNotation
import MarbleSpec

/// Lays a scene out and writes it as SVG. All sizes are in pixels (user units).
struct Renderer {
    // MARK: Fixed measures

    static let padding = 20.0
    static let defaultFrameWidth = 32.0
    static let widestAutomaticFrame = 84.0
    static let narrowestAutomaticFrame = 14.0
    static let widestAutomaticAxis = 2400.0
    /// A diagram aims to fit this width (a README column on GitHub is about 830 pixels): frames
    /// narrow (down to `narrowestFittingFrame`) so that a test of 20 frames fits.
    static let targetWidth = 800.0
    static let narrowestFittingFrame = 22.0
    /// The axis starts this many frames before frame 0 and ends this many after the last one.
    static let axisLead = 0.75
    static let axisTail = 0.9
    static let arrowheadLength = 9.0
    static let titleFont = 15.0
    /// A diagram narrower than this widens to it for a title that would otherwise wrap.
    static let narrowestTitle = 440.0
    static let titleLineHeight = 19.0
    static let subtitleFont = 12.0
    static let subtitleLineHeight = 16.0
    static let labelFont = 13.0
    static let sublabelFont = 11.0
    static let boxFont = 13.0
    static let boxLineHeight = 18.0
    static let rulerFont = 10.0
    /// Differences and errors under the diagram wrap at no less than this.
    static let narrowestFooter = 380.0
    static let arrowStroke = 1.5
    static let markStroke = 2.5

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
    /// Whether marks get a ring of background colour, so that a line crossing them (an inner
    /// arrow dropping to its row) stops short of them.
    var haloMarks = false
    /// The title and subtitle, wrapped to the diagram's width (set when rendering).
    var header: (title: [String], subtitle: [String]) = ([], [])

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
            if let label = lane.label { column = max(column, TextMetrics.monospace(label, size: Self.labelFont)) }
            if let sublabel = lane.sublabel { column = max(column, TextMetrics.monospace(sublabel, size: Self.sublabelFont)) }
        }
        labelColumn = max(48, column + 24)
        let axisStart = Self.padding + labelColumn

        // Frame width: as given, else wide enough for neighbouring labels, narrow enough for
        // the diagram to fit `targetWidth` (or, for a long test, `widestAutomaticAxis`). Operator
        // text never widens frames: it wraps.
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
            let provisional = TimeScale(origin: 0, frameWidth: 1, firstFrame: firstFrame, lastFrame: lastFrame, breaks: breaks)
            let fitting = (Self.targetWidth - 2 * Self.padding - labelColumn - Self.arrowheadLength) / (provisional.span + Self.axisLead + Self.axisTail)
            width = min(needed, Self.widestAutomaticFrame)
            if fitting >= Self.narrowestFittingFrame {
                // Labels too long for the frames are cut short and explained in the legend.
                width = min(width, fitting)
            } else if provisional.span * width > Self.widestAutomaticAxis {
                width = max(Self.narrowestAutomaticFrame, Self.widestAutomaticAxis / max(provisional.span, 1))
            }
            width = (width * 4).rounded(.down) / 4
        }
        frameWidth = width
        radius = Self.radius(forFrameWidth: width)
        valueFont = Self.valueFont(forRadius: radius)

        scale = TimeScale(origin: axisStart + Self.axisLead * width, frameWidth: width, firstFrame: firstFrame, lastFrame: lastFrame, breaks: breaks)
        legend = labels.legend.map { LegendEntry(symbol: .value(key: $0.literal), text: "\($0.name) = \($0.literal)") }
        for token in truncatedTokens() where !legend.contains(where: { $0.symbol == .value(key: labels.key(token)) }) {
            legend.append(LegendEntry(symbol: .value(key: labels.key(token)), text: labels.label(token)))
        }
        // Names the mismatch sentences use ("expected E, got D") are explained when the marbles show literals.
        for name in labels.namesUsed(in: scene.differences.map(\.sentence)) where !legend.contains(where: { $0.text == "\(name.name) = \(name.literal)" }) {
            legend.append(LegendEntry(symbol: .value(key: name.literal), text: "\(name.name) = \(name.literal)"))
        }
        marks = Self.marks(of: scene, test: test, squeezed: !scale.breaks.isEmpty)
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
        case .timeline(let timeline): return timeline.events + timeline.dropped
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

    /// Where an inner arrow ends: at its cut, a little after its terminal event, or at the axis end.
    func innerEnd(_ instance: Instance) -> Double {
        switch instance.ending {
        case .cancelled: return scale.x(instance.end ?? instance.start)
        case .terminated:
            return scale.x(instance.events.last(where: { $0.event.isTerminal })?.frame ?? instance.end ?? instance.start)
        case .open: return axisEnd
        }
    }

    /// The row of each inner arrow: one per subscription, in order of subscription (so no two
    /// arrows share a row and no marble sits where an arrow turns).
    static func innerRows(_ instances: [Instance]) -> [Int] {
        let order = instances.indices.sorted { (instances[$0].start, $0) < (instances[$1].start, $1) }
        var rows = [Int](repeating: 0, count: instances.count)
        for (row, index) in order.enumerated() { rows[index] = row }
        return rows
    }

    func colour(_ key: String) -> String {
        let identity = colourOf[key] ?? key
        return ValueColor.fill(hue: hues[identity] ?? ValueColor.hue(identity), theme: theme)
    }

    /// Operators that turn each value into one other value in the same frame: what they make
    /// of a value is drawn in the value's colour (as RxMarbles does), so it can be followed.
    static let oneToOne: Set<String> = ["map", "tryMap"]

    /// For a stream `input.map { … }` (one input, one step), each output value that is the
    /// only one of its frame takes the colour of the only input value of that frame — unless
    /// it is itself a value of the input (then it keeps its own) or two inputs would give it two.
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
            for (frame, after) in values(stream) {
                guard after.count == 1, let source = before[frame], source.count == 1, !own.contains(after[0]), after[0] != source[0] else { continue }
                let identity = result[source[0]] ?? source[0]
                if let existing = result[after[0]], existing != identity { conflicting.insert(after[0]) }
                result[after[0]] = identity
            }
        }
        for key in conflicting { result[key] = nil }
        return result
    }

    // MARK: Derived measures

    var axisStart: Double { Self.padding + labelColumn }
    /// The arrows end a little after the last frame.
    var axisEnd: Double { scale.x(scale.lastFrame) + Self.axisTail * frameWidth }
    var arrowTip: Double { axisEnd + Self.arrowheadLength }
    var stackStep: Double { 2 * radius + 4 }
    /// How far below the top of an inner band its first row runs, and the distance between rows.
    var innerKnee: Double { radius + 12 }
    var innerLaneStep: Double { 2 * radius + 10 }

    /// How far below the top of an inner band each row runs (by row), and how far the band reaches.
    func innerDepths(_ instances: [Instance]) -> (rows: [Double], bottom: Double) {
        let rows = Self.innerRows(instances)
        var byRow = [(stack: Int, message: Bool)](repeating: (1, false), count: instances.count)
        for (index, instance) in instances.enumerated() { byRow[rows[index]] = extent(instance.events) }
        var depths: [Double] = []
        var depth = innerKnee
        for item in byRow {
            depths.append(depth)
            depth += innerLaneStep + Double(item.stack - 1) * stackStep + (item.message ? 16 : 0)
        }
        let last = byRow.last ?? (1, false)
        let bottom = (depths.last ?? innerKnee) + radius + Double(last.stack - 1) * stackStep + (last.message ? 16 : 0)
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

    /// Distance from a timeline lane's top to its axis.
    /// An arrow without events (a stream nobody observed) needs no room for marbles.
    func axisOffset(_ timeline: Timeline) -> Double {
        timeline.events.isEmpty ? 16 : radius + Self.terminalOverhang + 4
    }

    /// How far below the axis a timeline's marbles, messages and brackets reach.
    func below(_ timeline: Timeline) -> (marbles: Double, total: Double) {
        let (stack, message) = extent(timeline.events + timeline.dropped)
        var below = timeline.events.isEmpty ? 0 : radius + Self.terminalOverhang + Double(stack - 1) * stackStep
        if message { below += 14 }
        let marbles = below
        if !timeline.spans.isEmpty {
            let rows = (spanRows(timeline.spans).max() ?? 0) + 1
            below += 10 + Double(rows - 1) * 10 + 4
        }
        if !timeline.connections.isEmpty { below += 24 }
        return (marbles, below)
    }

    func height(of lane: Lane, at index: Int) -> Double {
        let ghostRoom = isHighlightBottom(index) ? 14.0 : 0
        switch lane.content {
        case .timeline(let timeline):
            return axisOffset(timeline) + below(timeline).total + 10 + ghostRoom
        case .box(let lines, _, _):
            return Double(boxLines(lines).count) * Self.boxLineHeight + 12 + 12
        case .inner(let instances):
            return 6 + innerDepths(instances).bottom + 12 + ghostRoom
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
        // Width: what the lanes need; the header and the footer wrap to it.
        var right = arrowTip + Self.padding
        if test.outcome != .passed { right = max(right, 2 * Self.padding + 26 + Self.narrowestFooter) }
        for lane in scene.lanes {
            if case .box(let lines, let subscriber, _) = lane.content {
                for line in boxLines(lines) {
                    let text = subscriber ? TextMetrics.sans(line, size: 12) : TextMetrics.monospace(line, size: Self.boxFont)
                    right = max(right, axisStart + text + 16 + Self.padding)
                }
            }
            for event in Self.events(of: lane) {
                if case .failure(let text) = event.event {
                    let message = ValueLabels.failureMessage(text)
                    right = max(right, scale.x(event.frame) + TextMetrics.sans(message, size: 11) / 2 + Self.padding)
                }
            }
            if case .timeline(let timeline) = lane.content, let note = timeline.note {
                right = max(right, (axisStart + axisEnd) / 2 + TextMetrics.sans(note, size: 11) / 2 + Self.padding)
            }
        }
        // A long title may widen a narrow diagram a little rather than wrap into many lines.
        right = max(right, min(2 * Self.padding + TextMetrics.sans(test.name, size: Self.titleFont, bold: true), Self.narrowestTitle))
        // A word of the header too long to wrap (a path) widens the diagram.
        for word in test.name.split(separator: " ") { right = max(right, 2 * Self.padding + TextMetrics.sans(String(word), size: Self.titleFont, bold: true)) }
        for part in subtitle.components(separatedBy: " · ") { right = max(right, 2 * Self.padding + TextMetrics.sans(part, size: Self.subtitleFont)) }
        for entry in legend + marks.map(\.legendEntry) { right = max(right, 2 * Self.padding + Self.legendWidth(entry) - Self.legendGap) }
        let width = right.rounded(.up)
        header = headerLines(width: width)

        // Vertical layout of the lanes.
        tops = []
        var y = Self.padding + headerHeight
        for (index, lane) in scene.lanes.enumerated() {
            tops.append(y)
            y += height(of: lane, at: index)
        }
        let lanesBottom = y
        let rulerY = lanesBottom + (scale.breaks.isEmpty ? 6 : 16)

        let footer = footerLines(width: width)
        var height = rulerY + 24
        let legendRows = Self.legendRows(legend + marks.map(\.legendEntry), width: width)
        if !legendRows.isEmpty { height += 8 + Double(legendRows.count) * 22 }
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
        if !legendRows.isEmpty {
            footerY += 8
            for row in legendRows {
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

    /// The title wrapped at words, then the subtitle wrapped at its ` · ` parts, to the width.
    func headerLines(width: Double) -> (title: [String], subtitle: [String]) {
        let available = width - 2 * Self.padding
        let title = wrap(test.name, width: available, size: Self.titleFont, bold: true)
        var parts = subtitle.components(separatedBy: " · ")
        if let status { parts.append(status) }
        var lines: [String] = []
        for part in parts {
            if let last = lines.last, TextMetrics.sans(last + " · " + part, size: Self.subtitleFont) <= available {
                lines[lines.count - 1] = last + " · " + part
            } else {
                lines += wrap(part, width: available, size: Self.subtitleFont)
            }
        }
        return (title, lines)
    }

    var headerHeight: Double {
        Double(header.title.count) * Self.titleLineHeight + Double(header.subtitle.count) * Self.subtitleLineHeight + 12
    }

    mutating func drawHeader() {
        var y = Self.padding + 15
        for line in header.title {
            writer.element("text", [Attribute("x", Self.padding), Attribute("y", y), Attribute("font-size", Self.titleFont),
                                    Attribute("font-weight", "600"), Attribute("fill", theme.ink)], text: line)
            y += Self.titleLineHeight
        }
        y -= 1
        for line in header.subtitle {
            let attributes = [Attribute("x", Self.padding), Attribute("y", y), Attribute("font-size", Self.subtitleFont), Attribute("fill", theme.muted)]
            if let status, line.hasSuffix(status) {
                let lead = String(line.dropLast(status.count))
                writer.text(attributes, spans: [([], lead), ([Attribute("fill", theme.alert), Attribute("font-weight", "600")], status)])
            } else {
                writer.element("text", attributes, text: line)
            }
            y += Self.subtitleLineHeight
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
            drawTimeline(timeline, lane: lane, axisY: top + axisOffset(timeline))
            writer.close("g")
        case .box(let lines, let subscriber, let taps):
            drawBox(boxLines(lines), subscriber: subscriber, taps: taps, top: top)
        case .inner(let instances):
            writer.open("g", [Attribute("class", "inner")])
            drawInner(instances, lane: lane, top: top)
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
        // A subscriber that cancelled sees nothing after its `!`: its arrow stops there (or at
        // the last event, when Combine still delivers after a cancel, as `delay` does).
        let end = timeline.cancelledAt.map { cancel in scale.x(max(cancel, timeline.events.map(\.frame).max() ?? cancel)) } ?? axisEnd
        var line = [Attribute("class", "axis"), Attribute("x1", axisStart), Attribute("y1", axisY), Attribute("x2", end), Attribute("y2", axisY),
                    Attribute("stroke", colour), Attribute("stroke-width", Self.arrowStroke)]
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
            writer.element("text", [Attribute("x", (axisStart + axisEnd) / 2), Attribute("y", axisY - 7), Attribute("text-anchor", "middle"),
                                    Attribute("font-size", "11"), Attribute("font-style", "italic"), Attribute("fill", theme.muted)], text: note)
        }
        drawEvents(timeline.events, ghost: timeline.ghost, dropped: timeline.dropped) { _ in axisY }
        for cut in timeline.cuts { drawCut(x: scale.x(cut), y: axisY, frame: cut) }
        let extent = below(timeline)
        if !timeline.spans.isEmpty {
            drawSpans(timeline.spans, rows: spanRows(timeline.spans), y: axisY + extent.marbles + 10, ghost: false)
        }
        if !timeline.connections.isEmpty { drawConnections(timeline.connections, y: axisY + extent.total - 16) }
    }

    mutating func drawArrowhead(x: Double, y: Double, colour: String) {
        writer.element("path", [Attribute("d", "M\(SVG.number(x)) \(SVG.number(y - 4.5))L\(SVG.number(x + 9)) \(SVG.number(y))L\(SVG.number(x)) \(SVG.number(y + 4.5))Z"),
                                Attribute("fill", colour)])
    }

    /// An axis break: the line interrupted by two parallel slashes.
    mutating func drawBreak(_ item: TimeScale.Break, y: Double, colour: String) {
        drawBreakSlashes(x: (scale.x(item.from) + scale.x(item.to)) / 2, y: y, colour: colour,
                         title: "\(time(item.to - item.from)) without events, squeezed (\(when(item.from)) to \(when(item.to)))")
    }

    mutating func drawBreakSlashes(x cx: Double, y: Double, colour: String, title: String? = nil) {
        let gap = "M\(SVG.number(cx - 6)) \(SVG.number(y + 7))L\(SVG.number(cx)) \(SVG.number(y - 7))L\(SVG.number(cx + 6)) \(SVG.number(y - 7))L\(SVG.number(cx)) \(SVG.number(y + 7))Z"
        writer.element("path", [Attribute("d", gap), Attribute("fill", backgroundFill)])
        let slashes = "M\(SVG.number(cx - 6)) \(SVG.number(y + 7))L\(SVG.number(cx)) \(SVG.number(y - 7))M\(SVG.number(cx)) \(SVG.number(y + 7))L\(SVG.number(cx + 6)) \(SVG.number(y - 7))"
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
        case .inner: return tops[index] + 6
        case .requests: return tops[index] + 16
        case .box, .expectedSpans: return nil
        }
    }

    /// Lines from inputs drawn further up down to the box that reads them, in the gutter left
    /// of the arrows: a fan-out reads as a fan-out, not as a chain through the lanes between.
    mutating func drawTaps(_ taps: [Int], boxTop: Double, boxHeight: Double) {
        for (ordinal, tap) in taps.enumerated() {
            guard let fromY = axisY(ofLane: tap) else { continue }
            let x = axisStart - 4 - 5 * Double(ordinal)
            let toY = boxTop + min(boxHeight / 2, 12) + 4 * Double(ordinal)
            writer.element("path", [Attribute("class", "tap"), Attribute("d", "M\(SVG.number(axisStart)) \(SVG.number(fromY))H\(SVG.number(x))V\(SVG.number(toY))H\(SVG.number(axisStart))"),
                                    Attribute("fill", "none"), Attribute("stroke", theme.muted), Attribute("stroke-width", "1.25")],
                           title: "\(scene.lanes[tap].label ?? "input") is read here too")
        }
    }

    mutating func drawBox(_ lines: [String], subscriber: Bool, taps: [Int], top: Double) {
        let boxTop = top + 6
        let boxHeight = Double(lines.count) * Self.boxLineHeight + 12
        let longest = lines.map { subscriber ? TextMetrics.sans($0, size: 12) : TextMetrics.monospace($0, size: Self.boxFont) }.max() ?? 0
        let boxRight = max(arrowTip, axisStart + longest + 16)
        drawTaps(taps, boxTop: boxTop, boxHeight: boxHeight)
        writer.open("g", [Attribute("class", subscriber ? "box subscriber" : "box")])
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
        writer.close("g")
    }

    /// Inner arrows: each subscription drops from the top of the band at its frame to a row of
    /// its own and runs along it until it ends (a slash where it was cancelled). The paths go
    /// first, then the marks, so no line crosses a marble.
    mutating func drawInner(_ instances: [Instance], lane: Lane, top: Double) {
        let originY = top + 6
        let depths = innerDepths(instances).rows
        drawLabel(lane, axisY: originY + innerKnee, ghost: false)
        for (index, instance) in instances.enumerated() {
            let levelY = originY + depths[index]
            let startX = scale.x(instance.start)
            let endX = max(startX, innerEnd(instance))
            var title = "\(lane.label ?? "inner") subscribed at \(when(instance.start))"
            switch instance.ending {
            case .cancelled: title += ", cancelled at \(when(instance.end ?? instance.start))"
            case .terminated: if let end = instance.end { title += ", ended at \(when(end))" }
            case .open: title += ", still subscribed when the run stopped"
            }
            writer.open("g", [Attribute("class", "instance"), Attribute("data-row", index)])
            writer.element("title", text: title)
            let d = "M\(SVG.number(startX)) \(SVG.number(originY))V\(SVG.number(levelY))H\(SVG.number(endX))"
            writer.element("path", [Attribute("class", "axis"), Attribute("d", d), Attribute("fill", "none"), Attribute("stroke", theme.ink),
                                    Attribute("stroke-width", Self.arrowStroke), Attribute("stroke-linejoin", "round")])
            if instance.ending == .open { drawArrowhead(x: endX, y: levelY, colour: theme.ink) }
            writer.element("circle", [Attribute("cx", startX), Attribute("cy", originY), Attribute("r", "3"), Attribute("fill", theme.ink)])
            writer.close("g")
        }
        // Marks after every arrow: a later subscription's drop never crosses an earlier one's marks.
        for (index, instance) in instances.enumerated() {
            let levelY = originY + depths[index]
            writer.open("g", [Attribute("class", "instance-marks"), Attribute("data-row", index)])
            haloMarks = true
            defer { haloMarks = false }
            drawEvents(instance.events, ghost: false) { _ in levelY }
            if instance.ending == .cancelled, let end = instance.end {
                drawCut(x: scale.x(end), y: levelY, frame: end)
            }
            writer.close("g")
        }
    }

    /// A cancellation: a slanted stroke across the arrow where it was cut (a slash, so that it
    /// differs from a completion's upright bar without its colour).
    mutating func drawCut(x: Double, y: Double, frame: Int) {
        drawCancel(x: x, y: y, half: 9, frame: frame)
    }

    mutating func drawCancel(x: Double, y: Double, half: Double, frame: Int?) {
        let lean = half * 0.55
        let d = Attribute("d", "M\(SVG.number(x - lean)) \(SVG.number(y + half))L\(SVG.number(x + lean)) \(SVG.number(y - half))")
        if haloMarks { writer.element("path", [d] + halo) }
        var attributes = [Attribute("class", "cancel")]
        if let frame { attributes.append(Attribute("data-frame", frame)) }
        attributes += [d, Attribute("stroke", theme.cancel), Attribute("stroke-width", Self.markStroke), Attribute("stroke-linecap", "round")]
        writer.element("path", attributes, title: frame.map { "cancelled at \(when($0))" })
    }

    /// A `connect`: a small plug (a diamond) on the arrow.
    mutating func drawConnectMark(x: Double, y: Double) {
        let d = "M\(SVG.number(x)) \(SVG.number(y - 6))L\(SVG.number(x + 6)) \(SVG.number(y))L\(SVG.number(x)) \(SVG.number(y + 6))L\(SVG.number(x - 6)) \(SVG.number(y))Z"
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
            if let end = span.end { drawCancel(x: scale.x(end), y: y, half: 6, frame: nil) }
            writer.element("text", [Attribute("x", startX + 9), Attribute("y", y + 13), Attribute("font-size", "10"), Attribute("fill", theme.span)],
                           text: "connect")
            writer.close("g")
        }
    }

    // MARK: Events

    /// Draws events grouped by frame, all at the frame's x: values stacked downwards in order;
    /// a completion or failure at the same frame is drawn behind the first marble, bigger than
    /// it, so that marks of one frame line up across lanes. `axis` gives the y of the arrow.
    mutating func drawEvents(_ events: [RenderedEvent], ghost: Bool, dropped: [RenderedEvent] = [], axis: (Int) -> Double) {
        var frames: [(frame: Int, events: [PrintableEvent], dropped: [Bool])] = []
        let all = events.map { ($0, false) } + dropped.map { ($0, true) }
        for (event, isDropped) in all.enumerated().sorted(by: { ($0.element.0.frame, $0.offset) < ($1.element.0.frame, $1.offset) }).map(\.element) {
            if let last = frames.last, last.frame == event.frame {
                frames[frames.count - 1].events.append(event.event)
                frames[frames.count - 1].dropped.append(isDropped)
            } else {
                frames.append((event.frame, [event.event], [isDropped]))
            }
        }
        let rooms = rooms(events + dropped)
        for entry in frames {
            let x = scale.x(entry.frame)
            let y = axis(entry.frame)
            let values = zip(entry.events, entry.dropped).compactMap { event, isDropped -> (token: String, dropped: Bool)? in
                if case .value(let token) = event { return (token, isDropped) } else { return nil }
            }
            let room = rooms[entry.frame] ?? .infinity
            let half = values.isEmpty ? radius : radius + Self.terminalOverhang
            for event in entry.events {
                switch event {
                case .finished:
                    drawFinish(x: x, y: y, half: half, ghost: ghost, frame: entry.frame)
                case .failure(let text):
                    let message = ValueLabels.failureMessage(text)
                    writer.open("g", [Attribute("class", "failure"), Attribute("data-frame", entry.frame)])
                    writer.element("title", text: "failed with \"\(message)\" at \(when(entry.frame))")
                    drawCross(x: x, y: y, arm: values.isEmpty ? min(7.5, radius * 0.55) : half * 0.8, ghost: ghost)
                    if message != "error" {
                        let stack = Double(max(values.count, 1) - 1) * stackStep
                        writer.element("text", [Attribute("x", x), Attribute("y", y + half + stack + 12), Attribute("text-anchor", "middle"),
                                                Attribute("font-size", "11"), Attribute("font-style", "italic"), Attribute("fill", theme.muted)], text: message)
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
                drawValue(value.token, x: x, y: y + Double(index) * stackStep, room: room, frame: entry.frame, ghost: ghost || value.dropped,
                          dropped: value.dropped)
            }
        }
    }

    /// How far a completion or failure drawn behind a marble reaches beyond it, up and down.
    static let terminalOverhang = 6.0

    /// A completion: a bar across the arrow.
    mutating func drawFinish(x: Double, y: Double, half: Double, ghost: Bool, frame: Int?) {
        var attributes = [Attribute("class", "finish")]
        if let frame { attributes.append(Attribute("data-frame", frame)) }
        let ends = [Attribute("x1", x), Attribute("y1", y - half), Attribute("x2", x), Attribute("y2", y + half)]
        if haloMarks { writer.element("line", ends + halo) }
        attributes += ends + [Attribute("stroke", ghost ? theme.muted : theme.ink), Attribute("stroke-width", Self.markStroke),
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
        writer.element("path", [Attribute("d", d), Attribute("stroke", ghost ? theme.muted : theme.ink), Attribute("stroke-width", Self.markStroke),
                                Attribute("stroke-linecap", "round")] + dashes(ghost))
    }

    var halo: [Attribute] {
        [Attribute("stroke", backgroundFill), Attribute("stroke-width", Self.markStroke + 4), Attribute("stroke-linecap", "round"), Attribute("fill", "none")]
    }

    func dashes(_ ghost: Bool) -> [Attribute] {
        ghost ? [Attribute("stroke-dasharray", "3 3")] : []
    }

    /// A value marble: a circle, or a pill when the label is longer than the circle. Returns its
    /// width. An expected (ghost) marble is drawn on an opaque disc so that the dashed arrow
    /// does not strike through its label.
    @discardableResult
    mutating func drawValue(_ token: String, x: Double, y: Double, room: Double, frame: Int, ghost: Bool, dropped: Bool = false) -> Double {
        let label = fitted(labels.label(token), room: room)
        let textWidth = TextMetrics.monospace(label, size: valueFont)
        let width = max(2 * radius, textWidth + 12)
        let fill = colour(labels.key(token))
        writer.open("g", [Attribute("class", dropped ? "value dropped" : ghost ? "value expected" : "value"), Attribute("data-frame", frame)])
        writer.element("title", text: dropped ? "\(labels.tooltip(token)) sent at \(when(frame)), dropped: the subscriber had no demand"
                                              : "\(labels.tooltip(token)) at \(when(frame))")
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
        let demandLane = lane.label == "demand"
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
            writer.open("g", [Attribute("class", "request"), Attribute("data-frame", event.frame)])
            writer.element("title", text: demandLane ? title.replacingOccurrences(of: "requested", with: "the test's subscriber requested") : title)
            drawBadge(text, x: scale.x(event.frame), y: y + Double(row) * 20, ghost: ghost, demand: demandLane)
            writer.close("g")
        }
    }

    /// A demand badge: outlined for what a source was asked, filled for what the test's
    /// subscriber asked (so the two differ in greyscale too).
    mutating func drawBadge(_ text: String, x: Double, y: Double, ghost: Bool, demand: Bool) {
        let width = max(18, TextMetrics.monospace(text, size: 11) + 10)
        let colour = ghost ? theme.muted : theme.span
        writer.element("rect", [Attribute("x", x - width / 2), Attribute("y", y - 8), Attribute("width", width), Attribute("height", "16"),
                                Attribute("rx", demand ? "8" : "3"), Attribute("fill", demand && !ghost ? colour : theme.background),
                                Attribute("stroke", colour), Attribute("stroke-width", "1.25")] + dashes(ghost))
        writer.element("text", [Attribute("x", x), Attribute("y", y + 4), Attribute("text-anchor", "middle"),
                                Attribute("font-family", TextMetrics.monospaceFamily), Attribute("font-size", "11"),
                                Attribute("fill", demand && !ghost ? theme.background : colour)], text: text)
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
                if span.cancelled && !ghost {
                    drawCancel(x: endX, y: rowY, half: 5, frame: nil)
                } else {
                    writer.element("line", [Attribute("x1", endX), Attribute("y1", rowY - 4.5), Attribute("x2", endX), Attribute("y2", rowY + 4.5),
                                            Attribute("stroke", colour), Attribute("stroke-width", "2.5"), Attribute("stroke-linecap", "round")])
                }
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
            let width = highlightWidth(highlight, frame: item.frame)
            writer.element("rect", [Attribute("class", "highlight"), Attribute("x", x - width / 2), Attribute("y", bounds.top), Attribute("width", width),
                                    Attribute("height", bounds.bottom - bounds.top), Attribute("rx", "3"), Attribute("fill", theme.alertFill),
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
                widest = max(widest, max(2 * radius, TextMetrics.monospace(label, size: valueFont) + 12) + 8)
            }
        }
        return widest
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
            case .box(let lines, let subscriber, _):
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
