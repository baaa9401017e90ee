/// The kind of line a marble string belongs to. It decides which tokens are allowed and
/// how frames are counted.
public enum MarbleLineKind: Sendable, Hashable {
    /// A `hot` source or a `send` line: absolute frames; `^` (optional) marks frame 0.
    case hot
    /// A `cold` source: frame 0 is the first character; no `^`, nothing after `|`/`#`.
    case cold
    /// An `expect` line: like `hot`, but nothing may follow `|`/`#`.
    case expect
    /// A `subscribe` or `expect NAME.subscriptions` line: `^`, `!`, `-`, groups and time.
    case subscription
    /// A `demand` line: digits, `{n}`, `*`, `-`, groups and time.
    case demand
}

/// A value written in a marble string: a one-character name or an inline `{literal}`.
public struct ValueToken: Hashable, Sendable {
    public enum Form: Hashable, Sendable {
        /// A single non-reserved character, e.g. `a` or `1`.
        case name(Character)
        /// The raw text between `{` and `}`, trimmed of surrounding whitespace, not interpreted.
        case literal(String)
    }

    public var form: Form
    /// 0-based `Character` index in the marble text where the token starts
    /// (the name itself, or the `{` of a literal — also for `#{…}`).
    public var offset: Int

    public init(form: Form, offset: Int) {
        self.form = form
        self.offset = offset
    }

    /// The token as it is written in marble text: `a` or `{42}`.
    public var text: String {
        switch form {
        case .name(let character): return String(character)
        case .literal(let literal): return ValueToken.braced(literal)
        }
    }

    /// `{n}` for an integer (the same text as `braced(String(n))`), its digits written straight
    /// into the string: `String(n)` goes through the standard library's generic integer printing
    /// and a protocol witness, several hundred instructions a value (callgrind, e2e W1).
    public static func braced(_ value: Int) -> String {
        var digits = 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        let sign = value < 0 ? 1 : 0
        let count = digits + sign + 2
        return String(unsafeUninitializedCapacity: count) { buffer in
            buffer[0] = UInt8(ascii: "{")
            if sign == 1 { buffer[1] = UInt8(ascii: "-") }
            var magnitude = value.magnitude
            var index = count - 2
            for _ in 0..<digits {
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                index -= 1
            }
            buffer[count - 1] = UInt8(ascii: "}")
            return count
        }
    }

    /// `{literal}`, built in one copy: concatenating strings costs more than the rest of a
    /// long timeline's report.
    public static func braced(_ literal: String) -> String {
        var literal = literal
        return literal.withUTF8 { content in
            String(unsafeUninitializedCapacity: content.count + 2) { buffer in
                buffer[0] = UInt8(ascii: "{")
                _ = UnsafeMutableBufferPointer(rebasing: buffer[1...]).initialize(from: content)
                buffer[content.count + 1] = UInt8(ascii: "}")
                return content.count + 2
            }
        }
    }
}

/// What a subscriber requests in a `demand` line.
public enum DemandRequest: Hashable, Sendable {
    case max(Int)
    case unlimited
}

/// One event of a marble timeline.
public enum MarbleEvent: Hashable, Sendable {
    case value(ValueToken)
    case finished
    /// `nil` for a bare `#`; `#{"boom"}` gives the literal `"boom"` (quotes included).
    case failure(ValueToken?)
    /// `^` in subscription lines.
    case subscribe
    /// `!` in subscription lines.
    case cancel
    /// A digit, `{n}` or `*` in demand lines.
    case request(DemandRequest)

    /// The printer's view of this event (the inverse of parsing a single token).
    public var printable: PrintableEvent {
        switch self {
        case .value(let token): return .value(token.text)
        case .finished: return .finished
        case .failure(let token): return .failure(token?.text)
        case .subscribe: return .subscribe
        case .cancel: return .cancel
        case .request(let request): return .request(request)
        }
    }

    /// Whether this event ends a stream (`|` or `#`).
    public var isTerminal: Bool {
        switch self {
        case .finished, .failure: return true
        default: return false
        }
    }
}

/// Where virtual time ends. Every frame a file can write (a timeline, a subscription, a demand
/// line) and every frame a run reaches lies within `-last...last`: a marble line longer than
/// that is a syntax error, and a run that schedules work past it stops with an error. The bound
/// is far inside `Int` (its sums and differences, and a frame's column or x coordinate, cannot
/// overflow) and below 2^53 (a frame converts to a `Double` exactly): a million million frames,
/// 31,700 years at the default `frame 1ms`, 11.5 days at `frame 1ns`.
public enum VirtualTimeEnd {
    /// The last frame of virtual time; the first is its negation.
    public static let last = 1_000_000_000_000_000

    /// The sentence a limit cites: `virtual time ends at frame 1000000000000000`.
    public static let sentence = "virtual time ends at frame \(last)"
}

/// An event at a frame, with the `Character` offset of its token in the marble text.
public struct TimedMarbleEvent: Hashable, Sendable {
    public var frame: Int
    public var event: MarbleEvent
    /// 0-based `Character` index of the event's token (`#` for a failure, `{` for a literal value).
    public var offset: Int

    public init(frame: Int, event: MarbleEvent, offset: Int) {
        self.frame = frame
        self.event = event
        self.offset = offset
    }
}

/// The result of parsing one marble string.
public struct ParsedMarbles: Hashable, Sendable {
    /// The events in textual order, which is also frame order.
    public var events: [TimedMarbleEvent]
    /// `Character` offset of `^` in hot/expect lines, if there is one.
    public var zeroOffset: Int?
    /// Frame of the first character (negative when there is time before `^`).
    public var firstFrame: Int
    /// Frame just after the last token (`firstFrame` + frames occupied).
    public var endFrame: Int

    public init(events: [TimedMarbleEvent], zeroOffset: Int?, firstFrame: Int, endFrame: Int) {
        self.events = events
        self.zeroOffset = zeroOffset
        self.firstFrame = firstFrame
        self.endFrame = endFrame
    }
}

/// A precise complaint about a marble string.
public struct MarbleSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A precise message starting in lowercase, e.g. "a group cannot contain '-'".
    public var message: String
    /// `Character` offset of the offending character.
    public var offset: Int
    /// Number of characters the problem spans (at least 1).
    public var length: Int
    /// A suggestion, e.g. "close the group with ')'".
    public var hint: String?

    public init(message: String, offset: Int, length: Int = 1, hint: String? = nil) {
        self.message = message
        self.offset = offset
        self.length = Swift.max(1, length)
        self.hint = hint
    }

    public var description: String {
        var text = "offset \(offset): \(message)"
        if let hint { text += " (\(hint))" }
        return text
    }
}
