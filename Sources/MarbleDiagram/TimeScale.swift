/// Frames to x positions: to scale, except that long stretches in which nothing happens on
/// any lane are squeezed into one frame's width and marked.
struct TimeScale {
    /// A stretch drawn squeezed: frames `from`…`to` take `width` instead of `(to - from) × frameWidth`.
    struct Break: Equatable {
        var from: Int
        var to: Int
    }

    /// x of `firstFrame`.
    var origin: Double
    var frameWidth: Double
    var firstFrame: Int
    var lastFrame: Int
    var breaks: [Break]

    /// Empty frames in a row before a stretch is squeezed.
    static let longestDrawnGap = 12
    /// Frames kept to scale on either side of a squeezed stretch.
    static let context = 2

    init(origin: Double, frameWidth: Double, firstFrame: Int, lastFrame: Int, breaks: [Break]) {
        self.origin = origin
        self.frameWidth = frameWidth
        self.firstFrame = firstFrame
        self.lastFrame = lastFrame
        self.breaks = breaks
    }

    /// The squeezed stretches for a set of frames where something happens.
    static func breaks(busyFrames: [Int], firstFrame: Int, lastFrame: Int, compress: Bool) -> [Break] {
        guard compress else { return [] }
        let frames = Array(Set(busyFrames + [firstFrame, lastFrame]).filter { $0 >= firstFrame && $0 <= lastFrame }).sorted()
        var result: [Break] = []
        for (a, b) in zip(frames, frames.dropFirst()) where b - a - 1 > longestDrawnGap {
            result.append(Break(from: a + context, to: b - context))
        }
        return result
    }

    /// Width of a squeezed stretch.
    var breakWidth: Double { frameWidth }

    /// How many frame widths the axis spans from `firstFrame` to `lastFrame`.
    var span: Double { position(Double(lastFrame)) }

    /// x of a frame (fractional frames allowed, e.g. for arrow ends).
    func x(_ frame: Double) -> Double {
        origin + position(frame) * frameWidth
    }

    func x(_ frame: Int) -> Double { x(Double(frame)) }

    /// Position in frame widths from `firstFrame`.
    private func position(_ frame: Double) -> Double {
        var position = frame - Double(firstFrame)
        for item in breaks {
            let from = Double(item.from)
            let to = Double(item.to)
            if frame <= from { break }
            let squeezed = breakWidth / frameWidth
            if frame >= to {
                position -= (to - from) - squeezed
            } else {
                position -= (frame - from) - (frame - from) / (to - from) * squeezed
            }
        }
        return position
    }

    /// The break a frame falls strictly inside, if any.
    func breakContaining(_ frame: Int) -> Break? {
        breaks.first { $0.from < frame && frame < $0.to }
    }
}
