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
}
