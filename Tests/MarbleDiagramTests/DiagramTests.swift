import Foundation
@testable import MarbleDiagram
import MarbleSpec
import Testing

@Suite("SVG marble diagrams")
struct DiagramTests {
    static let debounce = """
        frame 100ms
        test "debounce drops the pending value at completion"
          hot    typing   -a-b-c-----d--e-|
          let    query  = typing.debounce(for: .milliseconds(300), scheduler: RunLoop.main)
          expect query    --------c-------|
        """

    static let switchToLatest = """
        test "switchToLatest cancels the previous inner publisher"
          hot    taps     -a-b--------c---|
          cold   request  ---x|
          let    latest = taps.map { _ in request }.switchToLatest()
          expect latest   ------x--------x|
          expect request.subscriptions  -^-!
          expect request.subscriptions  ---^---!
          expect request.subscriptions  ------------^---!
        """

    // MARK: Standalone, escaped, deterministic

    @Test func aDiagramIsAStandaloneSVGWithATitleAndADescription() throws {
        let text = try svg(Self.debounce)
        try checkStandalone(text)
        let root = try parseXML(text)
        #expect(root.children[0].text == "debounce drops the pending value at completion")
        // The description spells every lane out as marble text.
        let description = root.children[1].text
        #expect(description.contains("typing (hot): -a-b-c-----d--e-|"))
        #expect(description.contains("query: --------c-------|"))
        #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(text.hasSuffix("</svg>\n"))
    }

    @Test func everyPieceOfTextIsEscaped() throws {
        let source = """
            test "escaping <b>bold</b> & 'quotes'"
              values s = "<script>alert('x')</script>"
              hot    input   -s-1-2-#{"</svg> & more"}
              let    small = input.filter { $0 != "<" && true }
              expect input   -s-1-2-#{"</svg> & more"}
            """
        let text = try svg(source, values: [NamedValue(name: "s", literal: "\"<script>alert('x')</script>\"")])
        #expect(!text.contains("<script"))
        #expect(!text.contains("<b>"))
        #expect(!text.contains("</svg> &"))
        #expect(text.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        try checkStandalone(text)
        let root = try parseXML(text)
        #expect(root.children[0].text == "escaping <b>bold</b> & 'quotes'")
        // The value is text: in the legend (too long for its marble) and in its marble's tooltip.
        #expect(root.classed("legend").contains { $0.allText.contains("s = \"<script>alert('x')</script>\"") })
        #expect(root.classed("value").contains { $0.title?.hasPrefix("s = \"<script>") == true })
        // The failure's message is in its tooltip and under its mark.
        let failure = try #require(root.classed("failure").first)
        #expect(failure.title?.contains("</svg> & more") == true)
        #expect(failure.elements("text").first?.text == "</svg> & more")
        // The operator box keeps `<` and `&&` as text.
        #expect(root.elements("text").contains { $0.text.contains("!= \"<\" && true") })
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        let first = try svg(Self.switchToLatest)
        let second = try svg(Self.switchToLatest)
        #expect(first == second)
        let values = [NamedValue(name: "A", literal: "(\"a\", 1)")]
        #expect(try svg(Self.debounce, values: values, options: DiagramOptions(theme: .dark)) == svg(Self.debounce, values: values, options: DiagramOptions(theme: .dark)))
    }

    @Test func numbersAreWrittenWithoutNoise() {
        #expect(SVG.number(12) == "12")
        #expect(SVG.number(12.5) == "12.5")
        #expect(SVG.number(0.125) == "0.13")
        #expect(SVG.number(-0.001) == "0")
        #expect(SVG.number(-3.05) == "-3.05")
        #expect(SVG.number(.nan) == "0")
    }

    // MARK: Time

