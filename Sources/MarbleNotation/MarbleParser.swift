/// Turns one marble string (the part of a line after the stream name) into timed events.
public struct MarbleParser: Sendable {
    /// The length of one frame, used to convert time progressions such as `10ms` into frames.
    public var frameNanoseconds: Int64
    /// Whose rules read the string: the native notation's, or RxJS's (`notation rxjs`, `rxjs-legacy`).
    public var dialect: MarbleDialect

    public init(frameNanoseconds: Int64 = 1_000_000, dialect: MarbleDialect = .native) {
        self.frameNanoseconds = frameNanoseconds
        self.dialect = dialect
    }

    public func parse(_ text: String, as kind: MarbleLineKind) throws(MarbleSyntaxError) -> ParsedMarbles {
        if dialect != .native {
            var scanner = RxJSMarbleScanner(text: text, kind: kind, dialect: dialect, frameNanoseconds: frameNanoseconds)
            return try scanner.run(nil)
        }
        var scanner = MarbleScanner(text: IndexedText(text), kind: kind, frameNanoseconds: frameNanoseconds)
        return try scanner.run()
    }

    /// Parses like `parse(_:as:)` but hands each event to `body` as soon as it is read instead
    /// of collecting them, so the events of a megabyte-long line never exist as one array. The
    /// frames handed over count from the line's first character: add the result's `firstFrame`
    /// (negative when the line has time before `^`) to place them. The result has no `events`.
    /// Events read before a syntax error have been handed over by the time it is thrown.
    public func parse(_ text: String, as kind: MarbleLineKind, each body: (TimedMarbleEvent) -> Void) throws(MarbleSyntaxError) -> ParsedMarbles {
        try withoutActuallyEscaping(body) { (body) throws(MarbleSyntaxError) -> ParsedMarbles in
            if dialect != .native {
                var scanner = RxJSMarbleScanner(text: text, kind: kind, dialect: dialect, frameNanoseconds: frameNanoseconds)
                return try scanner.run(body)
            }
            var scanner = MarbleScanner(text: IndexedText(text), kind: kind, frameNanoseconds: frameNanoseconds)
            scanner.sink = body
            return try scanner.run()
        }
    }

    /// `parse(_:as:each:)` with integers read on the way: a value written as a plain integer
    /// literal — `{42}`, `{-7}`, `{0}`: an optional `-`, then 1 to 18 ASCII digits without a
    /// leading zero, nothing else between the braces (`MarbleParser.plainInteger`) — goes to
    /// `integer(frame, value, offset)` as its `Int`, with the frame counted as for `body` and the
    /// offset of its `{`, and never becomes a token. Long timelines are mostly such literals, and
    /// building a `String` for each to read it back cost more than the rest of their parse. Any
    /// other value, spaced or not (`{ 42 }`, `{042}`, `{1.5}`), comes to `body` as a literal as
    /// before. RxJS notation (`dialect`) has no such literals: every event goes to `body`.
    public func parse(
        _ text: String, as kind: MarbleLineKind,
        integer: (_ frame: Int, _ value: Int, _ offset: Int) -> Void,
        each body: (TimedMarbleEvent) -> Void
    ) throws(MarbleSyntaxError) -> ParsedMarbles {
        guard dialect == .native, kind != .demand, kind != .subscription else { return try parse(text, as: kind, each: body) }
        return try withoutActuallyEscaping(body) { (body) throws(MarbleSyntaxError) -> ParsedMarbles in
            try withoutActuallyEscaping(integer) { (integer) throws(MarbleSyntaxError) -> ParsedMarbles in
                var scanner = MarbleScanner(text: IndexedText(text), kind: kind, frameNanoseconds: frameNanoseconds)
                scanner.sink = body
                scanner.integerSink = integer
                return try scanner.run()
            }
        }
    }

