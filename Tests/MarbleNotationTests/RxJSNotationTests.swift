import Testing
import MarbleNotation

/// Events as "frame:text" under an RxJS dialect.
private func rx(_ text: String, _ kind: MarbleLineKind = .hot, _ dialect: MarbleDialect = .rxjs, frame: Int64 = 1_000_000) throws -> [String] {
    try MarbleParser(frameNanoseconds: frame, dialect: dialect).parse(text, as: kind).events.map { "\($0.frame):\($0.event.printable.text)" }
}

private func rxError(_ text: String, _ kind: MarbleLineKind = .hot, _ dialect: MarbleDialect = .rxjs, frame: Int64 = 1_000_000) -> MarbleSyntaxError? {
    do {
        _ = try MarbleParser(frameNanoseconds: frame, dialect: dialect).parse(text, as: kind)
        return nil
    } catch {
        return error
    }
}

/// `notation rxjs` (RxJS's run mode) and `notation rxjs-legacy` (its legacy mode): the rules of
/// RxJS's `TestScheduler.parseMarbles` and `parseMarblesAsSubscriptions` (7.x and 6.x), each
/// pinned on strings of the shapes RxJS's own tests write.
@Suite("RxJS notations")
struct RxJSNotationTests {
    // MARK: Groups

    @Test func aGroupTakesAsManyFramesAsItsCharactersInBothModes() throws {
        // `(ab)` is four characters: its events at the '(' frame, the next event four frames on.
        #expect(try rx("-(ab)c|") == ["1:a", "1:b", "5:c", "6:|"])
        #expect(try rx("-(ab)c|", .hot, .rxjsLegacy) == ["1:a", "1:b", "5:c", "6:|"])
        // Natively a group is one frame.
        #expect(try summary("-(ab)c|") == ["1:a", "1:b", "2:c", "3:|"])
    }

    @Test func groupsAcceptWhatTheNativeNotationRefuses() throws {
        // '-' inside a group, an empty group, nested and unbalanced parentheses.
        #expect(try rx("(a-b)c") == ["0:a", "0:b", "5:c"])
        #expect(try rx("()a") == ["2:a"])
        #expect(try rx("(a(b)c") == ["0:a", "2:b", "5:c"])
        #expect(try rx("a)b") == ["0:a", "2:b"])
        #expect(try rx("(ab") == ["0:a", "0:b"])
        #expect(parseError("(a-b)c") != nil)
    }

    @Test func aGroupBeforeTheCaretDoesNotGroup() throws {
        // RxJS marks "no group" with -1: a group opened at a negative frame holds nothing together.
        #expect(try rx("(ab)^c") == ["-3:a", "-2:b", "1:c"])
        #expect(try rx("--(ab)-^-(cd)", .expect, .rxjsLegacy) == ["-4:a", "-3:b", "2:c", "2:d"])
    }

    // MARK: Spaces

    @Test func aSpaceIsAFrameInLegacyModeAndNothingInRunMode() throws {
        #expect(try rx("a b  c", .cold, .rxjsLegacy) == ["0:a", "2:b", "5:c"])
        #expect(try rx("a b  c", .cold, .rxjs) == ["0:a", "1:b", "2:c"])
        #expect(try rx("   ^  !", .subscription, .rxjsLegacy) == ["3:^", "6:!"])
        #expect(try rx("   ^  !", .subscription, .rxjs) == ["0:^", "1:!"])
    }

    @Test func onlyTheSpaceCharacterIsASpace() throws {
        // A tab is a value in RxJS.
        #expect(try rx("a\tb", .cold) == ["0:a", "1:\t", "2:b"])
        #expect(try rx("a\tb", .cold, .rxjsLegacy) == ["0:a", "1:\t", "2:b"])
    }

    // MARK: Time progressions

    @Test func aTimeProgressionNeedsASpaceAfterItsUnit() throws {
        #expect(try rx("a 10ms b") == ["0:a", "11:b"])
        // At the end of a line it is four values, as in RxJS.
        #expect(try rx("a 10ms") == ["0:a", "1:1", "2:0", "3:m", "4:s"])
        // And it must be first or follow a space.
        #expect(try rx("a10ms b") == ["0:a", "1:1", "2:0", "3:m", "4:s", "5:b"])
        #expect(try rx("10ms a") == ["10:a"])
        #expect(try rx("1s a 2m b") == ["1000:a", "121001:b"])
        #expect(try rx("1.5s a") == ["1500:a"])
        // Natively `a 10ms` is ten frames after `a`.
        #expect(try summary("a 10ms b") == ["0:a", "11:b"])
    }

