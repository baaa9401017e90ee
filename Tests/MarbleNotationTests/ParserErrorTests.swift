import Testing
import MarbleNotation

struct ErrorCase: Sendable, CustomStringConvertible {
    var text: String
    var kind: MarbleLineKind
    var frame: Int64 = 1_000_000
    var message: String
    var offset: Int
    var length: Int = 1
    var hint: String?

    var description: String { "\(kind) \(text.debugDescription)" }
}

private let bang = "'!' marks a cancellation; it belongs in `subscribe` or `.subscriptions` lines"
private let afterFinished = "an event after '|' can never arrive; the stream has already finished"
private let afterFailed = "an event after '#' can never arrive; the stream has already failed"
private let coldCaret = "a cold timeline starts at each subscription; '^' is not allowed"
private let demandHint = "use a digit, {n} or *"
private let subscriptionHint = "use '^' (subscribe), '!' (cancel), '-' (a frame) or a time progression"

@Suite("Parse errors")
struct ParserErrorTests {
    static let groupCases: [ErrorCase] = [
        ErrorCase(text: "-a-(b-c)-|", kind: .hot, message: "a group cannot contain '-'", offset: 5,
                  hint: "a group occupies one frame; close it with ')' before '-'"),
        ErrorCase(text: "(a(b))", kind: .hot, message: "groups cannot be nested", offset: 2,
                  hint: "close the group with ')' before opening another"),
        ErrorCase(text: "-(a 10ms b)", kind: .hot, message: "a group cannot contain a time progression", offset: 4, length: 4,
                  hint: "a group occupies one frame; put the time progression outside the group"),
        ErrorCase(text: "( 1s )", kind: .expect, message: "a group cannot contain a time progression", offset: 2, length: 2,
                  hint: "a group occupies one frame; put the time progression outside the group"),
        ErrorCase(text: "-()-", kind: .hot, message: "an empty group '()' has no events", offset: 1, length: 2,
                  hint: "use '-' for a frame without events"),
        ErrorCase(text: "-( \t)-", kind: .cold, message: "an empty group '()' has no events", offset: 1, length: 4,
                  hint: "use '-' for a frame without events"),
        ErrorCase(text: "--(ab", kind: .hot, message: "unclosed group '('", offset: 2, hint: "close the group with ')'"),
        ErrorCase(text: "(^", kind: .subscription, message: "unclosed group '('", offset: 0, hint: "close the group with ')'"),
        ErrorCase(text: "-a)", kind: .hot, message: "')' has no matching '('", offset: 2,
                  hint: "remove it, or open the group with '('"),
        ErrorCase(text: "(a))", kind: .expect, message: "')' has no matching '('", offset: 3,
                  hint: "remove it, or open the group with '('"),
        ErrorCase(text: "(^-!)", kind: .subscription, message: "a group cannot contain '-'", offset: 2,
                  hint: "a group occupies one frame; close it with ')' before '-'"),
        ErrorCase(text: "()", kind: .demand, message: "an empty group '()' has no events", offset: 0, length: 2,
                  hint: "use '-' for a frame without events"),
    ]

    static let literalCases: [ErrorCase] = [
        ErrorCase(text: "-a}", kind: .hot, message: "'}' has no matching '{'", offset: 2,
                  hint: "remove it, or open the literal with '{'"),
        ErrorCase(text: "-{42", kind: .hot, message: "unclosed literal '{'", offset: 1, hint: "close the literal with '}'"),
        ErrorCase(text: "-{[1, 2]-", kind: .cold, message: "unclosed literal '{'", offset: 1, hint: "close the literal with '}'"),
        ErrorCase(text: "-{\"abc}-", kind: .hot, message: "unterminated string in a literal", offset: 2, length: 6,
                  hint: "close the string with '\"'"),
        ErrorCase(text: "-{}", kind: .hot, message: "an empty literal '{}' is not a value", offset: 1, length: 2,
                  hint: "write a value between the braces, e.g. {42}"),
        ErrorCase(text: "-{  }", kind: .expect, message: "an empty literal '{}' is not a value", offset: 1, length: 4,
                  hint: "write a value between the braces, e.g. {42}"),
        ErrorCase(text: "#{}", kind: .hot, message: "an empty literal '{}' is not a value", offset: 1, length: 2,
                  hint: "write a value between the braces, e.g. {42}"),
        ErrorCase(text: "#{\"x\"", kind: .hot, message: "unclosed literal '{'", offset: 1, hint: "close the literal with '}'"),
    ]