    /// The value of a plain integer literal's content (between its braces, untrimmed): an
    /// optional `-` then 1 to 18 ASCII digits, no leading zero unless the number is `0` (so `-0`
    /// is 0); nil for anything else. At most 18 digits cannot overflow `Int`; longer numbers are
    /// left to the expression reader, which reports what does not fit.
    @inlinable
    public static func plainInteger(_ content: UnsafeBufferPointer<UInt8>) -> Int? {
        var position = 0
        let negative = content.first == UInt8(ascii: "-")
        if negative { position = 1 }
        let digits = content.count - position
        guard digits >= 1, digits <= 18, content[position] != UInt8(ascii: "0") || digits == 1 else { return nil }
        var value = 0
        while position < content.count {
            let digit = content[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int(digit)
            position += 1
        }
        return negative ? -value : value
    }
}

/// A single left-to-right pass over the characters of one marble string.
struct MarbleScanner {
    let text: IndexedText
    let kind: MarbleLineKind
    let frameNanoseconds: Int64

    var index = 0
    /// Frame of the next token, counted from the first character (before any `^` shift).
    var frame = 0
    var events: [TimedMarbleEvent] = []
    /// When set, events go here as they are read instead of into `events`.
    var sink: ((TimedMarbleEvent) -> Void)?
    /// When set, plain integer literals of values go here (frame, value, offset of `{`) and not
    /// to `sink` (`MarbleParser.parse(_:as:integer:each:)`).
    var integerSink: ((Int, Int, Int) -> Void)?
    /// The `^` of a hot/expect line: its unshifted frame and its offset.
    var zero: (frame: Int, offset: Int)?
    /// The open group: offset of its `(` and how many members it has so far.
    var group: (offset: Int, members: Int)?
    /// The first `|` or `#` seen, for lines where nothing may follow it.
    var terminal: (symbol: Character, offset: Int)?
    var subscribeOffset: Int?
    var cancelOffset: Int?

    init(text: IndexedText, kind: MarbleLineKind, frameNanoseconds: Int64) {
        self.text = text
        self.kind = kind
        self.frameNanoseconds = frameNanoseconds
    }

    mutating func run() throws(MarbleSyntaxError) -> ParsedMarbles {
        let count = text.count
        while index < count {
            // Every token but a value name is one ASCII character: decide on its byte.
            guard let byte = text.asciiByte(index) else {
                let character = text[index]
                if character.isMarbleSpace {
                    index += 1
                } else if character.isNewline {
                    throw MarbleSyntaxError(message: "a marble timeline cannot contain a line break", offset: index)
                } else {
                    try valueCharacter(character)
                }
                continue
            }
            if byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C {
                index += 1
                continue
            }
            if byte == 0x0A || byte == 0x0D {
                throw MarbleSyntaxError(message: "a marble timeline cannot contain a line break", offset: index)
            }
            if (0x30...0x39).contains(byte),
               index == 0 || text[index - 1].isMarbleSpace,
               let duration = MarbleDuration.match(text, from: index) {
                try timeProgression(duration)
                continue
            }
            switch byte {
            case UInt8(ascii: "("): try openGroup()
            case UInt8(ascii: ")"): try closeGroup()
            case UInt8(ascii: "-"): try dash()
            case UInt8(ascii: "{"): try braceLiteral()
            case UInt8(ascii: "}"):
                throw MarbleSyntaxError(
                    message: "'}' has no matching '{'", offset: index,
                    hint: "remove it, or open the literal with '{'")
            case UInt8(ascii: "|"): try finished()
            case UInt8(ascii: "#"): try failure()
            case UInt8(ascii: "^"): try caret()
            case UInt8(ascii: "!"): try bang()
            default: try valueCharacter(Character(Unicode.Scalar(byte)))
            }
        }
        if let group {
            throw MarbleSyntaxError(message: "unclosed group '('", offset: group.offset, hint: "close the group with ')'")
        }
        return result()
    }