    @Test func microsecondsAndNanosecondsAreValues() throws {
        #expect(try rx("a 5us b") == ["0:a", "1:5", "2:u", "3:s", "4:b"])
        #expect(try rx("a 5ns b") == ["0:a", "1:5", "2:n", "3:s", "4:b"])
    }

    @Test func legacyModeHasNoTimeProgressions() throws {
        #expect(try rx("10ms a", .cold, .rxjsLegacy) == ["0:1", "1:0", "2:m", "3:s", "5:a"])
    }

    @Test func aTimeProgressionCountsThroughTheFrameLength() throws {
        #expect(try rx("100ms a", .cold, .rxjs, frame: 10_000_000) == ["10:a"])
        // RxJS would put what follows at fractional frames: refused, with the reason.
        let error = try #require(rxError("10.2ms a", .cold))
        #expect(error.message == "10.2ms is not a whole number of frames (1 frame = 1ms); RxJS would count the events after it at fractional frames")
        #expect(error.offset == 0 && error.length == 6)
    }

    @Test func aTimeProgressionInsideAGroupMovesTheFramesAfterTheGroup() throws {
        #expect(try rx("(a 10ms b)c") == ["0:a", "0:b", "14:c"])
    }

    // MARK: Values

    @Test func everyOtherCharacterIsAValue() throws {
        #expect(try rx("{a}/b//c", .cold) == ["0:{", "1:a", "2:}", "3:/", "4:b", "5:/", "6:/", "7:c"])
        #expect(parseError("-}") != nil)
        // A Unicode scalar is a character, as RxJS 7 iterates code points.
        #expect(try rx("e\u{301}x", .cold).count == 3)
    }

    @Test func eventsAfterTheEndAreAccepted() throws {
        // RxJS accepts them; the native notation refuses them on cold and expect lines.
        #expect(try rx("--a--#--b--|", .cold) == ["2:a", "5:#", "8:b", "11:|"])
        #expect(try rx("-|-a", .expect) == ["1:|", "3:a"])
        #expect(parseError("--a--#--b--|", .cold) != nil)
    }

    @Test func anEmptyStringHasNoEvents() throws {
        #expect(try rx("", .hot) == [])
        #expect(try rx("", .subscription) == [])
        #expect(try rx("   ", .subscription) == [])
    }

    // MARK: ^ offsets

    @Test func frameZeroIsTheFirstCaretCountedInCharacters() throws {
        #expect(try rx("--a-^-b") == ["-2:a", "2:b"])
        // In run mode the characters before '^' count, interior spaces included, leading ones not.
        #expect(try rx("  a ^ b") == ["-2:a", "0:b"])
        #expect(try rx("  a ^ b", .hot, .rxjsLegacy) == ["-2:a", "2:b"])
        // A group before '^' counts its characters.
        let parsed = try MarbleParser(dialect: .rxjs).parse("-(ab)^-c", as: .hot)
        #expect(parsed.firstFrame == -5)
        #expect(parsed.zeroOffset == 5)
    }

    @Test func aSecondCaretIsAFrame() throws {
        #expect(try rx("-^-^-a") == ["4:a"])
        #expect(parseError("-^-^-a") != nil)
        #expect(try rx("-^-^-a", .expect, .rxjsLegacy) == ["4:a"])
    }

    @Test func streamingHandsFramesFromTheFirstCharacter() throws {
        var frames: [Int] = []
        let parsed = try MarbleParser(dialect: .rxjs).parse("a-^-b", as: .hot) { frames.append($0.frame) }
        #expect(parsed.firstFrame == -2)
        #expect(frames.map { $0 + parsed.firstFrame } == [-2, 2])
    }

    // MARK: Subscription strings

