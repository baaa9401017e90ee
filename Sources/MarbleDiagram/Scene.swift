import MarbleNotation
import MarbleReport

/// What a diagram shows, before any geometry: lanes from top to bottom.
struct Scene {
    var lanes: [Lane] = []
    /// Numbered differences of failing checks, in check order.
    var differences: [NumberedDifference] = []
    /// Highlights of the mismatch view: which lanes a check covers, at which frames.
    var highlights: [Highlight] = []
}

struct NumberedDifference {
    var number: Int
    var frame: Int
    var sentence: String
}

struct Highlight {
    /// First and last lane covered.
    var lanes: ClosedRange<Int>
    /// Frames with a difference and the numbers of the differences there.
    var frames: [(frame: Int, numbers: [Int])]
}

/// A subscription span drawn as a bracket under an arrow.
struct Span: Hashable {
    var start: Int
    var end: Int?
    /// Ended by a cancellation rather than by the stream's own completion or failure.
    var cancelled: Bool
    /// How many identical subscriptions it stands for.
    var count = 1
}

/// One life of a publisher: a cold source played for one subscription, or the window of a hot
/// source one subscription saw.
struct Instance {
    enum Ending { case terminated, cancelled, open }
    var start: Int
    var end: Int?
    var events: [RenderedEvent]
    var ending: Ending
    /// Values of a subject sent while this subscription had no demand (drawn ghosted).
    var dropped: [RenderedEvent] = []
    /// Why each of `dropped` was lost, where not simply offered without demand.
    var dropReasons: [RenderedEvent: DropReason] = [:]
}

/// An arrow with events.
struct Timeline {
    var events: [RenderedEvent]
    var spans: [Span] = []
    /// Frames where a cold instance drawn on this arrow was cancelled.
    var cuts: [Int] = []
    var ghost = false
    /// Drawn dashed: nothing known to happen on it.
    var dashed = false
    var note: String?
    /// Where the test's subscriber cancelled (`subscribe NAME ^…!`): the arrow ends there.
    var cancelledAt: Int?
    /// `connect` lines of a connectable: when it was connected, and until when.
    var connections: [Span] = []
    /// Values a subject sent that a subscription on this arrow had no demand for (drawn ghosted).
    var dropped: [RenderedEvent] = []
    /// Who had no demand for each of `dropped` ("flat", "subscription 2 (from frame 4)");
    /// none: the test's subscriber.
    var droppedBy: [RenderedEvent: String] = [:]
    /// Why each of `dropped` was lost, where not simply offered without demand.
    var dropReasons: [RenderedEvent: DropReason] = [:]
}

struct Lane {
    enum Content {
        case timeline(Timeline)
        /// An operator box; `taps` are the lanes of inputs that are not right above it (a fan-out).
        case box(lines: [String], subscriber: Bool, taps: [Int])
        case inner([Instance])
        /// Subscriptions a failing `.subscriptions` check expected, ghosted.
        case expectedSpans([Span])
        /// The demand a stream was asked for (`expect NAME.requests`), or what a failing check expected (ghosted).
        case requests([RenderedEvent], ghost: Bool)
    }

    var label: String?
    var sublabel: String?
    var sublabelIsAlert = false
    var content: Content
    /// The stream this lane shows, if any.
    var stream: String?
    /// Whether this lane is the output arrow of `stream` (the row an operator box below can use as its receiver).
    var isRow = false
    /// For inner arrows: the input of the operator that subscribed them (its values start them).
    var parent: String?
    /// Said over a requests lane with no request: the test's subscriber never asked.
    var note: String?

    static let neverAsked = "never asks: its demand stays .none"
}

/// Builds the scene of one test: sources first as they are used, then for every derived
/// stream its operator box and arrow, inputs above it.
struct SceneBuilder {
    let test: TestReport
    private var lanes: [Lane] = []
    private var emitted: Set<String> = []
    /// Sources already drawn as inner arrows.
    private var bands: Set<String> = []
    /// Lane that is the output row of a stream.
    private var rowLane: [String: Int] = [:]
    /// The stream's own arrow (not the arrow of what a test subscriber received): what operators read.
    private var outputLane: [String: Int] = [:]
    /// Lane that shows a stream's subscriptions.
    private var spanLane: [String: Int] = [:]
    private let streams: [String: StreamReport]
    private let subscriptionChecked: Set<String>

