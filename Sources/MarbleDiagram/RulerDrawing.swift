import MarbleNotation
import MarbleReport

/// The time ruler under the lanes.
extension Renderer {
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
}