    static let lineKindCases: [ErrorCase] = [
        // hot / expect
        ErrorCase(text: "-a-^-^", kind: .hot, message: "a timeline can contain only one '^' (the first is at offset 3)", offset: 5,
                  hint: "'^' marks frame 0; remove the extra one"),
        ErrorCase(text: "(^^)", kind: .expect, message: "a timeline can contain only one '^' (the first is at offset 1)", offset: 2,
                  hint: "'^' marks frame 0; remove the extra one"),
        ErrorCase(text: "-a!", kind: .hot, message: bang, offset: 2, hint: "use '|' to finish or '#' to fail the stream"),
        ErrorCase(text: "^-(a!)", kind: .expect, message: bang, offset: 4, hint: "use '|' to finish or '#' to fail the stream"),
        ErrorCase(text: "-a#-b", kind: .expect, message: afterFailed, offset: 4, hint: "remove it, or move '#' after the last event"),
        ErrorCase(text: "(|a)", kind: .expect, message: afterFinished, offset: 2, hint: "remove it, or move '|' after the last event"),
        ErrorCase(text: "-|-|", kind: .expect, message: afterFinished, offset: 3, hint: "remove it, or move '|' after the last event"),
        ErrorCase(text: "-#{\"x\"}|", kind: .expect, message: afterFailed, offset: 7, hint: "remove it, or move '#' after the last event"),
        ErrorCase(text: "-|-{1}", kind: .expect, message: afterFinished, offset: 3, hint: "remove it, or move '|' after the last event"),
        // cold
        ErrorCase(text: "-^-a|", kind: .cold, message: coldCaret, offset: 1,
                  hint: "remove '^'; frame 0 of a cold timeline is its first character"),
        ErrorCase(text: "-a!", kind: .cold, message: bang, offset: 2, hint: "use '|' to finish or '#' to fail the stream"),
        ErrorCase(text: "-a|b", kind: .cold, message: afterFinished, offset: 3, hint: "remove it, or move '|' after the last event"),
        ErrorCase(text: "#  #", kind: .cold, message: afterFailed, offset: 3, hint: "remove it, or move '#' after the last event"),
        // subscription
        ErrorCase(text: "-^-^", kind: .subscription,
                  message: "a subscription line can contain only one '^' (the first is at offset 1)", offset: 3,
                  hint: "write one line per subscription"),
        ErrorCase(text: "^!!", kind: .subscription,
                  message: "a subscription line can contain only one '!' (the first is at offset 1)", offset: 2,
                  hint: "write one line per subscription"),
        ErrorCase(text: "-!^", kind: .subscription, message: "'!' before '^': a subscription cannot end before it starts",
                  offset: 1, hint: "put '^' before '!'"),
        ErrorCase(text: "(!^)", kind: .subscription, message: "'!' before '^': a subscription cannot end before it starts",
                  offset: 1, hint: "put '^' before '!'"),
        ErrorCase(text: "-a-^", kind: .subscription, message: "'a' is not allowed in a subscription line", offset: 1,
                  hint: subscriptionHint),
        ErrorCase(text: "^|", kind: .subscription, message: "'|' is not allowed in a subscription line", offset: 1,
                  hint: subscriptionHint),
        ErrorCase(text: "^--#", kind: .subscription, message: "'#' is not allowed in a subscription line", offset: 3,
                  hint: subscriptionHint),
        ErrorCase(text: "^{1}", kind: .subscription, message: "'{' is not allowed in a subscription line", offset: 1,
                  hint: subscriptionHint),
        ErrorCase(text: "(^x)", kind: .subscription, message: "'x' is not allowed in a subscription line", offset: 2,
                  hint: subscriptionHint),
        ErrorCase(text: "^ 1ms!", kind: .subscription, message: "'1' is not allowed in a subscription line", offset: 2,
                  hint: subscriptionHint),
        // demand
        ErrorCase(text: "2-a", kind: .demand, message: "'a' is not allowed in a demand line", offset: 2, hint: demandHint),
        ErrorCase(text: "-|", kind: .demand, message: "'|' is not allowed in a demand line", offset: 1, hint: demandHint),
        ErrorCase(text: "#", kind: .demand, message: "'#' is not allowed in a demand line", offset: 0, hint: demandHint),
        ErrorCase(text: "^2", kind: .demand, message: "'^' is not allowed in a demand line", offset: 0,
                  hint: "use a digit, {n} or *; a `subscribe` line sets when the subscriber attaches"),
        ErrorCase(text: "2!", kind: .demand, message: bang, offset: 1, hint: demandHint),
        ErrorCase(text: "-{-1}", kind: .demand, message: "a demand must be a non-negative whole number, not {-1}",
                  offset: 1, length: 4, hint: "write {n} to request .max(n), or * for .unlimited"),
        ErrorCase(text: "{ x }", kind: .demand, message: "a demand must be a non-negative whole number, not {x}",
                  offset: 0, length: 5, hint: "write {n} to request .max(n), or * for .unlimited"),
        ErrorCase(text: "{1.5}", kind: .demand, message: "a demand must be a non-negative whole number, not {1.5}",
                  offset: 0, length: 5, hint: "write {n} to request .max(n), or * for .unlimited"),
        ErrorCase(text: "{99999999999999999999}", kind: .demand, message: "the demand {99999999999999999999} is too large",
                  offset: 0, length: 22, hint: "use * to request an unlimited number of values"),
        ErrorCase(text: "{}", kind: .demand, message: "an empty literal '{}' is not a value", offset: 0, length: 2,
                  hint: "write {n} with a number n, or * for unlimited"),
        ErrorCase(text: "٣", kind: .demand, message: "'٣' is not allowed in a demand line", offset: 0, hint: demandHint),
    ]