    init(test: TestReport) {
        self.test = test
        var streams: [String: StreamReport] = [:]
        for stream in test.streams where streams[stream.name] == nil { streams[stream.name] = stream }
        self.streams = streams
        subscriptionChecked = Set(test.checks.filter { $0.kind == .subscriptions }.map(\.stream))
    }

    /// The last frame of the diagram's axis.
    static func lastFrame(_ test: TestReport) -> Int {
        max(test.endFrame - 1, 0)
    }

    private var usedAsInput: Set<String> {
        Set(test.streams.filter { $0.kind == .derived }.flatMap(\.inputs))
    }

    private var usedAsInner: Set<String> {
        Set(test.streams.filter { $0.kind == .derived }.flatMap(\.innerSources))
    }

    /// A source that appears only inside closures: drawn where it is used, as inner arrows.
    private func isInnerOnly(_ stream: StreamReport) -> Bool {
        stream.kind != .derived && usedAsInner.contains(stream.name) && !usedAsInput.contains(stream.name) && stream.observed == nil
    }

    mutating func build() -> Scene {
        let inputs = usedAsInput
        for stream in test.streams {
            if stream.kind == .derived {
                emit(stream.name)
            } else if !isInnerOnly(stream), !inputs.contains(stream.name) {
                emit(stream.name)
            }
        }
        // Sources used only by streams that are not in the report (should not happen) still show.
        for stream in test.streams where !emitted.contains(stream.name) && !isInnerOnly(stream) {
            emit(stream.name)
        }
        var scene = Scene(lanes: lanes)
        addMismatches(to: &scene)
        return scene
    }

    private mutating func emit(_ name: String) {
        guard !emitted.contains(name), let stream = streams[name] else { return }
        emitted.insert(name)
        if stream.kind == .derived {
            emitDerived(stream)
        } else {
            emitSource(stream)
        }
    }

    // MARK: Sources

    private mutating func emitSource(_ stream: StreamReport) {
        // Read once: a declared timeline is parsed again from its marble text on every read.
        let written = stream.declared
        let declared = written ?? []
        switch stream.kind {
        case .cold:
            let instances = Self.instances(of: stream, lastFrame: Self.lastFrame(test))
            if instances.isEmpty {
                append(Lane(label: stream.name, sublabel: "cold", content: .timeline(Timeline(events: declared, dashed: true, note: "never subscribed")),
                            stream: stream.name, isRow: true), spans: true)
            } else if instances.count > 1 {
                // Each subscription plays the timeline again: one arrow per subscription.
                append(Lane(label: stream.name, sublabel: Self.sublabel("cold", subscriptions: stream.subscriptions.count), content: .inner(instances),
                            stream: stream.name, isRow: true), spans: true)
            } else {
                let events = instances.flatMap(\.events)
                let cuts = instances.filter { $0.ending == .cancelled }.compactMap(\.end)
                let trivial = instances.count == 1 && instances[0].start == 0 && instances[0].ending != .cancelled
                var timeline = Timeline(events: events, cuts: cuts)
                if !trivial || subscriptionChecked.contains(stream.name) {
                    var spans: [Span] = []
                    for instance in instances {
                        let span = Span(start: instance.start, end: instance.end, cancelled: instance.ending == .cancelled)
                        if let index = spans.firstIndex(where: { $0.start == span.start && $0.end == span.end && $0.cancelled == span.cancelled }) {
                            spans[index].count += 1
                        } else {
                            spans.append(span)
                        }
                    }
                    timeline.spans = spans
                }
                append(Lane(label: stream.name, sublabel: "cold", content: .timeline(timeline), stream: stream.name, isRow: true), spans: true)
            }
        case .hot, .subject, .derived:
            var timeline = Timeline(events: declared)
            timeline.spans = visibleSpans(stream, events: declared)
            let sublabel = stream.kind == .hot ? "hot" : (stream.expression ?? "subject")
            if stream.kind == .subject, written == nil { timeline.note = "nothing sent" }
            droppedOnItsArrow(stream, into: &timeline)
            append(Lane(label: stream.name, sublabel: sublabel, content: .timeline(timeline), stream: stream.name, isRow: true), spans: true)
        }
        if let observed = stream.observed {
            lanes.append(Lane(content: .box(lines: ["test subscriber"], subscriber: true, taps: [])))
            var timeline = Timeline(events: observed)
            timeline.cancelledAt = stream.subscriber?.cancel
            timeline.dropped = Self.droppedForTheTestSubscriber(stream)
            timeline.dropReasons = Self.dropReasonsForTheTestSubscriber(stream)
            append(Lane(label: stream.name, sublabel: "received", content: .timeline(timeline), stream: stream.name, isRow: true),
                   spans: false)
            appendDemand(of: stream)
        }
    }

