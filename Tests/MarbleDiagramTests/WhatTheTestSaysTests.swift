import Foundation
@testable import MarbleDiagram
import MarbleSpec
import Testing

/// A diagram shows everything the test says — demand, connect, drops, cancels, which operator
/// ran which inner subscription — and lays it out by data flow.
@Suite("diagrams show what the test says")
struct WhatTheTestSaysTests {
    // MARK: Demand, drops, connect, cancel

    @Test func theSubscribersDemandIsDrawnAndWhatTheSubjectDroppedIsGhostedWithWhy() throws {
        let source = """
            test "a subscriber that asks for two values, then one more"
              hot     ticks   -a-b-c-d-e-|
              demand  ticks   2------1----
              expect  ticks   -a-b---d---|
            """
        let root = try parseXML(try svg(source))
        let demand = try #require(root.classed("requests").first)
        #expect(demand.elements("text").prefix(2).map(\.text) == ["demand", "subscriber"])
        #expect(demand.classed("request").map(\.title) == ["the test's subscriber requested .max(2) at 0 (frame 0)",
                                                           "the test's subscriber requested .max(1) at 7ms (frame 7)"])
        let dropped = root.classed("value dropped")
        #expect(dropped.map(\.title) == ["\"c\" sent at 5ms (frame 5), dropped: the subscriber had no demand",
                                         "\"e\" sent at 9ms (frame 9), dropped: the subscriber had no demand"])
        #expect(root.classed("legend").contains { $0.allText.contains("dropped: no demand for it") })
        #expect(root.classed("legend").contains { $0.allText.contains("demand of the test's subscriber") })
    }

    /// Issue 29, item 16: a `demand` line that never asks is drawn: its lane says the
    /// subscriber never asked, which is what such a test (Empty, Fail, a subject's completion
    /// without demand) is about; and what a subject sent meanwhile is ghosted as dropped.
    @Test func aDemandLineThatNeverAsksIsDrawn() throws {
        let empty = try parseXML(try svg("""
            test "Empty finishes without waiting for demand"
              let    nothing = Empty()
              demand nothing   -------
              expect nothing   |------
            """))
        let demand = try #require(empty.classed("requests").first)
        #expect(demand.elements("text").map(\.text) == ["demand", "subscriber", "never asks: its demand stays .none"])
        #expect(demand.classed("request none").map(\.title) == ["the test's subscriber never requested anything: its demand line asks for nothing, so its demand stays .none"])
        #expect(demand.classed("request").isEmpty)
        // No badge to explain in the legend.
        #expect(!empty.classed("legend").contains { $0.allText.contains("demand of the test's subscriber") })
        #expect(empty.elements("desc").first?.text.contains("Demand of the test's subscriber: never asks: its demand stays .none.") == true)

        let subject = try parseXML(try svg("""
            test "a completion reaches a subscriber that has no demand"
              subject s = PassthroughSubject()
              send    s   -a-b-|
              demand  s   ------
              expect  s   -----|
            """))
        #expect(subject.classed("requests").first?.elements("text").last?.text == "never asks: its demand stays .none")
        #expect(subject.classed("value dropped").map(\.title) == ["\"a\" sent at 1ms (frame 1), dropped: the subscriber had no demand",
                                                                 "\"b\" sent at 3ms (frame 3), dropped: the subscriber had no demand"])

        // Without a demand line the subscriber asks for everything, and no demand lane is drawn.
        let unlimited = try parseXML(try svg("test \"t\"\n  let nothing = Empty()\n  expect nothing |\n"))
        #expect(unlimited.classed("requests").isEmpty)
    }

    @Test func whatASubjectDroppedForTheOperatorReadingItIsGhostedOnItsArrow() throws {
        let source = """
            test "flatMap(maxPublishers: .max(1)) ignores taps while a request runs"
              hot    taps                  -a-b--------c---|
              cold   request               ---x|
              let    flat    = taps.flatMap(maxPublishers: .max(1)) { _ in request }
              expect flat                  ----x----------x|
            """
        let root = try parseXML(try svg(source))
        let taps = try #require(root.classed("stream").first)
        #expect(taps.classed("value").compactMap { $0.elements("text").first?.text } == ["a", "c"])
        #expect(taps.classed("value dropped").map(\.title) == ["\"b\" sent at 3ms (frame 3), dropped: flat had no demand"])
        // With unlimited demand nothing is dropped.
        let plain = try parseXML(try svg(source.replacingOccurrences(of: "flatMap(maxPublishers: .max(1))", with: "flatMap")
            .replacingOccurrences(of: "----x----------x|", with: "----x-x--------x|")))
        #expect(plain.classed("value dropped").isEmpty)
    }

    @Test func whatAShareDroppedForASecondSubscriberIsGhostedOnItsArrow() throws {
        let source = """
            test "a subscriber without demand misses the values the subject drops"
              cold   source   -a-b-c-d-|
              let    shared = source.share()
              let    slow   = shared
              demand slow     1-----1---
              expect shared   -a-b-c-d-|
              expect slow     -a-----d-|
            """
        let root = try parseXML(try svg(source))
        let slow = try #require(root.classed("stream").last)
        #expect(slow.classed("value dropped").map(\.title) == ["\"b\" sent at 3ms (frame 3), dropped: the subscriber had no demand",
                                                               "\"c\" sent at 5ms (frame 5), dropped: the subscriber had no demand"])
        // Through a CurrentValueSubject a value is held for slow, and lost only when a newer one replaces it.
        let held = try parseXML(try svg(source.replacingOccurrences(of: "source.share()", with: "source.multicast(subject: CurrentValueSubject(\"z\"))")
            .replacingOccurrences(of: "expect shared   -a-b-c-d-|", with: "connect shared   ^")
            .replacingOccurrences(of: "expect slow     -a-----d-|", with: "expect slow     z-----c-d-|")))
        let slowHeld = try #require(held.classed("stream").last)
        #expect(slowHeld.classed("value dropped").map(\.title) == [
            "\"a\" held from 1ms (frame 1), dropped: replaced by \"b\" at 3ms (frame 3) before the subscriber asked",
            "\"b\" held from 3ms (frame 3), dropped: replaced by \"c\" at 5ms (frame 5) before the subscriber asked",
            "\"d\" held from 7ms (frame 7), dropped: the subject completed at 9ms (frame 9) before the subscriber asked",
        ])
    }

    /// A CurrentValueSubject conflates: a value held for a subscriber without demand is dropped
    /// only when a newer one replaces it (or the subject completes); the one it holds at the
    /// next request is delivered.
    @Test func aCurrentValueSubjectDropsOnlyWhatANewerValueReplaces() throws {
        let source = """
            test "held, then replaced"
              subject state = CurrentValueSubject(0)
              send    state   -1-2---
              demand  state   1---1-
              expect  state   0---2--
            """
        let root = try parseXML(try svg(source))
        #expect(root.classed("value dropped").map(\.title) == ["1 held from 1ms (frame 1), dropped: replaced by 2 at 3ms (frame 3) before the subscriber asked"])
        // Asked for before the next value, the held value arrives: nothing is dropped.
        let asked = try parseXML(try svg(source.replacingOccurrences(of: "demand  state   1---1-", with: "demand  state   1-1---")
            .replacingOccurrences(of: "expect  state   0---2--", with: "expect  state   0-1----")))
        #expect(asked.classed("value dropped").isEmpty)
        // The subscriber's initial demand of none: the initial value is held from the subscription, and replaced.
        let initial = try parseXML(try svg(source.replacingOccurrences(of: "demand  state   1---1-", with: "demand  state   ----1-")
            .replacingOccurrences(of: "expect  state   0---2--", with: "expect  state   ----2--")))
        #expect(initial.classed("value dropped").compactMap(\.title).map { $0.prefix(16) } == ["0 held from 0 (f", "1 held from 1ms "])
    }

    @Test func connectIsMarkedOnTheConnectable() throws {
        let source = """
            test "nothing is subscribed until connect; then every subscriber gets the same values"
              cold    source               -a-b|
              let     m      = source.multicast(subject: PassthroughSubject())
              let     other  = m
              connect m                    ---^
              expect  m                    ----a-b|
              expect  other                ----a-b|
              expect  source.subscriptions ---^---!
            """
        let root = try parseXML(try svg(source))
        let connections = root.classed("connection")
        #expect(connections.map(\.title) == ["connected at 3ms (frame 3)"])
        // It stands at frame 3's x, where the source's subscription starts.
        let line = try #require(connections.first?.elements("line").first)
        let start = try #require(root.classed("subscription").first?.elements("circle").first)
        #expect(line.number("x1") == start.number("cx"))
        #expect(root.classed("legend").contains { $0.allText.contains("connected (connect line)") })
    }

    @Test func aCancelledSubscribersArrowEndsAtItsCancel() throws {
        let source = """
            test "cancel"
              hot       input  -a-b-c-d|
              let       tail = input.map { $0 }
              subscribe tail   ^----!
              expect    tail   -a-b-
            """
        let root = try parseXML(try svg(source))
        let lane = try #require(root.classed("stream").last)
        let axis = try #require(lane.classed("axis").first)
        let cancel = try #require(lane.classed("cancel").first)
        #expect(cancel.title == "cancelled at 5ms (frame 5)")
        #expect(axis.number("x2") == Geometry.x(ofMark: cancel))
        // No arrowhead: the subscriber sees nothing after its `!`.
        let arrowheads = lane.elements("path").filter { $0.attributes["class"] == nil && $0.attributes["d"]?.hasSuffix("Z") == true }
        #expect(arrowheads.count == 0)
    }

    // MARK: Lanes

    @Test func eachOperatorsInnerSubscriptionsAreDrawnWithItsOwnBand() throws {
        let source = """
            test "a burst of taps: flatMap(.max(1)) answers the first, switchToLatest only the last"
              hot    taps      -abcd-------|
              cold   request   ---x|
              let    first   = taps.flatMap(maxPublishers: .max(1)) { _ in request }
              let    last    = taps.map { _ in request }.switchToLatest()
              expect first     ----x-------|
              expect last      -------x----|
            """
        let root = try parseXML(try svg(source))
        let bands = root.classed("inner")
        #expect(bands.map { $0.elements("text").prefix(2).map(\.text) } == [["request", "cold, inner of first"], ["request", "cold, inner of last"]])
        // flatMap(.max(1)) subscribed once; switchToLatest four times, cancelling three.
        #expect(bands.map { $0.classed("instance").count } == [1, 4])
        #expect(bands[0].classed("cancel").isEmpty)
        #expect(bands[1].classed("cancel").count == 3)
    }

    @Test func severalSubscriptionsOfOneColdSourceGetRowsOfTheirOwn() throws {
        let source = """
            test "retry(2) resubscribes a failing cold source twice, then passes the failure on"
              cold   c    -a#
              let    r  = c.retry(2)
              expect r    -a-a-a#
            """
        let root = try parseXML(try svg(source))
        let rows = root.classed("instance-marks")
        #expect(rows.count == 3)
        let ys = rows.compactMap { $0.classed("value").first?.elements("circle").first?.number("cy") }
        #expect(ys.count == 3 && Set(ys).count == 3)
        #expect(rows.allSatisfy { $0.classed("failure").count == 1 })
    }

    // MARK: Mismatch view

    @Test func differencesAreNumberedLeftToRightAcrossChecks() throws {
        let source = """
            test "two wrong checks"
              hot    input  -a-b-c-|
              let    x    = input.map { $0 }
              let    y    = input.map { $0 }
              expect x      -a-b-d-|
              expect y      -e-b-c-|
            """
        let root = try parseXML(try svg(source))
        let badges = root.classed("difference").compactMap { group -> (x: Double, text: String)? in
            guard let rect = group.elements("rect").first, let x = rect.number("x"), let text = group.elements("text").first?.text else { return nil }
            return (x, text)
        }
        #expect(badges.sorted { $0.x < $1.x }.map(\.text) == ["1", "2"])
        let sentences = root.elements("text").map(\.text).filter { $0.contains(": expected") }
        #expect(sentences.first?.hasPrefix("1ms (frame 1)") == true)
    }

    @Test func namesThatTheSentencesUseAreExplainedAndHighlightsAreAsWideAsTheirMarble() throws {
        let source = """
            test "combineLatest, one pair wrong"
              hot    letters  -a---b-|
              hot    numbers  ---1---|
              let    pairs  = letters.combineLatest(numbers)
              values A = ("a", 1), B = ("b", 1), C = ("b", 2)
              expect pairs    ---A-C-|
            """
        let values = [NamedValue(name: "A", literal: "(\"a\", 1)"), NamedValue(name: "B", literal: "(\"b\", 1)"), NamedValue(name: "C", literal: "(\"b\", 2)")]
        let root = try parseXML(try svg(source, values: values))
        let sentence = try #require(root.elements("text").map(\.text).first { $0.contains("expected C") })
        #expect(sentence.contains("got B"))
        let legend = root.classed("legend").map(\.allText).joined()
        #expect(legend.contains("B = (\"b\", 1)") && legend.contains("C = (\"b\", 2)"))
        // The pill of ("b", 1) is wider than a frame; its highlight covers it.
        let highlight = try #require(root.classed("highlight").first)
        let pill = try #require(root.classed("value").compactMap { $0.elements("rect").first }.first { $0.number("x").map { $0 >= (highlight.number("x") ?? 0) - 100 } ?? false })
        #expect(try #require(highlight.number("width")) >= #require(pill.number("width")))
    }

    // MARK: Layout and colour

    @Test func operatorTextWrapsInsteadOfWideningFrames() throws {
        let short = try Geometry(try svg("""
            test "t"
              hot    input  -1-2-3-|
              let    out  = input.map { $0 }
              expect out    -1-2-3-|
            """))
        let long = try Geometry(try svg("""
            test "t"
              hot    input  -1-2-3-|
              let    out  = input.map { value in value * 1 + 0 * 1000000000 + 0 * 2000000000 + 0 * 3000000000 }
              expect out    -1-2-3-|
            """))
        let frames = [short, long].map { geometry in
            geometry.marbles().map(\.cx).sorted()
        }
        #expect(frames[0] == frames[1])
        #expect((long.root.all.first { $0.attributes["class"] == "box" }?.elements("text").count ?? 0) > 1)
    }

    @Test func aMappedValueKeepsTheColourOfTheValueItCameFrom() throws {
        let root = try parseXML(try svg("""
            test "map"
              hot    input  -a-b-|
              let    upper = input.map { $0.uppercased() }
              expect upper  -A-B-|
            """))
        let fills = root.classed("value").map { group in (group.elements("text").first?.text ?? "", group.elements("circle").last?.attributes["fill"] ?? "") }
        let byLabel = Dictionary(fills, uniquingKeysWith: { first, _ in first })
        #expect(byLabel["a"] == byLabel["A"] && byLabel["b"] == byLabel["B"])
        #expect(byLabel["a"] != byLabel["b"])
    }

    @Test func huesKeepThePromisedSeparationForAnyNumberOfValues() {
        for count in 1...30 {
            let keys = (0..<count).map { "\"v\($0 * 7)\"" }
            let hues = Array(ValueColor.hues(for: keys).values)
            #expect(hues.count == count)
            #expect(ValueColor.smallestSeparation(hues) >= ValueColor.promisedSeparation(count: count), "\(count) values")
        }
    }

    @Test func theLegendExplainsOnlyTheMarksTheDiagramUses() throws {
        let plain = try parseXML(try svg("""
            test "t"
              hot    input  -1-2-|
              expect input  -1-2-|
            """))
        let texts = plain.classed("legend").map(\.allText).joined(separator: " ")
        #expect(texts.contains("finished"))
        #expect(!texts.contains("cancelled") && !texts.contains("failed") && !texts.contains("subscribed"))
        let switching = try parseXML(try svg(DiagramTests.switchToLatest))
        let more = switching.classed("legend").map(\.allText).joined(separator: " ")
        #expect(more.contains("cancelled") && more.contains("finished"))
    }
}
