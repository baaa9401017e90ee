/// Whose rules read a marble string.
public enum MarbleDialect: String, Sendable, Hashable, CaseIterable {
    /// This project's notation (docs/language.md, "Marbles").
    case native
    /// RxJS's `TestScheduler` inside `run()` ("run mode", RxJS 7's `parseMarbles` and
    /// `parseMarblesAsSubscriptions` with `runMode` true): spaces are ignored, a group takes as
    /// many frames as its characters, a time progression stands after a space (or first) and
    /// before a space.
    case rxjs
    /// RxJS's `TestScheduler` outside `run()` ("legacy mode", RxJS 6's default): a space is a
    /// frame, there are no time progressions.
    case rxjsLegacy = "rxjs-legacy"

    /// The word a `notation` line names it by.
    public var name: String { rawValue }
}

/// Reads one marble string with RxJS's `TestScheduler` rules (`MarbleDialect.rxjs` and
/// `.rxjsLegacy`). The facts are RxJS's (`TestScheduler.parseMarbles` and
/// `parseMarblesAsSubscriptions`, 7.x and 6.x):
///
/// - every character is read on its own (a Unicode scalar, as RxJS 7 iterates code points):
///   `-` is a frame, `|` completes, `#` fails with the default error, `(` starts a group whose
///   events all stand at the `(`'s frame (unless that frame is negative: RxJS's "no group" is
///   -1, so a group before `^` does not group), `)` ends it, and each of them takes a frame; `^` takes
///   a frame; any other character is a value (`{`, `}`, `/`, a tab …); a space is a frame in
///   legacy mode and nothing in run mode;
/// - frame 0 is the first `^`: the characters before it count, spaces included, in both modes
///   (leading spaces excepted in run mode), so a line's first character stands at minus that;
///   a second `^` is only a frame;
/// - in run mode a time progression (`10ms`, `1.5s`, `2m`) is recognised where a digit is the
///   first character or follows a space, and only when a space follows the unit;
/// - `^` on a cold line, `!` on any line but a subscription line, a second `^` or `!` and any
///   character other than `^ ! - ( ) space` and time progressions on a subscription line are
///   RxJS's errors; events after `|` or `#` are accepted, as RxJS accepts them;
/// - a subscription line gives `^` (subscribed) and `!` (unsubscribed, which takes no frame)
///   at the frame they stand at, or at their group's frame; without `^` it has no `.subscribe`
///   event (what that means is the line's: RxJS's `expectObservable` subscribes at 0, its
///   `expectSubscriptions` drops the line).
///
/// Where RxJS gives an answer this project cannot hold, the line is refused with the reason:
/// a time progression that is not a whole number of frames (RxJS would count fractional frames),
/// `!` before `^` on a subscription line (a subscription that ends before it starts).
/// `demand` lines have no RxJS counterpart: they count frames as the other lines do, with a digit
/// or `*` a request and `{n}` one request taking as many frames as its characters.
struct RxJSMarbleScanner {
    let kind: MarbleLineKind
    let runMode: Bool
    let frameNanoseconds: Int64
    /// The string's Unicode scalars, and the `Character` offset each belongs to (error columns
    /// and token offsets count characters).
    var scalars: [Unicode.Scalar] = []
    var offsets: [Int] = []
    var events: [TimedMarbleEvent] = []

    init(text: String, kind: MarbleLineKind, dialect: MarbleDialect, frameNanoseconds: Int64) {
        self.kind = kind
        runMode = dialect == .rxjs
        self.frameNanoseconds = frameNanoseconds
        scalars.reserveCapacity(text.utf8.count)
        offsets.reserveCapacity(text.utf8.count)
        for (offset, character) in text.enumerated() {
            for scalar in character.unicodeScalars {
                scalars.append(scalar)
                offsets.append(offset)
            }
        }
    }

    static let space: Unicode.Scalar = " "

    /// The events, or RxJS's error. `sink` receives each event as it is read (its frame counted
    /// from the first character, as `MarbleParser.parse(_:as:each:)` promises).
    mutating func run(_ sink: ((TimedMarbleEvent) -> Void)?) throws(MarbleSyntaxError) -> ParsedMarbles {
        switch kind {
        case .subscription: return try subscription()
        case .hot, .cold, .expect, .demand: return try timeline(sink)
        }
    }

    // MARK: - Lines of events (parseMarbles)