    /// What the test's subscriber to `stream` lost: values the subject sent while it had no demand.
    static func droppedForTheTestSubscriber(_ stream: StreamReport) -> [RenderedEvent] {
        guard let index = stream.subscriber?.subscription, stream.subscriptions.indices.contains(index) else { return [] }
        return stream.subscriptions[index].dropped
    }

    /// Why the test's subscriber to `stream` lost what it did (a CurrentValueSubject's held values).
    static func dropReasonsForTheTestSubscriber(_ stream: StreamReport) -> [RenderedEvent: DropReason] {
        guard let index = stream.subscriber?.subscription, stream.subscriptions.indices.contains(index) else { return [:] }
        return stream.subscriptions[index].dropReasons
    }

    /// The values the subject `stream` sent that a subscription other than the test's subscriber
    /// (drawn on its own arrow) had no demand for, ghosted on the subject's arrow with who lost
    /// them. A value nobody got is drawn only as a ghost; one some subscriptions got stays
    /// solid, its ghost stacked under it.
    private func droppedOnItsArrow(_ stream: StreamReport, into timeline: inout Timeline) {
        let own = stream.subscriber?.subscription
        let losing = stream.subscriptions.indices.filter { $0 != own && !stream.subscriptions[$0].dropped.isEmpty }
        guard !losing.isEmpty else { return }
        let readers = test.streams.filter { $0.kind == .derived && ($0.inputs.contains(stream.name) || $0.innerSources.contains(stream.name)) }
        let others = stream.subscriptions.indices.filter { $0 != own }
        var lostBy: [RenderedEvent: [String]] = [:]
        var order: [RenderedEvent] = []
        for index in losing {
            let record = stream.subscriptions[index]
            // One reader with one subscription: it is the one; else the subscription says which.
            let who = readers.count == 1 && others.count == 1 ? readers[0].name : "subscription \(index + 1) (from frame \(record.start))"
            for event in record.dropped {
                if lostBy[event] == nil { order.append(event) }
                lostBy[event, default: []].append(who)
                if let reason = record.dropReasons[event] { timeline.dropReasons[event] = reason }
            }
        }
        for event in order {
            let active = stream.subscriptions.filter { $0.start <= event.frame && ($0.end.map { $0 > event.frame } ?? true) }.count
            let lost = stream.subscriptions.filter { $0.dropped.contains(event) }.count
            if lost >= active, let index = timeline.events.firstIndex(of: event) { timeline.events.remove(at: index) }
            timeline.dropped.append(event)
            timeline.droppedBy[event] = (lostBy[event] ?? []).joined(separator: " and ")
        }
    }

