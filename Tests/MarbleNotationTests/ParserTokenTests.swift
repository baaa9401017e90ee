import Testing
import MarbleNotation

@Suite("Parsing tokens")
struct ParserTokenTests {
    @Test func emptyTextHasNoEventsAndNoFrames() throws {
        let parsed = try MarbleParser().parse("", as: .hot)
        #expect(parsed == ParsedMarbles(events: [], zeroOffset: nil, firstFrame: 0, endFrame: 0))
    }

    @Test func dashesOnlyPassTime() throws {
        let parsed = try MarbleParser().parse("----", as: .hot)
        #expect(parsed.events.isEmpty)
        #expect(parsed.firstFrame == 0)
        #expect(parsed.endFrame == 4)
    }

    @Test func valuesFinishedAndGroupsGetFramesAndOffsets() throws {
        let parsed = try MarbleParser().parse("-a-b-(c|)", as: .hot)
        #expect(parsed.events == [
            TimedMarbleEvent(frame: 1, event: name("a", at: 1), offset: 1),
            TimedMarbleEvent(frame: 3, event: name("b", at: 3), offset: 3),
            TimedMarbleEvent(frame: 5, event: name("c", at: 6), offset: 6),
            TimedMarbleEvent(frame: 5, event: .finished, offset: 7),
        ])
        #expect(parsed.zeroOffset == nil)
        #expect(parsed.firstFrame == 0)
        #expect(parsed.endFrame == 6)
    }

    @Test(arguments: [
        "a", "z", "A", "Z", "0", "9", "*", ".", ",", ";", ":", "'", "\"", "?", "+", "=", "_", "~", "/", "\\",
        "é", "ß", "µ", "λ", "日", "👍", "👍🏽", "🇸🇪", "👨‍👩‍👧",
    ] as [Character])
    func everyNonReservedCharacterIsAValue(_ character: Character) throws {
        let parsed = try MarbleParser().parse("-" + String(character) + "-", as: .hot)
        #expect(parsed.events == [TimedMarbleEvent(frame: 1, event: name(character, at: 1), offset: 1)])
        #expect(parsed.endFrame == 3)
    }

    @Test func offsetsCountCharactersNotScalars() throws {
        let parsed = try MarbleParser().parse("👍🏽-é-a", as: .hot)
        #expect(parsed.events.map(\.offset) == [0, 2, 4])
        #expect(parsed.events.map(\.frame) == [0, 2, 4])
    }

    @Test func finishedAndBareFailure() throws {
        #expect(try MarbleParser().parse("--|", as: .hot).events == [TimedMarbleEvent(frame: 2, event: .finished, offset: 2)])
        #expect(try MarbleParser().parse("-#", as: .hot).events == [TimedMarbleEvent(frame: 1, event: .failure(nil), offset: 1)])
    }

    @Test func failureWithALiteral() throws {
        let parsed = try MarbleParser().parse("-#{\"boom\"}-", as: .hot)
        #expect(parsed.events == [
            TimedMarbleEvent(frame: 1, event: .failure(ValueToken(form: .literal("\"boom\""), offset: 2)), offset: 1),
        ])
        #expect(parsed.endFrame == 3)
    }

    @Test func failureFollowedBySpaceThenBraceIsTwoTokens() throws {
        #expect(try summary("# {1}") == ["0:#", "1:{1}"])
    }

    struct LiteralCase: Sendable, CustomStringConvertible {
        var text: String
        var literal: String
        var description: String { text }
    }

    @Test(arguments: [
        LiteralCase(text: "{42}", literal: "42"),
        LiteralCase(text: "{ 42 }", literal: "42"),
        LiteralCase(text: "{\t-1.5 }", literal: "-1.5"),
        LiteralCase(text: "{\"hello\"}", literal: "\"hello\""),
        LiteralCase(text: "{true}", literal: "true"),
        LiteralCase(text: "{nil}", literal: "nil"),
        LiteralCase(text: "{[1, 2]}", literal: "[1, 2]"),
        LiteralCase(text: "{(\"a\", 1)}", literal: "(\"a\", 1)"),
        LiteralCase(text: "{\"a}b\"}", literal: "\"a}b\""),
        LiteralCase(text: "{\"a{b\"}", literal: "\"a{b\""),
        LiteralCase(text: "{\"say \\\"}\\\" now\"}", literal: "\"say \\\"}\\\" now\""),
        LiteralCase(text: "{\"back\\\\\"}", literal: "\"back\\\\\""),
        LiteralCase(text: "{{1}}", literal: "{1}"),
        LiteralCase(text: "{[1, {2}]}", literal: "[1, {2}]"),
        LiteralCase(text: "{(1, \")\")}", literal: "(1, \")\")"),
        LiteralCase(text: "{[\"]\", \"}\"]}", literal: "[\"]\", \"}\"]"),
        LiteralCase(text: "{\"x y\"}", literal: "\"x y\""),
        LiteralCase(text: "{a - b | c # d ^ e ! f}", literal: "a - b | c # d ^ e ! f"),
        LiteralCase(text: "{\"日本 👍🏽\"}", literal: "\"日本 👍🏽\""),
        LiteralCase(text: "{$0 > 9 ? \"many\" : String($0)}", literal: "$0 > 9 ? \"many\" : String($0)"),
    ])
    func literalsKeepTheirRawTrimmedText(_ example: LiteralCase) throws {
        let parsed = try MarbleParser().parse("-" + example.text + "-a", as: .hot)
        let afterLiteral = 1 + example.text.count
        #expect(parsed.events == [
            TimedMarbleEvent(frame: 1, event: literal(example.literal, at: 1), offset: 1),
            TimedMarbleEvent(frame: 3, event: name("a", at: afterLiteral + 1), offset: afterLiteral + 1),
        ])
        #expect(parsed.endFrame == 4)
    }

    @Test func horizontalWhitespaceIsIgnored() throws {
        let parsed = try MarbleParser().parse(" -\ta  - b\u{00A0}| ", as: .hot)
        #expect(parsed.events.map(\.frame) == [1, 3, 4])
        #expect(parsed.events.map(\.offset) == [3, 8, 10])
        #expect(parsed.endFrame == 5)
    }

    @Test func groupsPutEveryMemberAtOneFrame() throws {
        #expect(try summary("(ab)c") == ["0:a", "0:b", "1:c"])
        #expect(try summary("-( a  b )-c") == ["1:a", "1:b", "3:c"])
        #expect(try summary("({1}{\"x\"}#{\"e\"})") == ["0:{1}", "0:{\"x\"}", "0:#{\"e\"}"])
        #expect(try MarbleParser().parse("(abcdef)", as: .hot).endFrame == 1)
        #expect(try summary("(a)(b)") == ["0:a", "1:b"])
    }

    @Test func groupMemberOffsetsPointAtEachMember() throws {
        let parsed = try MarbleParser().parse("-(a b)", as: .hot)
        #expect(parsed.events.map(\.offset) == [2, 4])
    }

    @Test func caretMarksFrameZeroAndEarlierEventsAreNegative() throws {
        let parsed = try MarbleParser().parse("--a-^-b--|", as: .hot)
        #expect(parsed.events.map(\.frame) == [-2, 2, 5])
        #expect(parsed.zeroOffset == 4)
        #expect(parsed.firstFrame == -4)
        #expect(parsed.endFrame == 6)
    }

    @Test func caretAtTheStart() throws {
        let parsed = try MarbleParser().parse("^-a", as: .hot)
        #expect(parsed.events.map(\.frame) == [2])
        #expect(parsed.zeroOffset == 0)
        #expect(parsed.firstFrame == 0)
        #expect(parsed.endFrame == 3)
    }

    @Test func caretInsideAGroup() throws {
        let parsed = try MarbleParser().parse("a-(^b)-c", as: .expect)
        #expect(try summary("a-(^b)-c", .expect) == ["-2:a", "0:b", "2:c"])
        #expect(parsed.zeroOffset == 3)
        #expect(parsed.firstFrame == -2)
        #expect(parsed.endFrame == 3)
        #expect(try summary("(a^)") == ["0:a"])
        #expect(try MarbleParser().parse("(^)", as: .hot).endFrame == 1)
    }

    @Test func whitespaceBeforeCaretDoesNotShiftFrames() throws {
        #expect(try summary("-a -^-b|") == ["-2:a", "2:b", "3:|"])
    }

    @Test func hotLinesMayContinueAfterCompletion() throws {
        #expect(try summary("-a|b#c") == ["1:a", "2:|", "3:b", "4:#", "5:c"])
        #expect(try summary("(|a)") == ["0:|", "0:a"])
    }

    @Test func expectAndColdAllowTerminalAsLastMemberOfAGroup() throws {
        #expect(try summary("-A-B-(Z|)", .expect) == ["1:A", "3:B", "5:Z", "5:|"])
        #expect(try summary("(a#)", .cold) == ["0:a", "0:#"])
        #expect(try summary("-|---", .expect) == ["1:|"])
        #expect(try summary("-|---", .cold) == ["1:|"])
    }

    @Test func coldLinesStartAtTheirFirstCharacter() throws {
        let parsed = try MarbleParser().parse("---x|", as: .cold)
        #expect(parsed.events.map(\.frame) == [3, 4])
        #expect(parsed.firstFrame == 0)
        #expect(parsed.zeroOffset == nil)
        #expect(parsed.endFrame == 5)
    }

    @Test func charactersThatLookLikeTimeButAreAttachedAreValues() throws {
        #expect(try summary("a10ms") == ["0:a", "1:1", "2:0", "3:m", "4:s"])
        #expect(try summary("10ms|") == ["0:1", "1:0", "2:m", "3:s", "4:|"])
        #expect(try summary("-10ms") == ["1:1", "2:0", "3:m", "4:s"])
        #expect(try summary("10ms-") == ["0:1", "1:0", "2:m", "3:s"])
        #expect(try summary("(1s)") == ["0:1", "0:s"])
        #expect(try summary("( 1s)") == ["0:1", "0:s"])
        #expect(try summary("10 ms") == ["0:1", "1:0", "2:m", "3:s"])
        #expect(try summary("1.s") == ["0:1", "1:.", "2:s"])
        #expect(try summary(".5s") == ["0:.", "1:5", "2:s"])
        #expect(try summary("5h") == ["0:5", "1:h"])
        #expect(try summary("5msx") == ["0:5", "1:m", "2:s", "3:x"])
        #expect(try summary("1.5.5s") == ["0:1", "1:.", "2:5", "3:.", "4:5", "5:s"])
        #expect(try summary("x 1s{2}") == ["0:x", "1:1", "2:s", "3:{2}"])
    }

    @Test func standaloneTimeProgressions() throws {
        #expect(try summary("a 10ms b") == ["0:a", "11:b"])
        #expect(try MarbleParser().parse("10ms", as: .hot).endFrame == 10)
        #expect(try summary("a\t2s\tb") == ["0:a", "2001:b"])
        #expect(try summary("a 1.5s b") == ["0:a", "1501:b"])
        #expect(try summary("a 2m b") == ["0:a", "120001:b"])
        #expect(try summary("a 0ms b") == ["0:a", "1:b"])
        #expect(try summary("a 0.0s b") == ["0:a", "1:b"])
        #expect(try summary("a 3000us b") == ["0:a", "4:b"])
        #expect(try summary("a 3000µs b") == ["0:a", "4:b"])
        #expect(try summary("a 3000\u{03BC}s b") == ["0:a", "4:b"])
        #expect(try summary("a 2000000ns b") == ["0:a", "3:b"])
        #expect(try summary("a 10ms 5ms b") == ["0:a", "16:b"])
        #expect(try summary("1s a") == ["1000:a"])
    }

    @Test func timeProgressionsUseTheFrameLength() throws {
        #expect(try summary("a 1s b", frame: 100_000_000) == ["0:a", "11:b"])
        #expect(try summary("a 250us b", frame: 250_000) == ["0:a", "2:b"])
        #expect(try summary("a 5ns b", frame: 1) == ["0:a", "6:b"])
        #expect(try summary("a 1.5s b", frame: 500_000_000) == ["0:a", "4:b"])
        #expect(try summary("a 1m b", frame: 1_000_000_000) == ["0:a", "61:b"])
    }

    @Test func decimalsAreExact() throws {
        #expect(try summary("a 1.000000000000000000000000000s b") == ["0:a", "1001:b"])
        #expect(try summary("a 0.001s b") == ["0:a", "2:b"])
        #expect(try summary("a 0.1s b", frame: 100_000_000) == ["0:a", "2:b"])
        #expect(try summary("a 0.3s b", frame: 100_000_000) == ["0:a", "4:b"])
        #expect(try summary("a 0.00000000005m b", frame: 1) == ["0:a", "4:b"])
        #expect(try summary("a 000012ms b") == ["0:a", "13:b"])
    }

    /// Virtual time ends at frame 10^15 (`VirtualTimeEnd`): a line may reach it, not pass it.
    @Test func longestTimelineThatFits() throws {
        let parsed = try MarbleParser(frameNanoseconds: 1).parse("999999999999999ns a", as: .hot)
        #expect(parsed.endFrame == VirtualTimeEnd.last)
        #expect(parsed.events.map(\.frame) == [999_999_999_999_999])
        // `^` takes a frame too.
        let before = try MarbleParser(frameNanoseconds: 1).parse("a 999999999999998ns ^", as: .hot)
        #expect(before.firstFrame == 1 - VirtualTimeEnd.last)
        #expect(before.events.map(\.frame) == [1 - VirtualTimeEnd.last])
    }

    @Test func timeBeforeCaretGivesNegativeFirstFrame() throws {
        let parsed = try MarbleParser().parse("a 1s ^ b", as: .hot)
        #expect(parsed.firstFrame == -1001)
        #expect(parsed.events.map(\.frame) == [-1001, 1])
        #expect(parsed.endFrame == 2)
    }
}