    mutating func timeline(_ sink: ((TimedMarbleEvent) -> Void)?) throws(MarbleSyntaxError) -> ParsedMarbles {
        try refuseMarkers()
        // Frame 0 is the first '^': everything before it counts, in UTF-16 units as RxJS's
        // `indexOf` does; run mode leaves out the leading spaces.
        var zeroOffset: Int?
        var firstFrame = 0
        if kind != .demand, let caret = scalars.firstIndex(of: "^") {
            var units = 0
            var position = 0
            if runMode { while position < caret, scalars[position] == Self.space { position += 1 } }
            while position < caret { units += scalars[position].utf16.count; position += 1 }
            firstFrame = -units
            zeroOffset = offsets[caret]
        }
        var frame = firstFrame
        var groupStart: Int?
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            var next = frame + 1
            var event: MarbleEvent?
            switch scalar {
            case " ":
                if runMode { next = frame }
            case "^" where kind == .demand:
                throw MarbleSyntaxError(message: "'^' is not allowed in a demand line", offset: offsets[index],
                                        hint: "use a digit, {n} or *; a `subscribe` line sets when the subscriber attaches")
            case "-", "^":
                break
            case "(":
                groupStart = frame
            case ")":
                groupStart = nil
            case "|" where kind != .demand:
                event = .finished
            case "#" where kind != .demand:
                event = .failure(nil)
            default:
                if let frames = try progression(at: index) {
                    next = try advance(frame, by: frames.frames, at: index)
                    index = frames.end - 1
                } else if kind == .demand {
                    let (request, end) = try demandRequest(at: index)
                    event = request
                    next = try advance(frame, by: end - index, at: index)
                    index = end - 1
                } else {
                    event = .value(ValueToken(form: .name(Character(scalar)), offset: offsets[index]))
                }
            }
            if let event {
                // RxJS marks "no group" with -1 and tests `groupStart > -1`: a group opened at a
                // negative frame (before `^`) does not hold its events together.
                let timed = TimedMarbleEvent(frame: groupStart.flatMap { $0 >= 0 ? $0 : nil } ?? frame, event: event, offset: offsets[index])
                if let sink {
                    sink(TimedMarbleEvent(frame: timed.frame - firstFrame, event: timed.event, offset: timed.offset))
                } else {
                    events.append(timed)
                }
            }
            frame = next
            index += 1
        }
        return ParsedMarbles(events: events, zeroOffset: zeroOffset, firstFrame: firstFrame, endFrame: frame)
    }

    /// RxJS's refusals before it reads a line: `^` on a cold line, `!` on any line of events.
    func refuseMarkers() throws(MarbleSyntaxError) {
        if kind == .cold, let caret = scalars.firstIndex(of: "^") {
            throw MarbleSyntaxError(
                message: "RxJS refuses '^' in a cold marble string: a cold observable has no subscription offset; it starts at each subscription",
                offset: offsets[caret], hint: "remove '^'; frame 0 of a cold line is its first character")
        }
        if let bang = scalars.firstIndex(of: "!") {
            let what = switch kind {
            case .hot: "RxJS refuses '!' in a hot marble string: a hot observable has no unsubscription marker"
            case .cold: "RxJS refuses '!' in a cold marble string: a cold observable has no unsubscription marker"
            case .demand: "'!' is not allowed in a demand line"
            default: "RxJS refuses '!' in an expected marble string: only a subscription marble string has an unsubscription marker"
            }
            throw MarbleSyntaxError(
                message: what, offset: offsets[bang],
                hint: kind == .demand ? "use a digit, {n} or *" : "cancel with a `subscribe NAME` line (RxJS's expectObservable(result, '^--!'))")
        }
    }

    /// A demand line's request at `index`: a digit, `*` or `{n}`, and where it ends.
    func demandRequest(at index: Int) throws(MarbleSyntaxError) -> (MarbleEvent, Int) {
        let scalar = scalars[index]
        if Self.isDigit(scalar) { return (.request(.max(Int(scalar.value) - 48)), index + 1) }
        if scalar == "*" { return (.request(.unlimited), index + 1) }
        if scalar == "{", let close = scalars[(index + 1)...].firstIndex(of: "}") {
            let content = String(String.UnicodeScalarView(scalars[(index + 1)..<close])).trimmingCharacters(inSpaces: ())
            guard !content.isEmpty, content.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(content) else {
                throw MarbleSyntaxError(
                    message: "a demand must be a non-negative whole number, not {\(abbreviated(content))}", offset: offsets[index],
                    length: offsets[close] - offsets[index] + 1, hint: "write {n} to request .max(n), or * for .unlimited")
            }
            return (.request(.max(count)), close + 1)
        }
        throw MarbleSyntaxError(message: "'\(Character(scalar))' is not allowed in a demand line", offset: offsets[index], hint: "use a digit, {n} or *")
    }

    // MARK: - Subscription lines (parseMarblesAsSubscriptions)

    mutating func subscription() throws(MarbleSyntaxError) -> ParsedMarbles {
        var frame = 0
        var groupStart: Int?
        var subscribed: (frame: Int, index: Int)?
        var unsubscribed: (frame: Int, index: Int)?
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            var next = frame + 1
            switch scalar {
            case " ":
                if runMode { next = frame }
            case "-":
                break
            case "(":
                groupStart = frame
            case ")":
                groupStart = nil
            case "^", "!":
                let mark = scalar == "^" ? subscribed : unsubscribed
                if let mark {
                    throw MarbleSyntaxError(
                        message: "RxJS refuses a second '\(Character(scalar))' in a subscription marble string (the first is at offset \(offsets[mark.index]))",
                        offset: offsets[index], hint: "write one line per subscription")
                }
                if scalar == "^" {
                    subscribed = (groupStart ?? frame, index)
                    break
                }
                unsubscribed = (groupStart ?? frame, index)
                next = frame  // RxJS's '!' takes no frame
            default:
                guard let frames = try progression(at: index) else {
                    throw MarbleSyntaxError(
                        message: "RxJS allows only '^', '!', '-', spaces, groups and time progressions in a subscription marble string, not '\(Character(scalar))'",
                        offset: offsets[index], hint: "use '^' (subscribed), '!' (unsubscribed) and '-' (a frame)")
                }
                next = try advance(frame, by: frames.frames, at: index)
                index = frames.end - 1
            }
            frame = next
            index += 1
        }
        if let subscribed { events.append(TimedMarbleEvent(frame: subscribed.frame, event: .subscribe, offset: offsets[subscribed.index])) }
        if let unsubscribed {
            if let subscribed, unsubscribed.frame < subscribed.frame {
                throw MarbleSyntaxError(
                    message: "'!' stands at frame \(unsubscribed.frame), before '^' at frame \(subscribed.frame): RxJS reads the line, but no subscription ends before it starts",
                    offset: offsets[unsubscribed.index], hint: "put '^' before '!'")
            }
            events.append(TimedMarbleEvent(frame: unsubscribed.frame, event: .cancel, offset: offsets[unsubscribed.index]))
        }
        return ParsedMarbles(events: events, zeroOffset: nil, firstFrame: 0, endFrame: frame)
    }

    // MARK: - Time

    /// A run-mode time progression at `index` (a digit first or after a space; digits, an
    /// optional `.digits`, `ms`, `s` or `m`, then a space, which it takes): its frames and the
    /// index after its space. Nil where RxJS reads the digit as a value.
    func progression(at index: Int) throws(MarbleSyntaxError) -> (frames: Int, end: Int)? {
        guard runMode, Self.isDigit(scalars[index]), index == 0 || scalars[index - 1] == Self.space else { return nil }
        var position = index
        while position < scalars.count, Self.isDigit(scalars[position]) { position += 1 }
        if position + 1 < scalars.count, scalars[position] == ".", Self.isDigit(scalars[position + 1]) {
            position += 1
            while position < scalars.count, Self.isDigit(scalars[position]) { position += 1 }
        }
        func at(_ offset: Int) -> Unicode.Scalar? { position + offset < scalars.count ? scalars[position + offset] : nil }
        let unitLength: Int
        if at(0) == "m", at(1) == "s", at(2) == Self.space {
            unitLength = 2
        } else if at(0) == "s" || at(0) == "m", at(1) == Self.space {
            unitLength = 1
        } else {
            return nil
        }
        let unitEnd = position + unitLength
        let written = String(String.UnicodeScalarView(scalars[index..<unitEnd]))
        let start = offsets[index]
        let length = offsets[unitEnd - 1] - start + 1
        let nanoseconds: Int64
        do {
            guard let value = try MarbleDuration.nanoseconds(written) else { return nil }
            nanoseconds = value
        } catch {
            throw MarbleSyntaxError(message: error.message, offset: start, length: length, hint: error.hint)
        }
        guard frameNanoseconds > 0, nanoseconds % frameNanoseconds == 0, let frames = Int(exactly: nanoseconds / frameNanoseconds) else {
            let frameText = frameNanoseconds > 0 ? MarbleDuration.describe(nanoseconds: frameNanoseconds) : "\(frameNanoseconds)ns"
            throw MarbleSyntaxError(
                message: "\(abbreviated(written)) is not a whole number of frames (1 frame = \(frameText)); RxJS would count the events after it at fractional frames",
                offset: start, length: length, hint: "use a multiple of \(frameText)")
        }
        return (frames, unitEnd + 1)
    }

    func advance(_ frame: Int, by frames: Int, at index: Int) throws(MarbleSyntaxError) -> Int {
        let (next, overflow) = frame.addingReportingOverflow(frames)
        if overflow {
            throw MarbleSyntaxError(message: "the timeline is too long to count its frames", offset: offsets[index], hint: "use a shorter time progression")
        }
        return next
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }
}

private extension String {
    func trimmingCharacters(inSpaces: ()) -> String {
        var slice = Substring(self)
        while slice.first?.isWhitespace == true { slice = slice.dropFirst() }
        while slice.last?.isWhitespace == true { slice = slice.dropLast() }
        return String(slice)
    }
}