    /// For `let late = shared`, a second subscriber (with a `demand` line) to a publisher that
    /// multicasts through a PassthroughSubject (`share()`, `multicast(subject: PassthroughSubject())`):
    /// what the subject sent is what any subscriber of it received, so what this one did not
    /// get while subscribed (after its first frame, whose order is not known) was dropped.
    private func droppedBySharedSubject(_ stream: StreamReport, received: [RenderedEvent]) -> [RenderedEvent] {
        guard stream.inputs.count == 1, stream.expression == stream.inputs[0], var subscriber = stream.subscriber, subscriber.hasDemandLine,
              let shared = streams[stream.inputs[0]], let expression = shared.expression,
              let last = PipelineText.steps(expression).last,
              last == ".share()" || (last.hasPrefix(".multicast") && last.contains("PassthroughSubject")) else { return [] }
        var sent: [RenderedEvent: Int] = [:]
        for other in test.streams where other.name == shared.name || (other.expression == shared.name && other.name != stream.name) {
            var counts: [RenderedEvent: Int] = [:]
            for event in other.observed ?? [] { counts[event, default: 0] += 1 }
            sent.merge(counts, uniquingKeysWith: max)
        }
        let ordered = sent.flatMap { Array(repeating: $0.key, count: $0.value) }.sorted { ($0.frame, "\($0.event)") < ($1.frame, "\($1.event)") }
        subscriber.start += 1
        return Self.dropped(ordered, received: received, subscriber: subscriber)
    }

    /// What a multicasting subject sent while the test's subscriber (with a `demand` line) was
    /// subscribed but did not receive: a subject drops a value its subscriber has no demand for.
    static func dropped(_ declared: [RenderedEvent], received: [RenderedEvent], subscriber: SubscriberRecord?) -> [RenderedEvent] {
        guard let subscriber, subscriber.hasDemandLine else { return [] }
        let end = min(subscriber.cancel ?? .max, declared.first { $0.event.isTerminal }?.frame ?? .max)
        var unmatched: [RenderedEvent: Int] = [:]
        for event in received { unmatched[event, default: 0] += 1 }
        var result: [RenderedEvent] = []
        for event in declared where event.frame >= subscriber.start && event.frame < end {
            guard case .value = event.event else { continue }
            if let count = unmatched[event], count > 0 {
                unmatched[event] = count - 1
            } else {
                result.append(event)
            }
        }
        return result
    }

    /// The requests of the test subscriber's `demand` line, as badges under what it received;
    /// a line that never asks is drawn too, its lane saying so (that the subscriber never asked
    /// is what such a test is about: Empty, Fail, a failed Future finish or fail without demand).
    private mutating func appendDemand(of stream: StreamReport) {
        guard let subscriber = stream.subscriber, subscriber.hasDemandLine else { return }
        var lane = Lane(label: "demand", sublabel: "subscriber", content: .requests(subscriber.demand, ghost: false), stream: stream.name)
        if subscriber.demand.isEmpty { lane.note = Lane.neverAsked }
        lanes.append(lane)
    }

    /// `connect` lines drawn on the connectable's arrow.
    private func connections(of name: String) -> [Span] {
        test.connections.filter { $0.stream == name }.map { Span(start: $0.start, end: $0.end, cancelled: $0.end != nil) }
    }

    // MARK: Derived streams

