import MarbleNotation
import MarbleReport

/// The text version of a diagram, for its `<desc>`.
extension Renderer {
    // MARK: Accessibility

    /// A text version of the diagram: each lane as marble text.
    func description() -> String {
        var parts = ["Marble diagram of the test \"\(test.name)\" in \(path), one frame = \(TimeText.describe(nanoseconds: test.frameNanoseconds))."]
        for lane in scene.lanes {
            let name = lane.label ?? ""
            switch lane.content {
            case .timeline(let timeline):
                let marbles = render(timeline.events)
                var text = name + (lane.sublabel.map { " (\($0))" } ?? "") + ": " + (marbles.isEmpty ? "no events" : marbles)
                if let note = timeline.note { text += " (\(note))" }
                if let cancel = timeline.cancelledAt { text += "; the subscriber cancelled at frame \(cancel)" }
                if !timeline.dropped.isEmpty {
                    text += "; dropped for lack of demand: " + timeline.dropped.map { "\(render([RenderedEvent(frame: 0, event: $0.event)])) at frame \($0.frame)" }.joined(separator: ", ")
                }
                for connection in timeline.connections {
                    text += "; connected at frame \(connection.start)" + (connection.end.map { ", connection cancelled at frame \($0)" } ?? "")
                }
                parts.append(text + ".")
            case .box(let lines, let subscriber, let taps):
                var text = subscriber ? "Received by the test's subscriber" : "Operator: \(lines.joined(separator: " "))"
                let inputs = taps.compactMap { scene.lanes.indices.contains($0) ? scene.lanes[$0].label : nil }
                if !inputs.isEmpty { text += ", reading " + inputs.joined(separator: ", ") }
                parts.append(text + (subscriber ? ":" : "."))
            case .inner(let instances):
                for instance in instances {
                    var text = "\(name) subscribed at frame \(instance.start)"
                    if let end = instance.end { text += instance.ending == .cancelled ? ", cancelled at frame \(end)" : ", ended at frame \(end)" }
                    text += ": " + render(instance.events)
                    if !instance.dropped.isEmpty {
                        text += "; dropped for lack of demand: " + instance.dropped.map { "\(render([RenderedEvent(frame: 0, event: $0.event)])) at frame \($0.frame)" }.joined(separator: ", ")
                    }
                    parts.append(text + ".")
                }
            case .requests(let events, _):
                let what = name == "demand" ? "Demand of the test's subscriber" : "\(name) \(lane.sublabel ?? "")"
                parts.append("\(what): " + (events.isEmpty ? lane.note ?? "none" : render(events)) + ".")
            case .expectedSpans(let spans):
                for span in spans {
                    parts.append("Expected \(lane.sublabel ?? "subscription"): from frame \(span.start)" + (span.end.map { " to frame \($0)" } ?? "") + ".")
                }
            }
        }
        for difference in scene.differences {
            parts.append("Difference \(difference.number) at frame \(difference.frame): \(difference.sentence).")
        }
        return parts.joined(separator: " ")
    }

    func render(_ events: [RenderedEvent]) -> String {
        MarblePrinter.render(events.map { (frame: $0.frame, event: $0.event) }, frameNanoseconds: test.frameNanoseconds,
                             compressingGapsLongerThan: TimeScale.longestDrawnGap)
    }
}