    @Test func longIdleTimeIsSqueezedAndMarked() throws {
        let source = """
            test "a long idle stretch"
              hot    input   -1- 1s -2-|
              let    same  = input.map { $0 * 10 }
              expect same    -{10}- 1s -{20}-|
            """
        let squeezed = try parseXML(try svg(source))
        let width = try #require(squeezed.number("width"))
        #expect(width < 700, "a 1s progression at 1ms frames must not make a wide picture")
        // Every arrow and the ruler mark the break, and the ruler says how much time it hides.
        let breaks = squeezed.elements("path").filter { $0.title?.contains("without events, squeezed") == true }
        #expect(breaks.count == 3)
        // 1 and 2 are at frames 1 and 1004; two frames either side stay to scale.
        #expect(breaks[0].title == "999ms without events, squeezed (3ms (frame 3) to 1.002s (frame 1002))")
        #expect(squeezed.classed("time").first?.elements("text").contains { $0.text == "+999ms" } == true)
        #expect(squeezed.elements("text").contains { $0.text.contains("idle stretches squeezed") })
        // The values on each side of the break stay where their frames are, to scale around them.
        let marbles = squeezed.classed("value").compactMap { $0.elements("circle").first?.number("cx") }
        #expect(marbles.count == 4)
        #expect(marbles[1] - marbles[0] < 8 * 36)

        let unsqueezed = try parseXML(try svg(source, options: DiagramOptions(frameWidth: 36, compressIdleTime: false)))
        #expect(try #require(unsqueezed.number("width")) > 30_000)
    }

    @Test func shortGapsStayToScale() throws {
        let root = try parseXML(try svg(Self.debounce))
        #expect(!root.all.contains { $0.title?.contains("squeezed") == true })
        let xs = root.classed("value").compactMap { $0.elements("circle").first?.number("cx") }
        // a at frame 1, b at 3, c at 5, d at 11: equal time, equal distance.
        #expect(abs((xs[1] - xs[0]) - (xs[2] - xs[1])) < 0.02)
        #expect(abs((xs[3] - xs[2]) - 3 * (xs[1] - xs[0])) < 0.02)
    }

    @Test func theRulerLabelsTimeInTheTestsUnits() {
        #expect(TimeText.describe(frames: 0, frameNanoseconds: 100_000_000) == "0")
        #expect(TimeText.describe(frames: 3, frameNanoseconds: 100_000_000) == "300ms")
        #expect(TimeText.describe(frames: 16, frameNanoseconds: 100_000_000) == "1.6s")
        #expect(TimeText.describe(frames: 120, frameNanoseconds: 1_000_000_000) == "2min")
        #expect(TimeText.describe(frames: 5, frameNanoseconds: 250_000) == "1.25ms")
        #expect(TimeText.describe(frames: -2, frameNanoseconds: 1_000_000) == "-2ms")
    }

    // MARK: Events

    @Test func sameFrameEventsStackInOrderAndTheCompletionSharesTheirX() throws {
        let source = """
            test "a group"
              hot    input  -(abc|)
              expect input  -(abc|)
            """
        let root = try parseXML(try svg(source))
        let lane = try #require(root.classed("stream").first)
        let values = lane.classed("value")
        #expect(values.map { $0.elements("text").first?.text } == ["a", "b", "c"])
        let circles = values.compactMap { $0.elements("circle").first }
        let xs = Set(circles.compactMap { $0.number("cx") })
        #expect(xs.count == 1)
        let ys = circles.compactMap { $0.number("cy") }
        #expect(ys[0] < ys[1] && ys[1] < ys[2])
        #expect(abs((ys[1] - ys[0]) - (ys[2] - ys[1])) < 0.02)
        // The completion bar stands at the frame's x too, behind the first marble and taller
        // than it, so that completions of one frame line up across lanes.
        let bar = try #require(lane.classed("finish").first)
        #expect(bar.title == "finished at 1ms (frame 1)")
        let x = try #require(xs.first)
        #expect(bar.number("x1") == x)
        let radius = try #require(circles.first?.number("r"))
        #expect(try #require(bar.number("y1")) < ys[0] - radius)
        #expect(try #require(bar.number("y2")) > ys[0] + radius)
        let order = lane.all
        #expect(try #require(order.firstIndex { $0 === bar }) < #require(order.firstIndex { $0 === values[0] }))
    }

    @Test func aFailureIsAnXWithItsMessage() throws {
        let source = """
            test "failures"
              hot    input   -1-#{"boom"}
              hot    other   -#
              expect input   -1-#{"boom"}
              expect other   -#
            """
        let root = try parseXML(try svg(source))
        let failures = root.classed("failure")
        #expect(failures.count == 4)
        #expect(failures[0].title == "failed with \"boom\" at 3ms (frame 3)")
        #expect(failures[0].elements("text").first?.text == "boom")
        // Two crossing strokes.
        #expect(failures[0].elements("path").last?.attributes["d"]?.filter { $0 == "M" }.count == 2)
        // A bare `#` is the error "error": the mark says so in its tooltip, with no caption.
        let bare = try #require(failures.first { $0.title?.contains("frame 1") == true })
        #expect(bare.title == "failed with \"error\" at 1ms (frame 1)")
        #expect(bare.elements("text").isEmpty)
    }