    static let timeCases: [ErrorCase] = [
        ErrorCase(text: "1.5ms", kind: .hot, message: "1.5ms is not a whole number of frames (1 frame = 1ms)",
                  offset: 0, length: 5, hint: "use a multiple of 1ms"),
        ErrorCase(text: "a 1500us b", kind: .cold, message: "1500us is not a whole number of frames (1 frame = 1ms)",
                  offset: 2, length: 6, hint: "use a multiple of 1ms"),
        ErrorCase(text: "a 250ms b", kind: .expect, frame: 100_000_000,
                  message: "250ms is not a whole number of frames (1 frame = 100ms)", offset: 2, length: 5,
                  hint: "use a multiple of 100ms"),
        ErrorCase(text: "^ 1s !", kind: .subscription, frame: 300_000_000,
                  message: "1s is not a whole number of frames (1 frame = 300ms)", offset: 2, length: 2,
                  hint: "use a multiple of 300ms"),
        ErrorCase(text: "2 1.5s", kind: .demand, frame: 1_000_000_000,
                  message: "1.5s is not a whole number of frames (1 frame = 1s)", offset: 2, length: 4,
                  hint: "use a multiple of 1s"),
        ErrorCase(text: "1.5ns", kind: .hot, frame: 1, message: "1.5ns is not a whole number of frames (1 frame = 1ns)",
                  offset: 0, length: 5, hint: "use a multiple of 1ns"),
        ErrorCase(text: "0.0000000000000000000001s", kind: .hot,
                  message: "0.0000000000000000000001s is not a whole number of frames (1 frame = 1ms)",
                  offset: 0, length: 25, hint: "use a multiple of 1ms"),
        ErrorCase(text: "1 99999999999999999999ms", kind: .hot,
                  message: "99999999999999999999ms is too long a time progression (time is counted in nanoseconds, up to about 292 years)",
                  offset: 2, length: 22, hint: "use a shorter time progression"),
        ErrorCase(text: "10000000000s", kind: .hot,
                  message: "10000000000s is too long a time progression (time is counted in nanoseconds, up to about 292 years)",
                  offset: 0, length: 12, hint: "use a shorter time progression"),
        ErrorCase(text: "1000000000000000ns -", kind: .hot, frame: 1,
                  message: "the timeline is too long: virtual time ends at frame 1000000000000000", offset: 19, hint: "use a shorter time progression"),
        ErrorCase(text: "999999999999999ns 2ns", kind: .hot, frame: 1,
                  message: "the timeline is too long: virtual time ends at frame 1000000000000000", offset: 18, length: 3,
                  hint: "use a shorter time progression"),
        ErrorCase(text: "9223372036854775807ns", kind: .hot, frame: 1,
                  message: "the timeline is too long: virtual time ends at frame 1000000000000000", offset: 0, length: 21,
                  hint: "use a shorter time progression"),
        ErrorCase(text: "a 1ms", kind: .hot, frame: 0,
                  message: "1ms cannot be counted in frames: the frame length must be positive", offset: 2, length: 3),
        ErrorCase(text: "a\nb", kind: .hot, message: "a marble timeline cannot contain a line break", offset: 1),
        ErrorCase(text: "a\r\nb", kind: .hot, message: "a marble timeline cannot contain a line break", offset: 1),
    ]