    @Test func subscriptionStrings() throws {
        #expect(try rx("--^---!", .subscription) == ["2:^", "6:!"])
        // '!' takes no frame; in a group both marks stand at the group's frame.
        #expect(try rx("-!^", .subscription) == ["1:^", "1:!"])
        #expect(try rx("--(^!)", .subscription) == ["2:^", "2:!"])
        #expect(try rx("^ 10ms !", .subscription) == ["0:^", "11:!"])
        // Without '^' there is no subscribe mark: the line's statement decides (subscribed at 0
        // for a subscribe line, left out for a `.subscriptions` line).
        #expect(try rx("------!", .subscription) == ["6:!"])
        #expect(try rx("------!", .subscription, .rxjsLegacy) == ["6:!"])
    }

    @Test func subscriptionErrorsAreRxJSs() throws {
        let second = try #require(rxError("^-^", .subscription))
        #expect(second.message == "RxJS refuses a second '^' in a subscription marble string (the first is at offset 0)")
        #expect(second.offset == 2)
        let bang = try #require(rxError("^-!-!", .subscription))
        #expect(bang.message == "RxJS refuses a second '!' in a subscription marble string (the first is at offset 2)")
        #expect(bang.offset == 4)
        let other = try #require(rxError("^-a-!", .subscription, .rxjsLegacy))
        #expect(other.message == "RxJS allows only '^', '!', '-', spaces, groups and time progressions in a subscription marble string, not 'a'")
        #expect(other.offset == 2)
        // RxJS reads '!' before '^', but no subscription ends before it starts.
        let before = try #require(rxError("-!-^", .subscription))
        #expect(before.message == "'!' stands at frame 1, before '^' at frame 2: RxJS reads the line, but no subscription ends before it starts")
        #expect(before.offset == 1)
    }

    // MARK: RxJS's errors on lines of events

    @Test func markersRxJSRefuses() throws {
        let caret = try #require(rxError("--^--a", .cold))
        #expect(caret.message == "RxJS refuses '^' in a cold marble string: a cold observable has no subscription offset; it starts at each subscription")
        #expect(caret.offset == 2)
        let coldBang = try #require(rxError("--a--!", .cold, .rxjsLegacy))
        #expect(coldBang.message == "RxJS refuses '!' in a cold marble string: a cold observable has no unsubscription marker")
        #expect(coldBang.offset == 5)
        let hotBang = try #require(rxError("-^-a-!", .hot))
        #expect(hotBang.message == "RxJS refuses '!' in a hot marble string: a hot observable has no unsubscription marker")
        #expect(hotBang.offset == 5)
        let expectBang = try #require(rxError("-a-!", .expect))
        #expect(expectBang.message == "RxJS refuses '!' in an expected marble string: only a subscription marble string has an unsubscription marker")
        // Both on a cold line: RxJS names '^' first.
        #expect(rxError("-!-^", .cold)?.offset == 3)
    }

    // MARK: Demand lines (no RxJS counterpart)

    @Test func demandLinesCountFramesAsTheNotationDoes() throws {
        #expect(try rx("2 - 1", .demand, .rxjsLegacy) == ["0:2", "4:1"])
        #expect(try rx("2 - 1", .demand, .rxjs) == ["0:2", "2:1"])
        #expect(try rx("{10}-*", .demand) == ["0:{10}", "5:*"])
        #expect(rxError("-a", .demand)?.message == "'a' is not allowed in a demand line")
        #expect(rxError("-^", .demand)?.message == "'^' is not allowed in a demand line")
        #expect(rxError("{x}", .demand)?.message == "a demand must be a non-negative whole number, not {x}")
    }

    @Test func offsetsCountCharacters() throws {
        let parsed = try MarbleParser(dialect: .rxjs).parse("é-a", as: .cold)
        #expect(parsed.events.map(\.offset) == [0, 2])
    }
}

/// The native notation reads RxJS's idioms where they cannot be misread.
@Suite("RxJS idioms in the native notation")
struct NativeRxJSIdiomTests {
    @Test func aCancelWithoutACaretIsSubscribedAtFrameZero() throws {
        #expect(try summary("------!", .subscription) == ["0:^", "6:!"])
        #expect(try summary("!", .subscription) == ["0:^", "0:!"])
        #expect(try summary("- 5ms !", .subscription) == ["0:^", "6:!"])
        // '!' before a later '^' is still an error.
        #expect(parseError("-!^", .subscription)?.message == "'!' before '^': a subscription cannot end before it starts")
    }
}
