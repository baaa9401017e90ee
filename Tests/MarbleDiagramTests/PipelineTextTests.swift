@testable import MarbleDiagram
import Testing

@Suite("operator box text")
struct PipelineTextTests {
    @Test func theReceiverGoesWhenItIsDrawnAbove() {
        #expect(PipelineText.text("typing.debounce(for: .milliseconds(300))", receiver: "typing") == "debounce(for: .milliseconds(300))")
        #expect(PipelineText.text("typing.debounce(for: .milliseconds(300))", receiver: nil) == "typing.debounce(for: .milliseconds(300))")
        // Only a whole name followed by a dot is a receiver.
        #expect(PipelineText.text("typings.map { $0 }", receiver: "typing") == "typings.map { $0 }")
        #expect(PipelineText.text("state", receiver: "state") == "state")
    }

    @Test func schedulersAndTheirOptionsGo() {
        #expect(PipelineText.text("t.debounce(for: .milliseconds(300), scheduler: RunLoop.main)", receiver: "t") == "debounce(for: .milliseconds(300))")
        #expect(PipelineText.text("t.delay(for: 2, scheduler: DispatchQueue.main, options: nil)", receiver: "t") == "delay(for: 2)")
        #expect(PipelineText.text("t.throttle(for: 2, scheduler: RunLoop.main, latest: true)", receiver: "t") == "throttle(for: 2, latest: true)")
        #expect(PipelineText.text("t.measureInterval(using: RunLoop.main)", receiver: "t") == "measureInterval()")
        #expect(PipelineText.text("Timer.publish(every: 2, on: RunLoop.main, in: .common).autoconnect()", receiver: nil)
                == "Timer.publish(every: 2).autoconnect()")
        // receive(on:) is the operator's point: it stays.
        #expect(PipelineText.text("t.receive(on: RunLoop.main)", receiver: "t") == "receive(on: RunLoop.main)")
        // Inside a string or a closure body nothing is touched.
        #expect(PipelineText.text("t.map { \"scheduler: x\" }", receiver: "t") == "map { \"scheduler: x\" }")
        #expect(PipelineText.text("t.flatMap { _ in u.delay(for: 1, scheduler: s) }", receiver: "t") == "flatMap { _ in u.delay(for: 1) }")
    }

    @Test func longPipelinesBreakBeforeChainedOperatorsThenAtSpaces() {
        let text = "map { _ in request }.switchToLatest().removeDuplicates()"
        #expect(PipelineText.lines(text, width: 80) == [text])
        #expect(PipelineText.lines(text, width: 40) == ["map { _ in request }.switchToLatest()", "  .removeDuplicates()"])
        let long = "tryMap { if $0 == 0 { throw \"division by zero\" } else { 12 / $0 } }"
        let lines = PipelineText.lines(long, width: 30)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 34 })
        #expect(lines.joined(separator: " ").split(separator: " ") == long.split(separator: " "))
    }
}
