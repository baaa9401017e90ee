@testable import MarbleDiagram
import MarbleSpec
import Testing

@Suite("operator box text")
struct PipelineTextTests {
    /// What the runner hands every test report: the catalogue's virtual-clock parameters.
    static func text(_ expression: String, receiver: String?) -> String {
        PipelineText.text(expression, receiver: receiver, omitting: Catalogue.omittedArguments)
    }

    @Test func theReceiverGoesWhenItIsDrawnAbove() {
        #expect(Self.text("typing.debounce(for: .milliseconds(300))", receiver: "typing") == "debounce(for: .milliseconds(300))")
        #expect(Self.text("typing.debounce(for: .milliseconds(300))", receiver: nil) == "typing.debounce(for: .milliseconds(300))")
        // Only a whole name followed by a dot is a receiver.
        #expect(Self.text("typings.map { $0 }", receiver: "typing") == "typings.map { $0 }")
        #expect(Self.text("state", receiver: "state") == "state")
    }

    @Test func schedulersAndTheirOptionsGo() {
        #expect(Self.text("t.debounce(for: .milliseconds(300), scheduler: RunLoop.main)", receiver: "t") == "debounce(for: .milliseconds(300))")
        #expect(Self.text("t.delay(for: 2, scheduler: DispatchQueue.main, options: nil)", receiver: "t") == "delay(for: 2)")
        #expect(Self.text("t.throttle(for: 2, scheduler: RunLoop.main, latest: true)", receiver: "t") == "throttle(for: 2, latest: true)")
        #expect(Self.text("t.measureInterval(using: RunLoop.main)", receiver: "t") == "measureInterval()")
        #expect(Self.text("Timer.publish(every: 2, on: RunLoop.main, in: .common).autoconnect()", receiver: nil)
                == "Timer.publish(every: 2).autoconnect()")
        // receive(on:) is the operator's point: it stays.
        #expect(Self.text("t.receive(on: RunLoop.main)", receiver: "t") == "receive(on: RunLoop.main)")
        // Inside a string or a closure body nothing is touched.
        #expect(Self.text("t.map { \"scheduler: x\" }", receiver: "t") == "map { \"scheduler: x\" }")
        #expect(Self.text("t.flatMap { _ in u.delay(for: 1, scheduler: s) }", receiver: "t") == "flatMap { _ in u.delay(for: 1) }")
    }

    @Test func whatGoesIsWhatTheReportSays() {
        // A label goes only for a callee whose table lists it, as its name or a dotted tail of it.
        let omitted = OmittedArguments(labels: ["debounce": ["scheduler"], "Timer.publish": ["on"]])
        #expect(PipelineText.text("t.debounce(for: 1, scheduler: s)", receiver: "t", omitting: omitted) == "debounce(for: 1)")
        #expect(PipelineText.text("t.search(for: 1, scheduler: s)", receiver: "t", omitting: omitted) == "search(for: 1, scheduler: s)")
        #expect(PipelineText.text("Timer.publish(every: 2, on: r, in: m)", receiver: nil, omitting: omitted) == "Timer.publish(every: 2, in: m)")
        #expect(PipelineText.text("publish(every: 2, on: r)", receiver: nil, omitting: omitted) == "publish(every: 2, on: r)")
        // A report that says nothing (one not made by the runner) leaves every argument.
        #expect(PipelineText.text("t.debounce(for: 1, scheduler: s)", receiver: "t", omitting: OmittedArguments()) == "debounce(for: 1, scheduler: s)")
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