    /// The parsed line; hands over `events` (shifted in place, not copied, when there is a `^`).
    mutating func result() -> ParsedMarbles {
        var shifted = events
        events = []
        guard let zero else {
            return ParsedMarbles(events: shifted, zeroOffset: nil, firstFrame: 0, endFrame: frame)
        }
        for position in shifted.indices { shifted[position].frame -= zero.frame }
        return ParsedMarbles(events: shifted, zeroOffset: zero.offset, firstFrame: -zero.frame, endFrame: frame - zero.frame)
    }


    // MARK: - Frames

    /// Ends a one-frame token: a member of the open group, or a frame of its own.
    mutating func tokenTakesFrame(offset: Int) throws(MarbleSyntaxError) {
        if group != nil {
            group?.members += 1
        } else {
            try advance(by: 1, offset: offset, length: 1)
        }
    }

    /// `frame` is never past `VirtualTimeEnd.last` (nor is `frames` negative), so the check
    /// cannot overflow.
    mutating func advance(by frames: Int, offset: Int, length: Int) throws(MarbleSyntaxError) {
        guard frames <= VirtualTimeEnd.last - frame else {
            throw MarbleSyntaxError(
                message: "the timeline is too long: \(VirtualTimeEnd.sentence)", offset: offset, length: length,
                hint: "use a shorter time progression")
        }
        frame += frames
    }

    mutating func emit(_ event: MarbleEvent, offset: Int) throws(MarbleSyntaxError) {
        if terminal != nil { try checkNotAfterTerminal(offset: offset) }
        if event.isTerminal, terminal == nil {
            terminal = (event == .finished ? "|" : "#", offset)
        }
        let timed = TimedMarbleEvent(frame: frame, event: event, offset: offset)
        if let sink { sink(timed) } else { events.append(timed) }
    }

    /// Cold and expect lines end at their `|` or `#`: nothing may follow it.
    @inline(never)
    func checkNotAfterTerminal(offset: Int) throws(MarbleSyntaxError) {
        if kind == .cold || kind == .expect, let terminal {
            let what = terminal.symbol == "|" ? "finished" : "failed"
            throw MarbleSyntaxError(
                message: "an event after '\(terminal.symbol)' can never arrive; the stream has already \(what)",
                offset: offset,
                hint: "remove it, or move '\(terminal.symbol)' after the last event")
        }
    }

