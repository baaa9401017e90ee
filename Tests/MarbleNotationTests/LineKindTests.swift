import Testing
import MarbleNotation

@Suite("Demand and subscription lines")
struct LineKindTests {
    @Test func demandDigitsBracesAndStar() throws {
        let parsed = try MarbleParser().parse("2------1----", as: .demand)
        #expect(parsed.events == [
            TimedMarbleEvent(frame: 0, event: .request(.max(2)), offset: 0),
            TimedMarbleEvent(frame: 7, event: .request(.max(1)), offset: 7),
        ])
        #expect(parsed.endFrame == 12)
        #expect(parsed.zeroOffset == nil)
        #expect(try summary("*", .demand) == ["0:*"])
        #expect(try summary("0-9", .demand) == ["0:0", "2:9"])
        #expect(try summary("-{12}-{ 3 }", .demand) == ["1:{12}", "3:3"])
        #expect(try summary("{0}", .demand) == ["0:0"])
        #expect(try summary("(2*)", .demand) == ["0:2", "0:*"])
        #expect(try summary("2 10ms 1", .demand) == ["0:2", "11:1"])
        #expect(try summary("12", .demand) == ["0:1", "1:2"])
    }

    @Test func demandRequestValues() throws {
        let events = try MarbleParser().parse("{1000}*", as: .demand).events.map(\.event)
        #expect(events == [.request(.max(1000)), .request(.unlimited)])
    }

    @Test func subscriptionMarksAreFrames() throws {
        let parsed = try MarbleParser().parse("-^-!", as: .subscription)
        #expect(parsed.events == [
            TimedMarbleEvent(frame: 1, event: .subscribe, offset: 1),
            TimedMarbleEvent(frame: 3, event: .cancel, offset: 3),
        ])
        #expect(parsed.firstFrame == 0)
        #expect(parsed.zeroOffset == nil)
        #expect(parsed.endFrame == 4)
    }

    @Test func subscriptionGroupPutsBothAtOneFrame() throws {
        #expect(try summary("(^!)", .subscription) == ["0:^", "0:!"])
        #expect(try summary("--( ^ ! )--", .subscription) == ["2:^", "2:!"])
    }

    @Test func subscriptionWithTime() throws {
        #expect(try summary("^ 10ms !", .subscription) == ["0:^", "11:!"])
        #expect(try summary("500ms ^ 1s !", .subscription) == ["500:^", "1501:!"])
    }

    @Test func subscriptionWithoutMarksMeansNeverSubscribed() throws {
        let parsed = try MarbleParser().parse("------", as: .subscription)
        #expect(parsed.events.isEmpty)
        #expect(parsed.endFrame == 6)
        #expect(try MarbleParser().parse("", as: .subscription).events.isEmpty)
    }

    @Test func subscriptionWithoutCancel() throws {
        let parsed = try MarbleParser().parse("----^------", as: .subscription)
        #expect(parsed.events == [TimedMarbleEvent(frame: 4, event: .subscribe, offset: 4)])
        #expect(parsed.endFrame == 11)
    }

    @Test(arguments: [MarbleLineKind.hot, .cold, .expect])
    func streamLinesAcceptEveryStreamToken(_ kind: MarbleLineKind) throws {
        #expect(try summary("-a-{1}-(b{\"c\"})-#{\"e\"}", kind)
            == ["1:a", "3:{1}", "5:b", "5:{\"c\"}", "7:#{\"e\"}"])
    }
}

@Suite("The worked examples of the design brief")
struct WorkedExampleTests {
    @Test func debounce() throws {
        #expect(try summary("-a-b-c-----d--e-|") == ["1:a", "3:b", "5:c", "11:d", "14:e", "16:|"])
        #expect(try summary("--------c-------|", .expect) == ["8:c", "16:|"])
    }

    @Test func combineLatest() throws {
        #expect(try summary("-a---b-----c--|") == ["1:a", "5:b", "11:c", "14:|"])
        #expect(try summary("---1---2-3----|") == ["3:1", "7:2", "9:3", "14:|"])
        #expect(try summary("---A-B-C-D-E--|", .expect) == ["3:A", "5:B", "7:C", "9:D", "11:E", "14:|"])
    }

    @Test func flatMapMaxPublishers() throws {
        #expect(try summary("-a-b--------c---|") == ["1:a", "3:b", "12:c", "16:|"])
        #expect(try summary("---x|", .cold) == ["3:x", "4:|"])
        #expect(try summary("----x----------x|", .expect) == ["4:x", "15:x", "16:|"])
    }

    @Test func switchToLatest() throws {
        #expect(try summary("------x--------x|", .expect) == ["6:x", "15:x", "16:|"])
        #expect(try summary("-^-!", .subscription) == ["1:^", "3:!"])
        #expect(try summary("---^---!", .subscription) == ["3:^", "7:!"])
        #expect(try summary("------------^---!", .subscription) == ["12:^", "16:!"])
    }

    @Test func currentValueSubject() throws {
        #expect(try summary("--l----d--|", .hot) == ["2:l", "7:d", "10:|"])
        #expect(try summary("----^------", .subscription) == ["4:^"])
        #expect(try summary("i-l----d--|", .expect) == ["0:i", "2:l", "7:d", "10:|"])
        #expect(try summary("----l--d--|", .expect) == ["4:l", "7:d", "10:|"])
    }

    @Test func demand() throws {
        #expect(try summary("-a-b-c-d-e-|") == ["1:a", "3:b", "5:c", "7:d", "9:e", "11:|"])
        #expect(try summary("2------1----", .demand) == ["0:2", "7:1"])
        #expect(try summary("-a-b---d---|", .expect) == ["1:a", "3:b", "7:d", "11:|"])
    }

    @Test func tryMapAndCatch() throws {
        #expect(try summary("-1-2-0-3-|") == ["1:1", "3:2", "5:0", "7:3", "9:|"])
        let inverse = try MarbleParser().parse("-A-B-#{\"division by zero\"}", as: .expect)
        #expect(inverse.events.last == TimedMarbleEvent(
            frame: 5, event: .failure(ValueToken(form: .literal("\"division by zero\""), offset: 6)), offset: 5))
        #expect(inverse.endFrame == 6)
        #expect(try summary("-A-B-(Z|)", .expect) == ["1:A", "3:B", "5:Z", "5:|"])
    }
}
