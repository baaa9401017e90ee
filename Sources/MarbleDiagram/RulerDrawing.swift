import MarbleNotation
import MarbleReport

/// The time ruler under the lanes.
extension Renderer {
    // MARK: Ruler

    mutating func drawRuler(y: Double) {
        let left = scale.x(scale.firstFrame) - Layout.rulerOverhang * frameWidth
        let right = scale.x(scale.lastFrame) + Layout.rulerOverhang * frameWidth
        writer.open("g", [Attribute("class", "time"), Attribute("fill", theme.muted), Attribute("font-size", Layout.rulerFont)])
        writer.element("line", [Attribute("x1", left), Attribute("y1", y), Attribute("x2", right), Attribute("y2", y),
                                Attribute("stroke", theme.grid), Attribute("stroke-width", "1")])
        // Minor ticks at every frame wide enough to show one.
        let segments = visibleSegments()
        if frameWidth >= Layout.narrowestTickedFrame, segments.reduce(0, { $0 + $1.count }) <= Layout.mostMinorTicks {
            var d = ""
            for segment in segments {
                for frame in segment {
                    d += "M\(SVG.number(scale.x(frame))) \(SVG.number(y))v\(SVG.number(Layout.minorTickLength))"
                }
            }
            if !d.isEmpty { writer.element("path", [Attribute("d", d), Attribute("stroke", theme.grid), Attribute("stroke-width", "1")]) }
        }
        for item in scale.breaks {
            drawBreak(item, y: y, colour: theme.grid)
            writer.element("text", [Attribute("x", (scale.x(item.from) + scale.x(item.to)) / 2), Attribute("y", y - Layout.breakLabelRaise), Attribute("text-anchor", "middle"),
                                    Attribute("font-style", "italic")], text: "+" + time(item.to - item.from))
        }
        for frame in rulerLabels() {
            let x = scale.x(frame)
            writer.element("line", [Attribute("x1", x), Attribute("y1", y), Attribute("x2", x), Attribute("y2", y + Layout.majorTickLength),
                                    Attribute("stroke", theme.muted), Attribute("stroke-width", "1")])
            writer.element("text", [Attribute("x", x), Attribute("y", y + Layout.rulerLabelBaseline), Attribute("text-anchor", "middle")], text: time(frame))
        }
        writer.close("g")
    }

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
        let step = Layout.rulerSteps.first { Double($0) * frameWidth >= Layout.rulerLabelSpacing } ?? Layout.rulerSteps[Layout.rulerSteps.count - 1]
        var candidates: [Int] = []
        if scale.firstFrame <= 0 { candidates.append(0) }
        candidates.append(scale.firstFrame)
        candidates += scale.breaks.map(\.to)
        for segment in visibleSegments() where candidates.count < Layout.mostRulerCandidates {
            var frame = Int((Double(segment.lowerBound) / Double(step)).rounded(.up)) * step
            while frame <= segment.upperBound, candidates.count < Layout.mostRulerCandidates {
                candidates.append(frame)
                frame += step
            }
        }
        var placed: [(frame: Int, left: Double, right: Double)] = []
        for frame in candidates where scale.breakContaining(frame) == nil {
            guard !placed.contains(where: { $0.frame == frame }) else { continue }
            let x = scale.x(frame)
            let half = TextMetrics.sans(time(frame), size: Layout.rulerFont) / 2 + Layout.rulerLabelMargin
            let collides = placed.contains { x - half < $0.right && x + half > $0.left }
            let nearBreak = scale.breaks.contains { abs((scale.x($0.from) + scale.x($0.to)) / 2 - x) < half + Layout.rulerLabelGap }
            if !collides && !nearBreak { placed.append((frame, x - half, x + half)) }
        }
        return placed.map(\.frame).sorted()
    }
}
