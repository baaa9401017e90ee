import Testing
import MarbleNotation

@Suite("Printing")
struct PrinterTests {
    /// `braced(_:)` of an Int writes its digits itself: the same text as bracing `String(n)`.
    @Test func bracedIntegersAreBracedDecimalText() {
        var values = [0, 1, -1, 9, 10, -10, 99, 100, 12_345, -67_890, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        while power <= Int.max / 10 {
            power *= 10
            values += [power, power - 1, -power, 1 - power]
        }
        var generator = SystemRandomNumberGenerator()
        values += (0..<200).map { _ in Int.random(in: .min ... .max, using: &generator) }
        for value in values { #expect(ValueToken.braced(value) == ValueToken.braced(String(value)), "\(value)") }
    }

    @Test func eventTexts() {
        #expect(PrintableEvent.value("a").text == "a")
        #expect(PrintableEvent.value("{42}").text == "{42}")
        #expect(PrintableEvent.finished.text == "|")
        #expect(PrintableEvent.failure(nil).text == "#")
        #expect(PrintableEvent.failure("{\"boom\"}").text == "#{\"boom\"}")
        #expect(PrintableEvent.subscribe.text == "^")
        #expect(PrintableEvent.cancel.text == "!")
        #expect(PrintableEvent.request(.max(0)).text == "0")
        #expect(PrintableEvent.request(.max(9)).text == "9")
        #expect(PrintableEvent.request(.max(10)).text == "{10}")
        #expect(PrintableEvent.request(.unlimited).text == "*")
    }

    @Test func parsedEventsBecomePrintable() throws {
        let events = try MarbleParser().parse("a{1}|#{\"x\"}#", as: .hot).events.map(\.event.printable)
        #expect(events == [.value("a"), .value("{1}"), .finished, .failure("{\"x\"}"), .failure(nil)])
        #expect(MarbleEvent.subscribe.printable == .subscribe)
        #expect(MarbleEvent.cancel.printable == .cancel)
        #expect(MarbleEvent.request(.max(3)).printable == .request(.max(3)))
    }

    // MARK: cells

    @Test func cellsHaveOneEntryPerFrame() {
        let events: [(frame: Int, event: PrintableEvent)] = [(0, .value("a")), (2, .value("b")), (2, .finished)]
        #expect(MarblePrinter.cells(events, frames: 0..<4) == ["a", "-", "(b|)", "-"])
    }

    @Test func cellsCanStartBeforeZeroAndIgnoreEventsOutsideTheRange() {
        let events: [(frame: Int, event: PrintableEvent)] = [(-5, .value("x")), (0, .value("a")), (9, .value("z"))]
        #expect(MarblePrinter.cells(events, frames: -2..<2) == ["-", "-", "a", "-"])
        #expect(MarblePrinter.cells(events, frames: 3..<3) == [])
    }

    @Test func cellsKeepTheGivenOrderWithinAFrame() {
        let events: [(frame: Int, event: PrintableEvent)] = [(1, .finished), (0, .value("b")), (1, .value("a"))]
        #expect(MarblePrinter.cells(events, frames: 0..<2) == ["b", "(|a)"])
    }

    @Test func cellsOfSeveralStreamsAlignFrameByFrame() throws {
        let source: [(frame: Int, event: PrintableEvent)] = [(1, .value("{42}")), (3, .value("b")), (4, .finished)]
        let result: [(frame: Int, event: PrintableEvent)] = [(1, .value("A")), (4, .value("B")), (4, .finished)]
        let top = MarblePrinter.cells(source, frames: 0..<5)
        let bottom = MarblePrinter.cells(result, frames: 0..<5)
        #expect(top == ["-", "{42}", "-", "b", "|"])
        #expect(bottom == ["-", "A", "-", "-", "(B|)"])
        // Padding each column to its widest cell lines both streams up.
        let widths = zip(top, bottom).map { Swift.max($0.0.count, $0.1.count) }
        func padded(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.0 + String(repeating: " ", count: $0.1 - $0.0.count) }.joined()
        }
        #expect(padded(top) == "-{42}-b|   ")
        #expect(padded(bottom) == "-A   --(B|)")
        #expect(try MarbleParser().parse(padded(top), as: .hot).events.map(\.frame) == [1, 3, 4])
        #expect(try MarbleParser().parse(padded(bottom), as: .expect).events.map(\.frame) == [1, 4, 4])
    }

    // MARK: render

    @Test func renderWritesCanonicalText() {
        let events: [(frame: Int, event: PrintableEvent)] = [(1, .value("a")), (3, .value("b")), (5, .value("c")), (5, .finished)]
        #expect(MarblePrinter.render(events) == "-a-b-(c|)")
    }

    @Test func renderSortsByFrameButKeepsOrderWithinAFrame() {
        let events: [(frame: Int, event: PrintableEvent)] = [(2, .value("c")), (0, .value("a")), (2, .finished)]
        #expect(MarblePrinter.render(events) == "a-(c|)")
    }

    @Test func renderThroughALastFrame() {
        #expect(MarblePrinter.render([(1, .value("a"))], through: 4) == "-a---")
        #expect(MarblePrinter.render([(3, .value("a"))], through: 1) == "---a")
        #expect(MarblePrinter.render([]) == "")
        #expect(MarblePrinter.render([], through: 2) == "---")
        #expect(MarblePrinter.render([], through: -1) == "")
        #expect(MarblePrinter.render([], through: 0) == "-")
    }

    @Test func renderMarksZeroWhenThereIsNegativeTime() {
        #expect(MarblePrinter.render([(-2, .value("a")), (2, .value("b"))]) == "a-^-b")
        #expect(MarblePrinter.render([(-1, .value("a")), (0, .value("b"))]) == "a(^b)")
        #expect(MarblePrinter.render([(-1, .value("a")), (0, .value("b")), (0, .finished)]) == "a(^b|)")
        #expect(MarblePrinter.render([(-3, .value("a"))]) == "a--^")
        #expect(MarblePrinter.render([(-3, .value("a"))], through: -2) == "a--^")
        #expect(MarblePrinter.render([(-1, .value("a"))], through: 2) == "a^--")
    }

    @Test func renderSubscriptionAndDemandLines() {
        #expect(MarblePrinter.render([(1, .subscribe), (3, .cancel)]) == "-^-!")
        #expect(MarblePrinter.render([(0, .subscribe), (0, .cancel)]) == "(^!)")
        #expect(MarblePrinter.render([(4, .subscribe)], through: 10) == "----^------")
        #expect(MarblePrinter.render([(0, .request(.max(2))), (7, .request(.max(1)))], through: 11) == "2------1----")
        #expect(MarblePrinter.render([(0, .request(.max(12))), (1, .request(.unlimited))]) == "{12}*")
    }

    @Test func renderFailures() {
        #expect(MarblePrinter.render([(1, .value("A")), (5, .failure("{\"division by zero\"}"))]) == "-A---#{\"division by zero\"}")
        #expect(MarblePrinter.render([(0, .failure(nil))]) == "#")
    }

    // MARK: gap compression

    @Test func longGapsBecomeTimeProgressions() {
        let events: [(frame: Int, event: PrintableEvent)] = [(0, .value("a")), (1001, .value("b"))]
        #expect(MarblePrinter.render(events, compressingGapsLongerThan: 10) == "a 1000ms b")
        #expect(MarblePrinter.render(events, compressingGapsLongerThan: 1000) == "a" + String(repeating: "-", count: 1000) + "b")
        #expect(MarblePrinter.render(events, compressingGapsLongerThan: 999) == "a 1000ms b")
    }

    @Test func gapsAreCompressedOnlyWhenLongerThanTheLimit() {
        let events: [(frame: Int, event: PrintableEvent)] = [(0, .value("a")), (4, .value("b")), (9, .value("c"))]
        #expect(MarblePrinter.render(events, compressingGapsLongerThan: 3) == "a---b 4ms c")
        #expect(MarblePrinter.render(events, compressingGapsLongerThan: 0) == "a 3ms b 4ms c")
        #expect(MarblePrinter.render([(0, .value("a")), (1, .value("b"))], compressingGapsLongerThan: 0) == "ab")
    }

    @Test func compressedGapUnitFollowsTheFrameLength() {
        let events: [(frame: Int, event: PrintableEvent)] = [(0, .value("a")), (51, .value("b"))]
        #expect(MarblePrinter.render(events, frameNanoseconds: 100_000_000, compressingGapsLongerThan: 5) == "a 5000ms b")
        #expect(MarblePrinter.render(events, frameNanoseconds: 1_000_000_000, compressingGapsLongerThan: 5) == "a 50s b")
        #expect(MarblePrinter.render(events, frameNanoseconds: 1_500_000, compressingGapsLongerThan: 5) == "a 75000us b")
        #expect(MarblePrinter.render(events, frameNanoseconds: 7, compressingGapsLongerThan: 5) == "a 350ns b")
    }

    @Test func compressedGapsAtTheEdgesHaveNoOuterSpace() {
        #expect(MarblePrinter.render([(1000, .value("a"))], compressingGapsLongerThan: 10) == "1000ms a")
        #expect(MarblePrinter.render([(0, .value("a"))], through: 100, compressingGapsLongerThan: 10) == "a 100ms")
        #expect(MarblePrinter.render([], through: 99, compressingGapsLongerThan: 10) == "100ms")
    }

    @Test func compressionAroundTheZeroMark() throws {
        let events: [(frame: Int, event: PrintableEvent)] = [(-50, .value("a")), (50, .value("b"))]
        let text = MarblePrinter.render(events, compressingGapsLongerThan: 10)
        #expect(text == "a 49ms ^ 49ms b")
        #expect(try summary(text) == ["-50:a", "50:b"])
    }

    @Test func compressedTextParsesBack() throws {
        let events: [(frame: Int, event: PrintableEvent)] = [(0, .value("a")), (1001, .value("b")), (1002, .finished)]
        for frame: Int64 in [1, 1_000, 1_000_000, 100_000_000, 1_500_000, 1_000_000_000] {
            let text = MarblePrinter.render(events, frameNanoseconds: frame, compressingGapsLongerThan: 10)
            #expect(try summary(text, .expect, frame: frame) == ["0:a", "1001:b", "1002:|"], "\(text)")
        }
    }

    @Test func hugeGapsAreSplitSoEveryProgressionFitsInNanoseconds() throws {
        let far = Int(Int64.max / 1_000_000) + 5
        let events: [(frame: Int, event: PrintableEvent)] = [(0, .value("a")), (far, .value("b"))]
        let text = MarblePrinter.render(events, compressingGapsLongerThan: 10)
        #expect(text.split(separator: " ").count == 4)
        #expect(try summary(text) == ["0:a", "\(far):b"])
    }

    // MARK: values that would read as time

    @Test func valuesThatWouldReadAsTimeAreDisambiguated() throws {
        let ones: [(frame: Int, event: PrintableEvent)] = [(0, .value("1")), (1, .value("s"))]
        #expect(MarblePrinter.render(ones) == "(1)s")
        #expect(try summary("(1)s") == ["0:1", "1:s"])

        let minutes: [(frame: Int, event: PrintableEvent)] = [(0, .value("a")), (20, .value("5")), (21, .value("m"))]
        let compressed = MarblePrinter.render(minutes, compressingGapsLongerThan: 5)
        #expect(compressed == "a 19ms (5)m")
        #expect(try summary(compressed) == ["0:a", "20:5", "21:m"])

        let decimal: [(frame: Int, event: PrintableEvent)] = [(0, .value("1")), (1, .value(".")), (2, .value("5")), (3, .value("m")), (4, .value("s"))]
        #expect(MarblePrinter.render(decimal) == "(1).5ms")
        // Not ambiguous: left alone.
        #expect(MarblePrinter.render([(0, .value("1")), (1, .value("x"))]) == "1x")
        #expect(MarblePrinter.render([(0, .value("1")), (2, .value("s"))]) == "1-s")
        #expect(MarblePrinter.render([(1, .value("1")), (2, .value("s"))]) == "-1s")
    }

    @Test func bareFailureBeforeALiteralIsDisambiguated() throws {
        let events: [(frame: Int, event: PrintableEvent)] = [(0, .failure(nil)), (1, .value("{\"x\"}"))]
        #expect(MarblePrinter.render(events) == "(#){\"x\"}")
        #expect(try summary("(#){\"x\"}") == ["0:#", "1:{\"x\"}"])
        #expect(MarblePrinter.render([(0, .failure(nil)), (1, .value("a"))]) == "#a")
        #expect(MarblePrinter.render([(0, .failure(nil)), (2, .value("{1}"))]) == "#-{1}")
        #expect(MarblePrinter.render([(0, .failure(nil)), (1, .failure("{1}"))]) == "##{1}")
        #expect(MarblePrinter.render([(0, .failure(nil)), (9, .value("{1}"))], compressingGapsLongerThan: 2) == "# 8ms {1}")
        let grouped: [(frame: Int, event: PrintableEvent)] = [(0, .failure(nil)), (0, .value("{1}")), (0, .failure(nil)), (0, .failure("{2}"))]
        #expect(MarblePrinter.render(grouped) == "(# {1}##{2})")
        #expect(MarblePrinter.cells(grouped, frames: 0..<1) == ["(# {1}##{2})"])
        #expect(try summary("(# {1}##{2})") == ["0:#", "0:{1}", "0:#", "0:#{2}"])
        #expect(MarblePrinter.render([(-1, .value("a")), (0, .failure(nil)), (0, .value("{1}"))]) == "a(^# {1})")
    }
}