    @Test func valuesOfTheSameValueShareAColourAcrossLanes() throws {
        let root = try parseXML(try svg(DiagramTests.switchToLatest))
        var fills: [String: Set<String>] = [:]
        for value in root.classed("value") {
            guard let label = value.elements("text").first?.text, let fill = value.elements("circle").first?.attributes["fill"] else { continue }
            fills[label, default: []].insert(fill)
        }
        #expect(fills["x"]?.count == 1)
        let distinct = Set(fills.values.compactMap(\.first))
        #expect(distinct.count == fills.count, "different values, different colours: \(fills)")
    }

    @Test func coloursDoNotDependOnTheProcess() {
        // FNV-1a of "a": fixed forever, unlike Swift's seeded Hasher.
        #expect(ValueColor.hash("a") == 0xE40C_292C)
        #expect(ValueColor.hex(hue: 0, saturation: 1, lightness: 0.5) == "#ff0000")
        let hues = ValueColor.hues(for: ["\"a\"", "\"b\"", "\"c\"", "1", "2"])
        let sorted = hues.values.sorted()
        for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(b - a >= 45) }
    }

    @Test func longLabelsWidenTheFramesThenAreCutAndExplained() throws {
        let source = """
            test "long labels"
              hot    input  -{"hello world"}-{"a much longer string value than fits"}-|
              expect input  -{"hello world"}-{"a much longer string value than fits"}-|
            """
        let root = try parseXML(try svg(source))
        let labels = root.classed("value").compactMap { $0.elements("text").first?.text }
        #expect(labels.contains("\"hello world\""))
        #expect(labels.contains { $0.hasSuffix("…") })
        #expect(root.classed("legend").first?.allText.contains("\"a much longer string value than fits\"") == true)
        // Pills, not circles, for labels longer than a circle holds.
        #expect(root.classed("value").allSatisfy { !$0.elements("rect").isEmpty })
    }

    @Test func namedValuesAreDrawnAsShortLiteralsOrExplainedInALegend() throws {
        let combine = """
            test "combineLatest"
              hot    letters  -a---b-----c--|
              hot    numbers  ---1---2-3----|
              let    pairs  = letters.combineLatest(numbers)
              values A = ("a", 1), B = ("b", 1), C = ("b", 2), D = ("b", 3), E = ("c", 3)
              expect pairs    ---A-B-C-D-E--|
            """
        let short = ["A": "(\"a\", 1)", "B": "(\"b\", 1)", "C": "(\"b\", 2)", "D": "(\"b\", 3)", "E": "(\"c\", 3)"]
            .sorted { $0.key < $1.key }.map { NamedValue(name: Character($0.key), literal: $0.value) }
        let inline = try parseXML(try svg(combine, values: short))
        let inlineLabels = inline.classed("value").compactMap { $0.elements("text").first?.text }
        #expect(inlineLabels.contains("(\"b\", 2)"))
        #expect(!inline.classed("legend").contains { $0.allText.contains(" = ") })

        let long = short.map { NamedValue(name: $0.name, literal: "(\"a long label\", 1)") }
        let legend = try parseXML(try svg(combine, values: long))
        let legendLabels = legend.classed("value").compactMap { $0.elements("text").first?.text }
        #expect(legendLabels.contains("C"))
        #expect(legend.classed("legend").first?.allText.contains("A = (\"a long label\", 1)") == true)
    }

    // MARK: Streams and boxes

    @Test func theOperatorBoxShowsThePipelineWithoutItsReceiverAndScheduler() throws {
        let root = try parseXML(try svg(Self.debounce))
        let texts = root.elements("text").map(\.text)
        #expect(texts.contains("debounce(for: .milliseconds(300))"))
        #expect(texts.contains("typing") && texts.contains("query"))
    }

    @Test func aBoxWhoseInputIsNotRightAboveItKeepsTheReceiver() throws {
        let source = """
            test "two derived from one"
              hot    typing  -a-b-|
              let    first = typing.map { $0 }
              let    second = typing.filter { $0 != "a" }
              expect first   -a-b-|
              expect second  ---b-|
            """
        let root = try parseXML(try svg(source))
        let boxes = root.all.filter { $0.attributes["class"] == "box" }.map { $0.elements("text").map(\.text).joined() }
        #expect(boxes == ["map { $0 }", "typing  .filter { $0 != \"a\" }"] || boxes == ["map { $0 }", "typing.filter { $0 != \"a\" }"])
        // The second box reads `typing`, two lanes up: a tap runs from it down to the box.
        let taps = root.classed("tap")
        #expect(taps.map(\.title) == ["typing is read here too"])
    }

    @Test func multiInputOperatorsHaveAllTheirInputsAbove() throws {
        let source = """
            test "merge"
              hot    a      -1---|
              hot    b      --2--|
              let    both = a.merge(with: b)
              expect both   -12--|
            """
        let root = try parseXML(try svg(source))
        let labels = root.elements("text").filter { $0.attributes["text-anchor"] == "end" && $0.attributes["font-size"] == "13" }.map(\.text)
        #expect(labels == ["a", "b", "both"])
        #expect(root.elements("text").map(\.text).contains("merge(with: b)"))
    }

    @Test func aSourceTheTestObservesShowsWhatItsSubscriberReceived() throws {
        let source = """
            test "demand"
              hot     ticks   -a-b-c-|
              demand  ticks   2------
              expect  ticks   -a-b---|
            """
        let root = try parseXML(try svg(source))
        let texts = root.elements("text").map(\.text)
        #expect(texts.contains("test subscriber"))
        #expect(texts.contains("received"))
        #expect(root.classed("stream").count == 2)
        #expect(root.classed("stream")[0].classed("value").count == 3)
        #expect(root.classed("stream")[1].classed("value").count == 2)
    }

    @Test func aDerivedStreamTheTestDoesNotObserveIsDashedAndSaysSo() throws {
        let source = """
            test "not observed"
              hot    input   -1-2-|
              let    double = input.map { $0 * 2 }
              let    plus = double.map { $0 + 1 }
              expect plus    -3-5-|
            """
        let root = try parseXML(try svg(source))
        let lanes = root.classed("stream")
        #expect(lanes.count == 3)
        #expect(lanes[1].elements("text").contains { $0.text == "not observed" })
        #expect(lanes[1].elements("line").first?.attributes["stroke-dasharray"] == "2 4")
    }

    // MARK: Subscriptions, cancellation, inner streams

    @Test func cancellationAndSubscriptionSpansAreMarked() throws {
        let source = """
            test "cancel"
              cold   left    -a--b--c|
              let    both  = left.map { $0 }
              subscribe both ^-----!
              expect both    -a--b--
            """
        let root = try parseXML(try svg(source))
        let spans = root.classed("subscription")
        #expect(spans.count == 2)
        #expect(spans.allSatisfy { $0.title == "subscribed at 0 (frame 0), cancelled at 6ms (frame 6)" })
        // The cancelled end is a slash in the cancellation colour (a finish is an upright bar),
        // and the cold source is cut there.
        #expect(spans[0].classed("cancel").first?.attributes["stroke"] == "#bc4c00")
        #expect(root.classed("cancel").contains { $0.title == "cancelled at 6ms (frame 6)" })
        // Nothing of the cold timeline after the cut is drawn.
        #expect(!root.classed("value").contains { $0.title?.contains("frame 7") == true })
    }

    @Test func aSubscriptionThatLastsTheWholeRunIsNotDrawn() throws {
        let root = try parseXML(try svg(Self.debounce))
        #expect(root.classed("subscription").isEmpty)
    }

    @Test func innerPublishersDropFromTheirSubscriptionToARowOfTheirOwnCutWhenCancelled() throws {
        let root = try parseXML(try svg(Self.switchToLatest))
        let instances = root.classed("instance")
        #expect(instances.map(\.title) == [
            "request subscribed at 1ms (frame 1), cancelled at 3ms (frame 3)",
            "request subscribed at 3ms (frame 3), ended at 7ms (frame 7)",
            "request subscribed at 12ms (frame 12), ended at 16ms (frame 16)",
        ])
        // The marks of each row are drawn after all the arrows. The first was cut before its
        // value: no marble, a cut mark.
        let marks = root.classed("instance-marks")
        #expect(marks.map { $0.attributes["data-row"] } == ["0", "1", "2"])
        #expect(marks[0].classed("value").isEmpty)
        #expect(marks[0].classed("cancel").contains { $0.title == "cancelled at 3ms (frame 3)" })
        // The second's value sits at the same x as the value switchToLatest published from it,
        // on its own row below where the arrow left (it drops straight down, then runs level).
        let inner = try #require(marks[1].classed("value").first?.elements("circle").first)
        let output = try #require(root.classed("stream").last?.classed("value").first?.elements("circle").first)
        #expect(inner.number("cx") == output.number("cx"))
        let origin = try #require(instances[1].elements("circle").first { $0.attributes["r"] == "3" })
        #expect(try #require(origin.number("cy")) < #require(inner.number("cy")))
        #expect(try #require(origin.number("cx")) < #require(inner.number("cx")))
        let path = try #require(instances[1].elements("path").first?.attributes["d"])
        #expect(path == "M\(origin.attributes["cx"] ?? "") \(origin.attributes["cy"] ?? "")V\(inner.attributes["cy"] ?? "")H\(inner.attributes["cx"] ?? "")"
                || path.hasPrefix("M\(origin.attributes["cx"] ?? "") \(origin.attributes["cy"] ?? "")V\(inner.attributes["cy"] ?? "")H"))
        // The cold source has no row of its own: it is drawn where it is used.
        #expect(root.classed("stream").count == 2)
        #expect(root.elements("text").contains { $0.text == "map { _ in request }.switchToLatest()" })
    }

    @Test func overlappingInnerPublishersGetTheirOwnLanes() throws {
        let source = """
            test "concurrent"
              hot    taps     -a-b-c------|
              cold   request  ---x--y|
              let    flat   = taps.flatMap { _ in request }
              expect flat     ----x-xxy-yy|
            """
        let root = try parseXML(try svg(source))
        let levels = root.classed("instance-marks").compactMap { $0.classed("value").last?.elements("circle").first?.number("cy") }
        #expect(levels.count == 3 && Set(levels).count == 3)
    }

    // MARK: Mismatch view

    @Test func aMismatchGhostsTheExpectedEventsAndNumbersTheDifferences() throws {
        let source = """
            frame 100ms
            test "debounce, expected wrongly"
              hot    typing   -a-b-c-----d--e-|
              let    query  = typing.debounce(for: .milliseconds(300), scheduler: RunLoop.main)
              expect query    ----c------d----|
            """
        let test = try report(source)
        #expect(test.outcome == .failed)
        let text = MarbleDiagram.svg(for: test, path: "diagram.marble")
        try checkStandalone(text)
        let root = try parseXML(text)
        let expected = try #require(root.classed("expected").first)
        #expect(expected.elements("text").first?.text == "expected")
        #expect(expected.elements("line").first?.attributes["stroke-dasharray"] == "5 4")
        // Ghost marbles sit on an opaque disc (the dashed arrow does not strike through their
        // labels), with a pale fill and full-strength text.
        let ghosts = expected.classed("value expected")
        #expect(ghosts.compactMap { $0.elements("text").first?.text } == ["c", "d"])
        #expect(ghosts.allSatisfy { $0.elements("circle").first?.attributes["fill"] == "#ffffff" && $0.elements("circle").last?.attributes["fill-opacity"] == "0.45" })
        #expect(ghosts.allSatisfy { $0.attributes["opacity"] == nil })
        // The actual lane is labelled so, and each difference has a numbered badge and a sentence.
        #expect(root.elements("text").contains { $0.text == "actual" && $0.attributes["fill"] == "#cf222e" })
        #expect(root.classed("difference").map { $0.elements("text").first?.text } == ["1", "2", "3"])
        let sentences = root.elements("text").map(\.text).filter { $0.contains("expected") && $0.contains("got") }
        #expect(sentences == [
            "400ms (frame 4): expected c, got nothing",
            "800ms (frame 8): expected nothing, got c",
            "1.1s (frame 11): expected d, got nothing",
        ])
        #expect(root.elements("tspan").contains { $0.text == "expectation not met" })
    }

    @Test func aSubscriptionMismatchGhostsTheExpectedSpan() throws {
        let source = Self.switchToLatest.replacingOccurrences(of: "subscriptions  ---^---!", with: "subscriptions  ---^----!")
        let root = try parseXML(try svg(source))
        let expected = try #require(root.classed("expected").first)
        #expect(expected.elements("text").map(\.text).prefix(2) == ["expected", "request.subscriptions"])
        #expect(expected.classed("subscription").first?.title == "subscribed at 3ms (frame 3), ended at 8ms (frame 8)")
        #expect(root.classed("difference").count == 1)
    }

    @Test func checkedRequestsAreDrawnAsTagsAndAMismatchGhostsTheExpectedOnes() throws {
        let source = """
            test "dropFirst asks upstream for the demand plus the count it drops"
              hot    input   -1-2-3-4-|
              let    tail  = input.dropFirst(2)
              demand tail    1-----1---
              expect tail    -----3-4-|
              expect input.requests  3-----1---
            """
        let passing = try parseXML(try svg(source))
        let lanes = passing.classed("requests")
        #expect(lanes.count == 2)
        #expect(lanes.first?.classed("request").map(\.title) == ["requested .max(3) at 0 (frame 0)", "requested .max(1) at 6ms (frame 6)"])
        #expect(lanes.first?.classed("request").map { $0.elements("text").first?.text } == ["3", "1"])
        // The test subscriber's own demand line is drawn too, as filled badges under what it received.
        #expect(lanes.last?.elements("text").first?.text == "demand")
        #expect(lanes.last?.classed("request").map(\.title) == ["the test's subscriber requested .max(1) at 0 (frame 0)",
                                                                  "the test's subscriber requested .max(1) at 6ms (frame 6)"])
        #expect(passing.classed("expected").isEmpty)

        let failing = try parseXML(try svg(source.replacingOccurrences(of: "requests  3-----1", with: "requests  2-----1")))
        let ghost = try #require(failing.classed("expected").first)
        #expect(ghost.classed("request").first?.title == "requested .max(2) at 0 (frame 0)")
        #expect(failing.classed("difference").map { $0.elements("text").first?.text } == ["1"])
        #expect(failing.elements("text").contains { $0.text == "0 (frame 0): expected input to be asked for .max(2), got .max(3)" })
    }

    @Test func aRuntimeErrorIsWrittenUnderTheDiagram() throws {
        let source = """
            test "runtime error"
              hot    input   -1-0-3-|
              let    q = input.map { 12 / $0 }
              expect q       -{12}---|
            """
        let test = try report(source)
        #expect(test.outcome == .error)
        let root = try parseXML(MarbleDiagram.svg(for: test, path: "diagram.marble"))
        #expect(root.elements("text").contains { $0.text.hasPrefix("error: division by zero") })
        #expect(root.elements("tspan").contains { $0.text == "stopped with an error" })
    }

    // MARK: Options

    @Test func themesAndBackgrounds() throws {
        let dark = try parseXML(try svg(Self.debounce, options: DiagramOptions(theme: .dark)))
        #expect(dark.elements("rect").first?.attributes["fill"] == "#0d1117")
        #expect(dark.elements("text").first?.attributes["fill"] == "#e6edf3")
        let transparent = try parseXML(try svg(Self.debounce, options: DiagramOptions(background: .transparent)))
        #expect(transparent.children.dropFirst(2).first?.name != "rect")
        let ivory = try parseXML(try svg(Self.debounce, options: DiagramOptions(background: .color("ivory"))))
        #expect(ivory.elements("rect").first?.attributes["fill"] == "ivory")
        let wide = try parseXML(try svg(Self.debounce, options: DiagramOptions(frameWidth: 60)))
        let xs = wide.classed("value").compactMap { $0.elements("circle").first?.number("cx") }
        #expect(abs(xs[1] - xs[0] - 120) < 0.02)
    }

    @Test func fileNamesJoinTheFileAndTheTest() {
        #expect(MarbleDiagram.fileName(path: "marbles/operators/debounce.marble", test: "drops pending on finish")
                == "debounce--drops-pending-on-finish.svg")
        #expect(MarbleDiagram.fileName(path: "x.marble", test: "flatMap(maxPublishers: .max(1)) drops — what's busy!")
                == "x--flatmap-maxpublishers-max-1-drops-what-s-busy.svg")
        #expect(MarbleDiagram.fileName(path: "odd name.marble", test: "…") == "odd-name--test.svg")
        #expect(MarbleDiagram.slug(String(repeating: "word ", count: 40)).count <= 80)
    }
}
