/// An event as the printer writes it. Values arrive already rendered (`a` or `{42}`).
public enum PrintableEvent: Hashable, Sendable {
    /// Already-rendered token text: `"a"` or `"{42}"`.
    case value(String)
    /// `|`
    case finished
    /// `nil` → `#`, else `#` followed by the text (e.g. `{"boom"}` → `#{"boom"}`).
    case failure(String?)
    /// `^`
    case subscribe
    /// `!`
    case cancel
    /// A digit for `.max(0)`…`.max(9)`, `{n}` for larger counts, `*` for `.unlimited`.
    case request(DemandRequest)

    /// The marble text of this event.
    public var text: String {
        switch self {
        case .value(let text): return text
        case .finished: return "|"
        case .failure(let text): return "#" + (text ?? "")
        case .subscribe: return "^"
        case .cancel: return "!"
        case .request(.unlimited): return "*"
        case .request(.max(let count)): return (0...9).contains(count) ? String(count) : "{\(count)}"
        }
    }
}

/// Turns timed events back into canonical marble text.
public enum MarblePrinter {
    /// One cell per frame in `frames`: `-` for an empty frame, the event's text for one event,
    /// `(…)` for several, in the order given. Events outside `frames` are ignored.
    public static func cells(_ events: [(frame: Int, event: PrintableEvent)], frames: Range<Int>) -> [String] {
        guard !frames.isEmpty else { return [] }
        var buckets = [[String]](repeating: [], count: frames.count)
        for item in events where frames.contains(item.frame) {
            buckets[item.frame - frames.lowerBound].append(item.event.text)
        }
        return buckets.map(cell)
    }

    /// Canonical marble text for `events`, from frame 0 (or the earliest negative frame)
    /// through `lastFrame` (or the last event's frame, whichever is later).
    ///
    /// - When events exist at negative frames, frame 0 is marked with `^` — as the first member of
    ///   a group if frame 0 also has events, e.g. `(^a)` — so that parsing the output as a
    ///   hot/expect line gives the same events at the same frames.
    /// - Empty stretches longer than `compressingGapsLongerThan` frames (if non-nil) are written
    ///   as a time progression with spaces around it, e.g. ` 1000ms `, in the largest of
    ///   `s`/`ms`/`us`/`ns` that expresses one frame exactly. Spaces at the very start or end are
    ///   left out.
    /// - A run of single-character values that would read as a time progression (`1s`, `5m`)
    ///   gets its first value written as a one-member group (`(1)s`), which means the same;
    ///   likewise a bare `#` directly followed by a `{literal}` value is written `(#)`, or
    ///   followed by a space inside a group (`(# {1})`), so it does not read as `#{literal}`.
    public static func render(
        _ events: [(frame: Int, event: PrintableEvent)],
        through lastFrame: Int? = nil,
        frameNanoseconds: Int64 = 1_000_000,
        compressingGapsLongerThan: Int? = nil
    ) -> String {
        // Stable order by frame, then one entry per frame.
        let ordered = events.enumerated().sorted { lhs, rhs in
            lhs.element.frame != rhs.element.frame ? lhs.element.frame < rhs.element.frame : lhs.offset < rhs.offset
        }
        var frames: [(frame: Int, texts: [String])] = []
        // A frame's texts are gathered apart and stored once: appending through `frames[i]`
        // copied the array each time in a debug build (100,000 values at one frame: minutes).
        var current: (frame: Int, texts: [String])?
        for item in ordered {
            if current?.frame == item.element.frame {
                current?.texts.append(item.element.event.text)
            } else {
                if let current { frames.append(current) }
                current = (item.element.frame, [item.element.event.text])
            }
        }
        if let current { frames.append(current) }
        if let first = frames.first, first.frame < 0 {
            if let zero = frames.firstIndex(where: { $0.frame >= 0 }), frames[zero].frame == 0 {
                frames[zero].texts.insert("^", at: 0)
            } else {
                let position = frames.firstIndex(where: { $0.frame > 0 }) ?? frames.count
                frames.insert((0, ["^"]), at: position)
            }
        }

        let start = Swift.min(0, frames.first?.frame ?? 0)
        let end = Swift.max(frames.last?.frame ?? Int.min, lastFrame ?? Int.min)
        guard end >= start else { return "" }

        var builder = Builder(frameNanoseconds: frameNanoseconds, compressingGapsLongerThan: compressingGapsLongerThan)
        // Frames lie within virtual time (`VirtualTimeEnd`); the gaps saturate anyway, so that
        // events placed otherwise are printed, not trapped on.
        func span(from first: Int, before next: Int) -> Int {
            let (count, overflow) = next.subtractingReportingOverflow(first)
            return overflow ? .max : count
        }
        var cursor = start
        for entry in frames {
            builder.gap(span(from: cursor, before: entry.frame))
            builder.cell(cell(entry.texts))
            cursor = entry.frame == .max ? .max : entry.frame + 1
        }
        if end >= cursor { builder.gap(end == .max ? span(from: cursor, before: end) : span(from: cursor, before: end + 1)) }
        return builder.finish()
    }