    /// A value `{n}` read straight to its `Int` for `integerSink`: the index after its `}`, or
    /// nil when the literal at `open` is not a plain integer (or the text is not ASCII).
    func plainIntegerLiteral(openingAt open: Int) -> (value: Int, end: Int)? {
        guard text.isASCII else { return nil }
        return text.bytes.withUnsafeBufferPointer { bytes -> (value: Int, end: Int)? in
            // The longest plain integer is a sign and 18 digits: look no further for the '}'.
            let limit = Swift.min(bytes.count, open + 21)
            var close = open + 1
            while close < limit, bytes[close] != UInt8(ascii: "}") { close += 1 }
            guard close < limit,
                  let value = MarbleParser.plainInteger(UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close])) else { return nil }
            return (value, close + 1)
        }
    }

    // MARK: - Tokens

    mutating func timeProgression(_ duration: MarbleDuration.Match) throws(MarbleSyntaxError) {
        let start = index
        let length = duration.end - start
        // Only needed for messages; built on demand so long lines of time stay cheap.
        var written: String { text.string(start..<duration.end) }
        if group != nil {
            throw MarbleSyntaxError(
                message: "a group cannot contain a time progression", offset: start, length: length,
                hint: "a group occupies one frame; put the time progression outside the group")
        }
        let nanoseconds: Int64
        switch MarbleDuration.exactNanoseconds(of: duration, in: text) {
        case .nanoseconds(let value): nanoseconds = value
        case .tooLarge: throw MarbleDuration.tooLargeError(written, offset: start, length: length)
        case .notWholeNanoseconds: throw notWholeFrames(written, offset: start, length: length)
        }
        var frames: Int64 = 0
        if nanoseconds != 0 {
            guard frameNanoseconds > 0 else {
                throw MarbleSyntaxError(
                    message: "\(abbreviated(written)) cannot be counted in frames: the frame length must be positive",
                    offset: start, length: length)
            }
            guard nanoseconds % frameNanoseconds == 0 else { throw notWholeFrames(written, offset: start, length: length) }
            frames = nanoseconds / frameNanoseconds
        }
        guard let whole = Int(exactly: frames) else {
            throw MarbleDuration.tooLargeError(written, offset: start, length: length)
        }
        try advance(by: whole, offset: start, length: length)
        index = duration.end
    }

    func notWholeFrames(_ text: String, offset: Int, length: Int) -> MarbleSyntaxError {
        guard frameNanoseconds > 0 else {
            return MarbleSyntaxError(
                message: "\(abbreviated(text)) cannot be counted in frames: the frame length must be positive",
                offset: offset, length: length)
        }
        let frameText = MarbleDuration.describe(nanoseconds: frameNanoseconds)
        return MarbleSyntaxError(
            message: "\(abbreviated(text)) is not a whole number of frames (1 frame = \(frameText))",
            offset: offset, length: length,
            hint: "use a multiple of \(frameText)")
    }

    mutating func openGroup() throws(MarbleSyntaxError) {
        if group != nil {
            throw MarbleSyntaxError(
                message: "groups cannot be nested", offset: index,
                hint: "close the group with ')' before opening another")
        }
        group = (index, 0)
        index += 1
    }

    mutating func closeGroup() throws(MarbleSyntaxError) {
        guard let open = group else {
            throw MarbleSyntaxError(
                message: "')' has no matching '('", offset: index,
                hint: "remove it, or open the group with '('")
        }
        if open.members == 0 {
            throw MarbleSyntaxError(
                message: "an empty group '()' has no events", offset: open.offset, length: index - open.offset + 1,
                hint: "use '-' for a frame without events")
        }
        group = nil
        try advance(by: 1, offset: index, length: 1)
        index += 1
    }

    mutating func dash() throws(MarbleSyntaxError) {
        if group != nil {
            throw MarbleSyntaxError(
                message: "a group cannot contain '-'", offset: index,
                hint: "a group occupies one frame; close it with ')' before '-'")
        }
        try advance(by: 1, offset: index, length: 1)
        index += 1
    }

    mutating func braceLiteral() throws(MarbleSyntaxError) {
        let start = index
        switch kind {
        case .hot, .cold, .expect:
            if let integerSink, let integer = plainIntegerLiteral(openingAt: start) {
                if terminal != nil { try checkNotAfterTerminal(offset: start) }
                integerSink(frame, integer.value, start)
                index = integer.end
                try tokenTakesFrame(offset: start)
                return
            }
            let literal = try scanLiteral(openingAt: start)
            try emit(.value(ValueToken(form: .literal(literal.content), offset: start)), offset: start)
            index = literal.end
            try tokenTakesFrame(offset: start)
        case .demand:
            let literal = try scanLiteral(openingAt: start)
            let request = try demandCount(literal.content, offset: start, length: literal.end - start)
            try emit(.request(.max(request)), offset: start)
            index = literal.end
            try tokenTakesFrame(offset: start)
        case .subscription:
            throw notAllowed("{", at: start)
        }
    }

    mutating func finished() throws(MarbleSyntaxError) {
        let start = index
        switch kind {
        case .hot, .cold, .expect:
            try emit(.finished, offset: start)
            index += 1
            try tokenTakesFrame(offset: start)
        case .demand, .subscription:
            throw notAllowed("|", at: start)
        }
    }

    mutating func failure() throws(MarbleSyntaxError) {
        let start = index
        switch kind {
        case .hot, .cold, .expect:
            if start + 1 < text.count, text.asciiByte(start + 1) == UInt8(ascii: "{") {
                let literal = try scanLiteral(openingAt: start + 1)
                try emit(.failure(ValueToken(form: .literal(literal.content), offset: start + 1)), offset: start)
                index = literal.end
            } else {
                try emit(.failure(nil), offset: start)
                index += 1
            }
            try tokenTakesFrame(offset: start)
        case .demand, .subscription:
            throw notAllowed("#", at: start)
        }
    }

    mutating func caret() throws(MarbleSyntaxError) {
        let start = index
        switch kind {
        case .hot, .expect:
            if let zero {
                throw MarbleSyntaxError(
                    message: "a timeline can contain only one '^' (the first is at offset \(zero.offset))",
                    offset: start,
                    hint: "'^' marks frame 0; remove the extra one")
            }
            zero = (frame, start)
        case .subscription:
            if let subscribeOffset {
                throw MarbleSyntaxError(
                    message: "a subscription line can contain only one '^' (the first is at offset \(subscribeOffset))",
                    offset: start,
                    hint: "write one line per subscription")
            }
            subscribeOffset = start
            try emit(.subscribe, offset: start)
        case .cold:
            throw MarbleSyntaxError(
                message: "a cold timeline starts at each subscription; '^' is not allowed", offset: start,
                hint: "remove '^'; frame 0 of a cold timeline is its first character")
        case .demand:
            throw MarbleSyntaxError(
                message: "'^' is not allowed in a demand line", offset: start,
                hint: "use a digit, {n} or *; a `subscribe` line sets when the subscriber attaches")
        }
        index += 1
        try tokenTakesFrame(offset: start)
    }

    mutating func bang() throws(MarbleSyntaxError) {
        let start = index
        guard kind == .subscription else {
            throw MarbleSyntaxError(
                message: "'!' marks a cancellation; it belongs in `subscribe` or `.subscriptions` lines",
                offset: start,
                hint: kind == .demand ? "use a digit, {n} or *" : "use '|' to finish or '#' to fail the stream")
        }
        if let cancelOffset {
            throw MarbleSyntaxError(
                message: "a subscription line can contain only one '!' (the first is at offset \(cancelOffset))",
                offset: start,
                hint: "write one line per subscription")
        }
        if subscribeOffset == nil {
            if (start + 1..<text.count).contains(where: { text.asciiByte($0) == UInt8(ascii: "^") }) {
                throw MarbleSyntaxError(
                    message: "'!' before '^': a subscription cannot end before it starts", offset: start,
                    hint: "put '^' before '!'")
            }
            // No '^' at all: subscribed at frame 0, as RxJS's `expectObservable(_, "---!")` reads it.
            subscribeOffset = start
            let frame = self.frame
            self.frame = 0
            try emit(.subscribe, offset: start)
            self.frame = frame
        }
        cancelOffset = start
        try emit(.cancel, offset: start)
        index += 1
        try tokenTakesFrame(offset: start)
    }

    mutating func valueCharacter(_ character: Character) throws(MarbleSyntaxError) {
        let start = index
        switch kind {
        case .hot, .cold, .expect:
            try emit(.value(ValueToken(form: .name(character), offset: start)), offset: start)
        case .demand:
            if let digit = character.asciiDigitValue {
                try emit(.request(.max(Int(digit))), offset: start)
            } else if character == "*" {
                try emit(.request(.unlimited), offset: start)
            } else {
                throw notAllowed(character, at: start)
            }
        case .subscription:
            throw notAllowed(character, at: start)
        }
        index += 1
        try tokenTakesFrame(offset: start)
    }

    func notAllowed(_ character: Character, at offset: Int) -> MarbleSyntaxError {
        switch kind {
        case .demand:
            return MarbleSyntaxError(
                message: "'\(character)' is not allowed in a demand line", offset: offset,
                hint: "use a digit, {n} or *")
        default:
            return MarbleSyntaxError(
                message: "'\(character)' is not allowed in a subscription line", offset: offset,
                hint: "use '^' (subscribe), '!' (cancel), '-' (a frame) or a time progression")
        }
    }

    // MARK: - Literals

    /// Scans `{…}` starting at the `{` at `open`: ends at the matching `}`, skipping string
    /// literals (`"…"` with `\` escapes) and counting nested `{}`, `[]` and `()`.
    /// Returns the trimmed content and the index just after the closing `}`.
    func scanLiteral(openingAt open: Int) throws(MarbleSyntaxError) -> (content: String, end: Int) {
        // The common literal — digits, letters, signs, dots — ends at the first '}' with nothing
        // to skip: find it on the bytes and leave strings and brackets to the general loop.
        if text.isASCII {
            var position = open + 1
            while position < text.count {
                let byte = text.bytes[position]
                if byte == UInt8(ascii: "}") { return try literalContent(open: open, close: position) }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "(") { break }
                position += 1
            }
        }
        let count = text.count
        var position = open + 1
        var closers: [Character] = []
        var stringStart: Int?
        while position < count {
            let character = text[position]
            if stringStart != nil {
                if character == "\\" {
                    position += 2
                    continue
                }
                if character == "\"" { stringStart = nil }
                position += 1
                continue
            }
            switch character {
            case "\"":
                stringStart = position
            case "{":
                closers.append("}")
            case "[":
                closers.append("]")
            case "(":
                closers.append(")")
            case "]", ")":
                if closers.last == character { closers.removeLast() }
            case "}":
                // A '}' closes the innermost open '{'; brackets left open inside it are dropped.
                // With no '{' open, it ends the literal.
                if let brace = closers.lastIndex(of: "}") {
                    closers.removeSubrange(brace...)
                } else {
                    return try literalContent(open: open, close: position)
                }
            default:
                break
            }
            position += 1
        }
        if let stringStart {
            throw MarbleSyntaxError(
                message: "unterminated string in a literal", offset: stringStart, length: count - stringStart,
                hint: "close the string with '\"'")
        }
        throw MarbleSyntaxError(message: "unclosed literal '{'", offset: open, hint: "close the literal with '}'")
    }

    func literalContent(open: Int, close: Int) throws(MarbleSyntaxError) -> (content: String, end: Int) {
        if text.isASCII {
            var lower = open + 1
            var upper = close
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
            while lower < upper, isSpace(text.bytes[lower]) { lower += 1 }
            while upper > lower, isSpace(text.bytes[upper - 1]) { upper -= 1 }
            if lower < upper { return (text.string(lower..<upper), close + 1) }
        }
        var lower = open + 1
        var upper = close
        while lower < upper, text[lower].isWhitespace { lower += 1 }
        while upper > lower, text[upper - 1].isWhitespace { upper -= 1 }
        guard lower < upper else {
            throw MarbleSyntaxError(
                message: "an empty literal '{}' is not a value", offset: open, length: close - open + 1,
                hint: kind == .demand ? "write {n} with a number n, or * for unlimited" : "write a value between the braces, e.g. {42}")
        }
        return (text.string(lower..<upper), close + 1)
    }

    func demandCount(_ content: String, offset: Int, length: Int) throws(MarbleSyntaxError) -> Int {
        var value = 0
        var isNumber = !content.isEmpty
        for character in content {
            guard let digit = character.asciiDigitValue else {
                isNumber = false
                break
            }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int(digit))
            if overflow1 || overflow2 {
                throw MarbleSyntaxError(
                    message: "the demand {\(abbreviated(content))} is too large", offset: offset, length: length,
                    hint: "use * to request an unlimited number of values")
            }
            value = sum
        }
        guard isNumber else {
            throw MarbleSyntaxError(
                message: "a demand must be a non-negative whole number, not {\(abbreviated(content))}", offset: offset, length: length,
                hint: "write {n} to request .max(n), or * for .unlimited")
        }
        return value
    }
}
