import Testing
import MarbleNotation

/// Megabyte-long lines parse correctly, to the last offset. How fast is measured by the
/// benchmark (`make bench`, W6), never asserted here: a timed test is noise on a busy machine.
@Suite("Long lines")
struct LongLineTests {
    static let megabyte = 1 << 20

    @Test func megabyteOfValuesAndDashes() throws {
        let text = String(repeating: "-a", count: Self.megabyte / 2)
        var parsed: ParsedMarbles?
        parsed = try MarbleParser().parse(text, as: .hot)
        #expect(parsed?.events.count == Self.megabyte / 2)
        #expect(parsed?.endFrame == Self.megabyte)
        #expect(parsed?.events.last?.offset == Self.megabyte - 1)
    }

    @Test func megabyteLiteral() throws {
        let text = "-{\"" + String(repeating: "x}", count: Self.megabyte / 2) + "\"}-"
        var parsed: ParsedMarbles?
        parsed = try MarbleParser().parse(text, as: .hot)
        #expect(parsed?.events.count == 1)
        #expect(parsed?.endFrame == 3)
    }

    @Test func megabyteGroup() throws {
        let text = "(" + String(repeating: "ab", count: Self.megabyte / 2) + ")"
        var parsed: ParsedMarbles?
        parsed = try MarbleParser().parse(text, as: .hot)
        #expect(parsed?.events.count == Self.megabyte)
        #expect(parsed?.endFrame == 1)
    }

    @Test func megabyteOfDigitsAndSpacedTime() throws {
        let digits = "x" + String(repeating: "1", count: Self.megabyte) + "ms"
        let spaced = String(repeating: "1ms ", count: Self.megabyte / 4)
        var results: [ParsedMarbles] = []
        results.append(try MarbleParser().parse(digits, as: .hot))
        results.append(try MarbleParser().parse(spaced, as: .subscription))
        #expect(results.first?.events.count == Self.megabyte + 3)
        #expect(results.last?.endFrame == Self.megabyte / 4)
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
        error = parseError(text, .subscription)
        #expect(error?.offset == Self.megabyte)
    }

    @Test func renderingManyEvents() throws {
        let events: [(frame: Int, event: PrintableEvent)] = (0..<200_000).map { (($0 * 7) % 400_000, .value("a")) }
        var text = ""
        text = MarblePrinter.render(events, compressingGapsLongerThan: 3)
        let parsed = try MarbleParser().parse(text, as: .hot)
        #expect(parsed.events.count == events.count)
    }
}

/// ASCII lines take a byte fast path; a line with one non-ASCII character takes the Character
/// path. Both must read the same events.
@Suite struct ASCIIFastPathTests {
    @Test(arguments: ["-a-{42}-{ 7 }-(b{\"x}\"})-#{\"boom\"}", "{[1, 2]}{(\"a\", 1)}{ -1.5 }|", "--1ms-{\"{\"}-|", "{a)}{b]}-^-c", "  -a - b  (cd) 2ms |"])
    func bothPathsReadTheSameEvents(_ line: String) throws {
        let ascii = try MarbleParser().parse(line, as: .hot)
        let mixed = try MarbleParser().parse(line + " é", as: .hot)
        #expect(Array(mixed.events.dropLast()) == ascii.events)
        #expect(mixed.zeroOffset == ascii.zeroOffset)
    }
}