    @Test(arguments: groupCases + literalCases + lineKindCases + timeCases)
    func errorIsPrecise(_ example: ErrorCase) {
        let error = parseError(example.text, example.kind, frame: example.frame)
        #expect(error?.message == example.message)
        #expect(error?.offset == example.offset)
        #expect(error?.length == example.length)
        #expect(error?.hint == example.hint)
    }

    @Test func errorsStartInLowercaseOrAQuote() {
        for example in Self.groupCases + Self.literalCases + Self.lineKindCases + Self.timeCases {
            guard let first = parseError(example.text, example.kind, frame: example.frame)?.message.first else {
                Issue.record("no error for \(example)")
                continue
            }
            #expect(!first.isUppercase, "\(example)")
        }
    }

    @Test func theCliSketchErrorPointsAtTheDashInsideTheGroup() {
        let marbles = "-a-(b-c)-|"
        let error = parseError(marbles)
        #expect(error.map { Array(marbles)[$0.offset] } == "-")
        #expect(error.map { $0.offset } == 5)
    }

    @Test func errorDescriptionIncludesOffsetAndHint() {
        let error = MarbleSyntaxError(message: "a group cannot contain '-'", offset: 5, hint: "close it")
        #expect(error.description == "offset 5: a group cannot contain '-' (close it)")
        #expect(MarbleSyntaxError(message: "x", offset: 0, length: 0).length == 1)
    }

    @Test func durationHelperParsesWholeStrings() throws {
        #expect(try MarbleDuration.nanoseconds("100ms") == 100_000_000)
        #expect(try MarbleDuration.nanoseconds("1.5s") == 1_500_000_000)
        #expect(try MarbleDuration.nanoseconds("2m") == 120_000_000_000)
        #expect(try MarbleDuration.nanoseconds("7µs") == 7_000)
        #expect(try MarbleDuration.nanoseconds("0ns") == 0)
        #expect(try MarbleDuration.nanoseconds("ms") == nil)
        #expect(try MarbleDuration.nanoseconds("10 ms") == nil)
        #expect(try MarbleDuration.nanoseconds("10ms ") == nil)
        #expect(try MarbleDuration.nanoseconds("") == nil)
        #expect(throws: MarbleSyntaxError.self) { try MarbleDuration.nanoseconds("1.5ns") }
        #expect(throws: MarbleSyntaxError.self) { try MarbleDuration.nanoseconds("99999999999s") }
    }

    @Test func durationDescriptionsUseTheLargestExactUnit() {
        #expect(MarbleDuration.describe(nanoseconds: 1_000_000) == "1ms")
        #expect(MarbleDuration.describe(nanoseconds: 100_000_000) == "100ms")
        #expect(MarbleDuration.describe(nanoseconds: 1_000_000_000) == "1s")
        #expect(MarbleDuration.describe(nanoseconds: 60_000_000_000) == "60s")
        #expect(MarbleDuration.describe(nanoseconds: 1_500_000) == "1500us")
        #expect(MarbleDuration.describe(nanoseconds: 7) == "7ns")
    }
}