    private mutating func emitDerived(_ stream: StreamReport) {
        for input in stream.inputs { emit(input) }
        for inner in stream.innerSources where streams[inner]?.kind == .derived { emit(inner) }
        // Whether the rows right above the box are the inputs, in order: then the receiver can go.
        let rows = lanes.enumerated().filter { $0.element.isRow }.suffix(stream.inputs.count)
        let inputsAbove = !stream.inputs.isEmpty && rows.count == stream.inputs.count
            && zip(rows, stream.inputs).allSatisfy { $0.element.stream == $1 && outputLane[$1] == $0.offset }
            && (rows.last.map { $0.offset == lanes.count - 1 } ?? false)
        // Inputs drawn further up than right above the box: a line taps each of them down to it.
        let taps = inputsAbove ? [] : stream.inputs.compactMap { outputLane[$0] }.filter { $0 != lanes.count - 1 }
        for inner in stream.innerSources {
            guard let source = streams[inner], source.kind != .derived, !bands.contains(inner + " " + stream.name) else { continue }
            bands.insert(inner + " " + stream.name)
            // The subscriptions this stream's closures made; others' are drawn with those streams.
            let records = stream.innerSubscriptions.first { $0.source == inner }?.subscriptions ?? source.subscriptions
            let instances = Self.instances(of: source, records: records, lastFrame: Self.lastFrame(test))
            let users = test.streams.filter { $0.kind == .derived && $0.innerSources.contains(inner) }
            var sublabel = source.kind == .cold ? "cold, inner" : "inner"
            if users.count > 1 { sublabel += " of " + stream.name }
            if instances.isEmpty {
                append(Lane(label: inner, sublabel: sublabel, content: .timeline(Timeline(events: [], dashed: true, note: "never subscribed")), stream: inner),
                       spans: spanLane[inner] == nil)
            } else {
                append(Lane(label: inner, sublabel: Self.sublabel(sublabel, subscriptions: records.count), content: .inner(instances), stream: inner,
                            parent: stream.inputs.first),
                       spans: spanLane[inner] == nil)
            }
        }
        let expression = stream.expression ?? stream.name
        if stream.inputs.count == 1, expression == stream.inputs[0] {
            // `let late = state`: a second subscriber to the same publisher.
            lanes.append(Lane(content: .box(lines: ["another subscriber to \(expression)"], subscriber: true, taps: taps), stream: stream.name))
        } else {
            let receiver = inputsAbove ? stream.inputs.first : nil
            var text = PipelineText.text(expression, receiver: receiver, omitting: test.omittedArguments)
            if text.isEmpty { text = expression }
            lanes.append(Lane(content: .box(lines: [text], subscriber: false, taps: taps), stream: stream.name))
        }
        var timeline: Timeline
        if let observed = stream.observed {
            timeline = Timeline(events: observed)
            timeline.spans = visibleSpans(stream, events: observed)
            timeline.cancelledAt = stream.subscriber?.cancel
            // `let late = subject`: what the subject dropped for it is known; through `share()`, inferred.
            let lost = Self.droppedForTheTestSubscriber(stream)
            timeline.dropped = lost.isEmpty ? droppedBySharedSubject(stream, received: observed) : lost
            timeline.dropReasons = Self.dropReasonsForTheTestSubscriber(stream)
        } else {
            timeline = Timeline(events: [], dashed: true, note: "not observed")
            // How it ended is unknown, so no span is marked cancelled.
            let spans = Self.spans(stream.subscriptions, isNatural: nil)
            if subscriptionChecked.contains(stream.name) || spans.count > 1 || spans.contains(where: { $0.start > 0 }) { timeline.spans = spans }
        }
        timeline.connections = connections(of: stream.name)
        append(Lane(label: stream.name, content: .timeline(timeline), stream: stream.name, isRow: true), spans: true)
        appendDemand(of: stream)
    }

    private mutating func append(_ lane: Lane, spans: Bool) {
        if spans, let stream = lane.stream, spanLane[stream] == nil { spanLane[stream] = lanes.count }
        if lane.isRow, let stream = lane.stream {
            rowLane[stream] = lanes.count
            if outputLane[stream] == nil { outputLane[stream] = lanes.count }
        }
        lanes.append(lane)
    }

    // MARK: Subscriptions

    /// The spans of a stream worth drawing: none when its only subscription starts at 0 and
    /// lasts until the stream ends by itself (or the run ends), unless the test checks them.
    /// A subscription that ends at or after the stream's completion or failure ended with it
    /// (a late subscriber of a finished subject gets the completion at once); one that ends
    /// before was cancelled.
    private func visibleSpans(_ stream: StreamReport, events: [RenderedEvent]) -> [Span] {
        let terminal = events.filter { $0.event.isTerminal }.map(\.frame).min()
        let spans = Self.spans(stream.subscriptions) { end in terminal.map { end >= $0 } ?? false }
        let trivial = spans.allSatisfy { $0.start <= 0 && !$0.cancelled }
        return trivial && !subscriptionChecked.contains(stream.name) ? [] : spans
    }

