import Testing
import TestSupport
import MarbleNotation

struct RoundTripCase: Sendable, CustomStringConvertible {
    var text: String
    var kind: MarbleLineKind
    /// Whether `text` is already the canonical rendering.
    var canonical: Bool = true
    var frame: Int64 = 1_000_000
    var compress: Int?

    var description: String { "\(kind) \(text.debugDescription)" }
}

/// Renders parsed events back and checks that parsing the output gives the same timeline.
func checkRoundTrip(
    _ events: [(frame: Int, event: PrintableEvent)], through lastFrame: Int?, kind: MarbleLineKind,
    frame: Int64 = 1_000_000, compress: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
) -> String {
    let text = MarblePrinter.render(events, through: lastFrame, frameNanoseconds: frame, compressingGapsLongerThan: compress)
    let expected = events.enumerated()
        .sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
        .map { "\($0.element.frame):\($0.element.event.text)" }
    do {
        let parsed = try MarbleParser(frameNanoseconds: frame).parse(text, as: kind)
        let actual = parsed.events.map { "\($0.frame):\($0.event.printable.text)" }
        #expect(actual == expected, "rendered \(text.debugDescription)", sourceLocation: sourceLocation)
        let frames = events.map(\.frame)
        let first = Swift.min(0, frames.min() ?? 0)
        let last = Swift.max(frames.max() ?? Int.min, frames.contains { $0 < 0 } ? 0 : Int.min, lastFrame ?? Int.min)
        if last >= first {
            #expect(parsed.firstFrame == first, "rendered \(text.debugDescription)", sourceLocation: sourceLocation)
            #expect(parsed.endFrame == last + 1, "rendered \(text.debugDescription)", sourceLocation: sourceLocation)
        } else {
            #expect(text.isEmpty, sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("rendered \(text.debugDescription) does not parse: \(error)", sourceLocation: sourceLocation)
    }
    return text
}

@Suite("Round trips")
struct RoundTripTests {
    static let cases: [RoundTripCase] = [
        RoundTripCase(text: "", kind: .hot),
        RoundTripCase(text: "---", kind: .hot),
        RoundTripCase(text: "-a-b-(c|)", kind: .hot),
        RoundTripCase(text: "-a-b-c-----d--e-|", kind: .hot),
        RoundTripCase(text: "--------c-------|", kind: .expect),
        RoundTripCase(text: "---A-B-C-D-E--|", kind: .expect),
        RoundTripCase(text: "---x|", kind: .cold),
        RoundTripCase(text: "-A-B-#{\"division by zero\"}", kind: .expect),
        RoundTripCase(text: "-A-B-(Z|)", kind: .expect),
        RoundTripCase(text: "i-l----d--|", kind: .expect),
        RoundTripCase(text: "a-^-b", kind: .hot),
        RoundTripCase(text: "a(^b)", kind: .expect),
        RoundTripCase(text: "ab(^c|)", kind: .expect),
        RoundTripCase(text: "a--^", kind: .hot),
        RoundTripCase(text: "a|b#c", kind: .hot),
        RoundTripCase(text: "(|a)", kind: .hot),
        RoundTripCase(text: "{42}{\"a}b\"}{[1, 2]}{(\"a\", 1)}", kind: .hot),
        RoundTripCase(text: "-{\"x y\"}-#", kind: .cold),
        RoundTripCase(text: "👍🏽é-日", kind: .hot),
        RoundTripCase(text: "(1)s", kind: .hot),
        RoundTripCase(text: "(1).5m", kind: .hot),
        RoundTripCase(text: "a(#){42}|", kind: .hot),
        RoundTripCase(text: "-^-!", kind: .subscription),
        RoundTripCase(text: "(^!)", kind: .subscription),
        RoundTripCase(text: "----^------", kind: .subscription),
        RoundTripCase(text: "------", kind: .subscription),
        RoundTripCase(text: "2------1----", kind: .demand),
        RoundTripCase(text: "{12}-*-(09)", kind: .demand),
        // Not canonical: the text changes, the timeline does not.
        RoundTripCase(text: " - a  - b ", kind: .hot, canonical: false),
        RoundTripCase(text: "(^a)-b", kind: .hot, canonical: false),
        RoundTripCase(text: "^--a", kind: .expect, canonical: false),
        RoundTripCase(text: "{ 42 }", kind: .hot, canonical: false),
        RoundTripCase(text: "(a)", kind: .hot, canonical: false),
        RoundTripCase(text: "a 10ms b", kind: .hot, canonical: false),
        RoundTripCase(text: "{3}", kind: .demand, canonical: false),
        RoundTripCase(text: "^ 10ms !", kind: .subscription, canonical: false),
        RoundTripCase(text: "a 1000ms ^ 2000ms b|", kind: .hot, compress: 10),
        RoundTripCase(text: "a 1s ^ 2s b|", kind: .hot, canonical: false, compress: 10),
        RoundTripCase(text: "a 1000ms b", kind: .hot, canonical: false, compress: 10),
        RoundTripCase(text: "x 5s y", kind: .cold, canonical: false, frame: 100_000_000, compress: 3),
        RoundTripCase(text: "500ms ^ 1000ms !", kind: .subscription, compress: 100),
    ]

    @Test(arguments: cases)
    func parseRenderParse(_ example: RoundTripCase) throws {
        let parser = MarbleParser(frameNanoseconds: example.frame)
        let parsed = try parser.parse(example.text, as: example.kind)
        let events = parsed.events.map { (frame: $0.frame, event: $0.event.printable) }
        let text = checkRoundTrip(events, through: parsed.endFrame - 1, kind: example.kind,
                                  frame: example.frame, compress: example.compress)
        if example.canonical {
            #expect(text == example.text)
        }
        let again = try parser.parse(text, as: example.kind)
        #expect(again.firstFrame == parsed.firstFrame)
        #expect(again.endFrame == parsed.endFrame)
        #expect(again.events.map(\.frame) == parsed.events.map(\.frame))
        #expect(again.events.map(\.event.printable) == parsed.events.map(\.event.printable))
    }

    // MARK: randomised

    static let valuePool = [
        "a", "b", "x", "Z", "1", "0", "5", "s", "m", "n", "u", "µ", ".", "*", "é", "👍", "日",
        "{42}", "{-1.5}", "{\"a}b\"}", "{[1, 2]}", "{(\"a\", 1)}", "{\"x y\"}", "{nil}", "{\"\\\"}\"}",
    ]
    static let failurePool: [String?] = [nil, "{\"boom\"}", "{\"a}b\"}", "{\"error\"}"]
    static let framePool: [Int64] = [1, 1_000, 1_000_000, 100_000_000, 1_500_000, 1_000_000_000]

    static func randomValue(_ random: inout SeededGenerator) -> PrintableEvent {
        .value(valuePool.randomElement(using: &random) ?? "a")
    }

    static func randomSetting(_ random: inout SeededGenerator) -> (frame: Int64, compress: Int?, through: Int?) {
        let frame = framePool.randomElement(using: &random) ?? 1_000_000
        let compress: Int? = Bool.random(using: &random) ? nil : Int.random(in: 0...6, using: &random)
        let through: Int? = Bool.random(using: &random) ? nil : Int.random(in: -5...60, using: &random)
        return (frame, compress, through)
    }

    static func streamEvents(_ random: inout SeededGenerator, negative: Bool, terminalLast: Bool) -> [(frame: Int, event: PrintableEvent)] {
        let lowest = negative ? -20 : 0
        var events: [(frame: Int, event: PrintableEvent)] = []
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            let frame = Int.random(in: lowest...40, using: &random)
            if !terminalLast, Int.random(in: 0..<6, using: &random) == 0 {
                events.append((frame, Bool.random(using: &random) ? .finished : .failure(failurePool.randomElement(using: &random) ?? nil)))
            } else {
                events.append((frame, randomValue(&random)))
            }
        }
        if terminalLast, Bool.random(using: &random) {
            let after = (events.map(\.frame).max() ?? lowest) + Int.random(in: 0...3, using: &random)
            events.append((after, Bool.random(using: &random) ? .finished : .failure(failurePool.randomElement(using: &random) ?? nil)))
        }
        return events
    }

    @Test(arguments: [MarbleLineKind.hot, .expect, .cold, .subscription, .demand])
    func randomTimelinesSurviveRenderAndParse(_ kind: MarbleLineKind) {
        var random = SeededGenerator(seed: 0x5EED_0000 &+ UInt64(kind.hashSeed))
        for _ in 0..<1_000 {
            let setting = Self.randomSetting(&random)
            var events: [(frame: Int, event: PrintableEvent)]
            switch kind {
            case .hot:
                events = Self.streamEvents(&random, negative: true, terminalLast: false)
            case .expect:
                events = Self.streamEvents(&random, negative: true, terminalLast: true)
            case .cold:
                events = Self.streamEvents(&random, negative: false, terminalLast: true)
            case .subscription:
                events = []
                if Int.random(in: 0..<4, using: &random) > 0 {
                    let subscribe = Int.random(in: 0...30, using: &random)
                    events.append((subscribe, .subscribe))
                    if Bool.random(using: &random) {
                        events.append((subscribe + Int.random(in: 0...30, using: &random), .cancel))
                    }
                }
            case .demand:
                events = (0..<Int.random(in: 0...8, using: &random)).map { _ in
                    let request: DemandRequest = switch Int.random(in: 0..<4, using: &random) {
                    case 0: .unlimited
                    case 1: .max(Int.random(in: 10...100_000, using: &random))
                    default: .max(Int.random(in: 0...9, using: &random))
                    }
                    return (Int.random(in: 0...40, using: &random), .request(request))
                }
            }
            _ = checkRoundTrip(events, through: setting.through, kind: kind, frame: setting.frame, compress: setting.compress)
        }
    }

    @Test func randomDigitAndUnitRunsNeverReadAsTime() {
        // Dense runs of characters that can spell a time progression.
        var random = SeededGenerator(seed: 42)
        let pool = ["1", "0", "5", ".", "s", "m", "n", "u", "µ", "a"]
        for _ in 0..<1_000 {
            var events: [(frame: Int, event: PrintableEvent)] = []
            var frame = Int.random(in: -3...3, using: &random)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                events.append((frame, .value(pool.randomElement(using: &random) ?? "1")))
                frame += Int.random(in: 0...12, using: &random) < 10 ? 1 : Int.random(in: 2...20, using: &random)
            }
            _ = checkRoundTrip(events, through: nil, kind: .hot, compress: Int.random(in: 0...3, using: &random))
        }
    }
}

extension MarbleLineKind {
    var hashSeed: Int {
        switch self {
        case .hot: 1
        case .cold: 2
        case .expect: 3
        case .subscription: 4
        case .demand: 5
        }
    }
}
