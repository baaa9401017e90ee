import Testing
import MarbleNotation

/// A megabyte of marble text must parse in linear time. The bounds are generous (debug builds,
/// busy machines); quadratic indexing would take minutes, not seconds.
@Suite("Long lines")
struct PerformanceTests {
    static let megabyte = 1 << 20

    func seconds(_ work: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try work()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @Test func megabyteOfValuesAndDashes() throws {
        let text = String(repeating: "-a", count: Self.megabyte / 2)
        var parsed: ParsedMarbles?
        let time = try seconds { parsed = try MarbleParser().parse(text, as: .hot) }
        #expect(parsed?.events.count == Self.megabyte / 2)
        #expect(parsed?.endFrame == Self.megabyte)
        #expect(parsed?.events.last?.offset == Self.megabyte - 1)
        #expect(time < 10, "took \(time)s")
    }

    @Test func megabyteLiteral() throws {
        let text = "-{\"" + String(repeating: "x}", count: Self.megabyte / 2) + "\"}-"
        var parsed: ParsedMarbles?
        let time = try seconds { parsed = try MarbleParser().parse(text, as: .hot) }
        #expect(parsed?.events.count == 1)
        #expect(parsed?.endFrame == 3)
        #expect(time < 10, "took \(time)s")
    }

    @Test func megabyteGroup() throws {
        let text = "(" + String(repeating: "ab", count: Self.megabyte / 2) + ")"
        var parsed: ParsedMarbles?
        let time = try seconds { parsed = try MarbleParser().parse(text, as: .hot) }
        #expect(parsed?.events.count == Self.megabyte)
        #expect(parsed?.endFrame == 1)
        #expect(time < 10, "took \(time)s")
    }

    @Test func megabyteOfDigitsAndSpacedTime() throws {
        let digits = "x" + String(repeating: "1", count: Self.megabyte) + "ms"
        let spaced = String(repeating: "1ms ", count: Self.megabyte / 4)
        var results: [ParsedMarbles] = []
        let time = try seconds {
            results.append(try MarbleParser().parse(digits, as: .hot))
            results.append(try MarbleParser().parse(spaced, as: .subscription))
        }
        #expect(results.first?.events.count == Self.megabyte + 3)
        #expect(results.last?.endFrame == Self.megabyte / 4)
        #expect(time < 20, "took \(time)s")
    }

    @Test func megabyteTimeProgressionIsAnErrorWithAShortMessage() {
        let text = String(repeating: "1", count: Self.megabyte) + "ms"
        let error = parseError(text)
        #expect(error?.offset == 0)
        #expect(error?.length == Self.megabyte + 2)
        #expect(error?.message == "1111111111111111…111111111111ms is too long a time progression (time is counted in nanoseconds, up to about 292 years)")
    }

    @Test func megabyteErrorAtTheEnd() {
        let text = String(repeating: "-", count: Self.megabyte) + "!^"
        var error: MarbleSyntaxError?
        let time = seconds { error = parseError(text, .subscription) }
        #expect(error?.offset == Self.megabyte)
        #expect(time < 10, "took \(time)s")
    }

    @Test func renderingManyEvents() throws {
        let events: [(frame: Int, event: PrintableEvent)] = (0..<200_000).map { (($0 * 7) % 400_000, .value("a")) }
        var text = ""
        let time = try seconds {
            text = MarblePrinter.render(events, compressingGapsLongerThan: 3)
            _ = try MarbleParser().parse(text, as: .hot)
        }
        #expect(!text.isEmpty)
        #expect(time < 20, "took \(time)s")
    }
}