    /// Spans of subscription records, identical ones counted once. `isNatural` tells whether a
    /// span ending at a frame ended with the stream (else it was cancelled); `nil`: not known.
    static func spans(_ records: [SubscriptionRecord], isNatural: ((Int) -> Bool)?) -> [Span] {
        struct Key: Hashable { let start: Int, end: Int?, cancelled: Bool }
        var result: [Span] = []
        var indices: [Key: Int] = [:]
        for record in records {
            let cancelled = record.end.map { end in isNatural.map { !$0(end) } ?? false } ?? false
            let key = Key(start: record.start, end: record.end, cancelled: cancelled)
            if let index = indices[key] {
                result[index].count += 1
            } else {
                indices[key] = result.count
                result.append(Span(start: record.start, end: record.end, cancelled: cancelled))
            }
        }
        return result
    }

    static func terminalFrames(_ events: [RenderedEvent]) -> Set<Int> {
        Set(events.filter { $0.event.isTerminal }.map(\.frame))
    }

    /// The most subscriptions of one source drawn as arrows: a run stopped at its limit can hold
    /// hundreds of thousands (`retry()` on a source that fails at once), which no reader follows
    /// and whose layout would cost more than the run. The rest are counted in the sublabel.
    static let maximumInstances = 50

    /// The sublabel of a lane of `count` subscriptions, saying how many are drawn past the limit.
    static func sublabel(_ sublabel: String, subscriptions count: Int) -> String {
        count > maximumInstances ? sublabel + ", the first \(maximumInstances) of \(count) subscriptions" : sublabel
    }

    /// One instance per subscription: a cold timeline moved to the subscription's frame, or the
    /// part of a hot timeline the subscription saw; cut where the subscription ended early.
    static func instances(of stream: StreamReport, records: [SubscriptionRecord]? = nil, lastFrame: Int) -> [Instance] {
        let declared = stream.declared ?? []
        // A cold source on several lines plays line n to its nth subscription (of all of them).
        let perSubscription = stream.declaredPerSubscription
        func timeline(of record: SubscriptionRecord) -> [RenderedEvent] {
            guard let perSubscription, !perSubscription.isEmpty else { return declared }
            let ordinal = stream.subscriptions.firstIndex { $0.start == record.start && $0.end == record.end } ?? 0
            return perSubscription[min(ordinal, perSubscription.count - 1)]
        }
        return (records ?? stream.subscriptions).prefix(maximumInstances).map { record in
            var events = stream.kind == .cold
                ? timeline(of: record).map { RenderedEvent(frame: $0.frame + record.start, event: $0.event) }
                : declared.filter { $0.frame >= record.start }
            // What a subject sent while this subscription had no demand never reached it.
            for lost in record.dropped { if let index = events.firstIndex(of: lost) { events.remove(at: index) } }
            let dropped = record.dropped
            if let end = record.end {
                // Ended by its own completion or failure, delivered then or later (a cold source
                // holds it until there is demand), or cut before it.
                let terminal = events.first { $0.event.isTerminal }?.frame
                let natural = terminal.map { $0 <= end } ?? false
                events = events.filter { natural ? $0.frame <= (terminal ?? end) : $0.frame < end }
                return Instance(start: record.start, end: end, events: events, ending: natural ? .terminated : .cancelled, dropped: dropped, dropReasons: record.dropReasons)
            }
            // Still subscribed when the run stopped: what was due until then.
            events = events.filter { $0.frame <= lastFrame + 1 }
            if let terminal = events.firstIndex(where: { $0.event.isTerminal }) {
                events = Array(events[...terminal]) + events[(terminal + 1)...].filter { $0.frame == events[terminal].frame }
                return Instance(start: record.start, end: nil, events: events, ending: .terminated, dropped: dropped, dropReasons: record.dropReasons)
            }
            return Instance(start: record.start, end: nil, events: events, ending: .open, dropped: dropped, dropReasons: record.dropReasons)
        }
    }

    // MARK: Mismatch view

