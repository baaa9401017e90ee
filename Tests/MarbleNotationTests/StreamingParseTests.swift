import Testing
import MarbleNotation

/// `parse(_:as:each:)` hands over the same events as `parse(_:as:)`, frames counted from the
/// first character (the result's `firstFrame` places them).
@Suite struct StreamingParseTests {
    @Test(arguments: [
        ("-a-(bc)-{42}|", MarbleLineKind.hot), ("--a-^-b-#{\"x\"}", .hot), ("a-b 10ms c|", .cold),
        ("-^-a--|", .expect), ("", .hot), ("-é-🙂-|", .cold),
    ])
    func streamedEventsMatchCollectedOnes(_ text: String, _ kind: MarbleLineKind) throws {
        let collected = try MarbleParser().parse(text, as: kind)
        var streamed: [TimedMarbleEvent] = []
        let summary = try MarbleParser().parse(text, as: kind) { streamed.append($0) }
        #expect(summary.events.isEmpty)
        #expect(summary.firstFrame == collected.firstFrame && summary.endFrame == collected.endFrame && summary.zeroOffset == collected.zeroOffset)
        let placed = streamed.map { TimedMarbleEvent(frame: $0.frame + summary.firstFrame, event: $0.event, offset: $0.offset) }
        #expect(placed == collected.events)
    }

    @Test func aSyntaxErrorStillThrowsAfterEarlierEventsWereHandedOver() {
        var streamed = 0
        #expect(throws: MarbleSyntaxError.self) {
            try MarbleParser().parse("-a-b-)", as: .hot) { _ in streamed += 1 }
        }
        #expect(streamed == 2)
    }

    /// `parse(_:as:integer:each:)`: plain integer literals come as Ints, every other event as a
    /// token; put back together they are the events `parse(_:as:)` reads.
    @Test(arguments: [
        ("-{1}{-2}{30}{0}{-0}|", MarbleLineKind.hot), ("--^-{7}-(a{8}{ 9 })-{042}{1.5}{1e3}#{3}", .hot),
        ("{123456789012345678}{1234567890123456789}{-123456789012345678}|", .cold), ("-^-{5}--|", .expect),
        ("-é-{4}-🙂{5}|", .cold), ("{}}", .hot), ("{-}{+1}{1_0}{\"1\"}{[1]}{4", .hot), ("{12345678901234567890123}|", .hot),
    ])
    func integersComeAsIntsAndTheRestAsTokens(_ text: String, _ kind: MarbleLineKind) {
        let collected = Result { () throws(MarbleSyntaxError) in try MarbleParser().parse(text, as: kind) }
        var integers: [(frame: Int, value: Int, offset: Int)] = []
        var rest: [TimedMarbleEvent] = []
        let summary = Result { () throws(MarbleSyntaxError) in
            try MarbleParser().parse(text, as: kind, integer: { integers.append(($0, $1, $2)) }) { rest.append($0) }
        }
        switch (collected, summary) {
        case (.success(let collected), .success(let summary)):
            #expect(summary.firstFrame == collected.firstFrame && summary.endFrame == collected.endFrame)
            var merged = rest + integers.map {
                TimedMarbleEvent(frame: $0.frame, event: .value(ValueToken(form: .literal(String($0.value)), offset: $0.offset)), offset: $0.offset)
            }
            merged.sort { $0.offset < $1.offset }
            let placed = merged.map { TimedMarbleEvent(frame: $0.frame + summary.firstFrame, event: $0.event, offset: $0.offset) }
            // The tokens of the integers, written back: `{-0}` reads as 0.
            let expected = collected.events.map { event -> TimedMarbleEvent in
                guard case .value(let token) = event.event, case .literal(let text) = token.form, text == "-0" else { return event }
                return TimedMarbleEvent(frame: event.frame, event: .value(ValueToken(form: .literal("0"), offset: token.offset)), offset: event.offset)
            }
            #expect(placed == expected)
        case (.failure(let collected), .failure(let summary)):
            #expect(collected == summary)
        default:
            Issue.record("one parse failed and the other did not: \(collected), \(summary)")
        }
    }

    @Test func anIntegerAfterTheEndOfAColdLineIsTheSameError() {
        #expect(throws: MarbleSyntaxError(message: "an event after '|' can never arrive; the stream has already finished", offset: 2,
                                          hint: "remove it, or move '|' after the last event")) {
            try MarbleParser().parse("-|{4}", as: .cold, integer: { _, _, _ in }) { _ in }
        }
    }

    @Test func plainIntegersAreTheDecimalOnes() {
        func read(_ text: String) -> Int? {
            var text = text
            return text.withUTF8(MarbleParser.plainInteger)
        }
        #expect(read("0") == 0 && read("42") == 42 && read("-7") == -7 && read("-0") == 0)
        #expect(read("123456789012345678") == 123_456_789_012_345_678 && read("-123456789012345678") == -123_456_789_012_345_678)
        for text in ["", "-", "007", "1_000", "+5", "1.5", "1e3", "0x10", "1234567890123456789", " 4", "4 ", "--4", "00", "-007", "4-", "1-2", "٣", ":"] {
            #expect(read(text) == nil, "\(text)")
        }
    }
}