    static func cell(_ texts: [String]) -> String {
        switch texts.count {
        case 0: return "-"
        case 1: return texts[0]
        default:
            var group = "("
            for (position, text) in texts.enumerated() {
                // Inside a group, a space keeps a bare '#' and a following literal apart.
                if position > 0, texts[position - 1] == "#", text.hasPrefix("{") { group += " " }
                group += text
            }
            return group + ")"
        }
    }

    /// Accumulates segments of cells separated by time progressions.
    struct Builder {
        let frameNanoseconds: Int64
        let compressingGapsLongerThan: Int?
        var output = ""
        var segment = ""
        var segmentFirstCell = ""
        /// The last cell appended to `segment` ("" after a gap or at a segment start).
        var lastCell = ""
        var spaceBeforeSegment = false

        init(frameNanoseconds: Int64, compressingGapsLongerThan: Int?) {
            self.frameNanoseconds = frameNanoseconds
            self.compressingGapsLongerThan = compressingGapsLongerThan
        }

        mutating func cell(_ text: String) {
            if segment.isEmpty { segmentFirstCell = text }
            // A bare '#' right before a literal would read as `#{…}`, a failure with that literal:
            // write it as the one-member group `(#)`, which means the same.
            if lastCell == "#", text.hasPrefix("{") {
                segment.removeLast()
                segment += "(#)"
            }
            segment += text
            lastCell = text
        }

        mutating func gap(_ frames: Int) {
            guard frames > 0 else { return }
            lastCell = ""
            if let limit = compressingGapsLongerThan, frames > limit, frameNanoseconds > 0 {
                progression(frames)
            } else {
                if segment.isEmpty { segmentFirstCell = "-" }
                segment += String(repeating: "-", count: frames)
            }
        }

        mutating func progression(_ frames: Int) {
            flushSegment()
            let unit = MarbleDuration.largestExactUnit(for: frameNanoseconds)
            let unitsPerFrame = frameNanoseconds / unit.nanoseconds
            // Each progression must fit in Int64 nanoseconds, or it could not be parsed back.
            let framesPerChunk = Int64.max / frameNanoseconds
            var remaining = Int64(frames)
            while remaining > 0 {
                let chunk = Swift.min(remaining, framesPerChunk)
                if !output.isEmpty { output += " " }
                output += "\(chunk * unitsPerFrame)\(unit.suffix)"
                remaining -= chunk
            }
            spaceBeforeSegment = true
        }

        mutating func flushSegment() {
            guard !segment.isEmpty else { return }
            if segment.first?.asciiDigitValue != nil {
                let characters = IndexedText(segment)
                if let match = MarbleDuration.match(characters, from: 0), match.end == characters.count {
                    segment = "(" + segmentFirstCell + ")" + segment.dropFirst(segmentFirstCell.count)
                }
            }
            if spaceBeforeSegment { output += " " }
            output += segment
            segment = ""
            lastCell = ""
            spaceBeforeSegment = false
        }

        mutating func finish() -> String {
            flushSegment()
            return output
        }
    }
}