    private mutating func addMismatches(to scene: inout Scene) {
        // Differences are numbered left to right across all checks (then in check order), so
        // that the badges read 1, 2, 3… along the time axis.
        let order = test.checks.enumerated().flatMap { check in
            check.element.differences.enumerated().map { (frame: $0.element.frame, check: check.offset, index: $0.offset) }
        }.sorted { ($0.frame, $0.check, $0.index) < ($1.frame, $1.check, $1.index) }
        var numbers: [Int: [Int: Int]] = [:]
        for (position, item) in order.enumerated() { numbers[item.check, default: [:]][item.index] = position + 1 }
        var inserted: [(after: Int, lanes: [Lane], differences: [(frame: Int, numbers: [Int])])] = []
        for (checkIndex, check) in test.checks.enumerated() where !check.passed || check.kind == .requests {
            var frames: [(frame: Int, numbers: [Int])] = []
            for (differenceIndex, difference) in check.differences.enumerated() {
                let number = numbers[checkIndex]?[differenceIndex] ?? 0
                scene.differences.append(NumberedDifference(number: number, frame: difference.frame, sentence: difference.sentence))
                if let index = frames.firstIndex(where: { $0.frame == difference.frame }) {
                    frames[index].numbers.append(number)
                } else {
                    frames.append((difference.frame, [number]))
                }
            }
            switch check.kind {
            case .events:
                let anchor = rowLane[check.stream] ?? (scene.lanes.count - 1)
                let ghost = Lane(label: "expected", sublabel: check.stream, content: .timeline(Timeline(events: check.expected, ghost: true)),
                                 stream: check.stream)
                inserted.append((anchor, [ghost], frames))
                if scene.lanes.indices.contains(anchor) {
                    scene.lanes[anchor].sublabel = "actual"
                    scene.lanes[anchor].sublabelIsAlert = true
                }
            case .subscriptions:
                let anchor = spanLane[check.stream] ?? rowLane[check.stream] ?? (scene.lanes.count - 1)
                let spans = Self.expectedSpans(check.expected)
                let ghost = Lane(label: "expected", sublabel: check.label, content: .expectedSpans(spans), stream: check.stream)
                inserted.append((anchor, [ghost], frames))
            case .requests:
                // What the stream was asked for is drawn whenever the test checks it.
                let anchor = spanLane[check.stream] ?? rowLane[check.stream] ?? (scene.lanes.count - 1)
                var lanes = [Lane(label: "requested", sublabel: check.label, content: .requests(check.actual, ghost: false), stream: check.stream)]
                if !check.passed {
                    lanes.append(Lane(label: "expected", sublabel: check.label, content: .requests(check.expected, ghost: true), stream: check.stream))
                }
                inserted.append((anchor, lanes, check.passed ? [] : frames))
            }
        }
        // Ghost lanes go right under their anchors; several under one anchor keep check order.
        var lanes: [Lane] = []
        var moved: [Int] = []
        for (index, lane) in scene.lanes.enumerated() {
            let anchorIndex = lanes.count
            moved.append(anchorIndex)
            lanes.append(lane)
            let isLast = index == scene.lanes.count - 1
            for item in inserted where item.after == index || (isLast && !scene.lanes.indices.contains(item.after)) {
                let first = lanes.count
                lanes += item.lanes
                if !item.differences.isEmpty {
                    // A requests check highlights its own lanes; the others the anchor too.
                    let top = item.lanes.first.map { if case .requests = $0.content { return first } else { return anchorIndex } } ?? anchorIndex
                    scene.highlights.append(Highlight(lanes: top...(lanes.count - 1), frames: item.differences))
                }
            }
        }
        scene.differences.sort { $0.number < $1.number }
        for index in lanes.indices {
            if case .box(let text, let subscriber, let taps) = lanes[index].content, !taps.isEmpty {
                lanes[index].content = .box(lines: text, subscriber: subscriber, taps: taps.map { moved.indices.contains($0) ? moved[$0] : $0 })
            }
        }
        scene.lanes = lanes
    }

    /// `^` and `!` of an expected `.subscriptions` line as a span.
    static func expectedSpans(_ events: [RenderedEvent]) -> [Span] {
        guard let start = events.first(where: { $0.event == .subscribe })?.frame else { return [] }
        let end = events.first(where: { $0.event == .cancel })?.frame
        return [Span(start: start, end: end, cancelled: false)]
    }
}
