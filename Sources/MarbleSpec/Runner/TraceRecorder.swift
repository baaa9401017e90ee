import Reactive

/// Logs every subscription, request, value, completion and cancel that passes through the
/// named streams and the operators of one test (`RunOptions.traceEvents`). Each traced
/// publisher is wrapped in a link that only records and forwards: nothing is held, dropped,
/// reordered or delayed, so a traced run behaves exactly like an untraced one. When tracing is
/// off nothing is wrapped.
final class TraceRecorder {
    private enum Raw {
        case subscription
        case request(Subscribers.Demand, synchronous: Bool)
        case value(Value)
        case finished
        case failure(StreamError)
        case cancel
    }

    private struct Entry {
        var frame: Int
        var node: Int
        var subscription: Int
        var raw: Raw
        /// How many print lines had been written when this event happened (to interleave them).
        var printed: Int
    }

    private struct NodeInfo {
        var label: String
        var kind: TraceEvent.Node
        var subscriptions = 0
    }

    private let scheduler: VirtualTimeScheduler
    private let printedCount: () -> Int
    private var nodes: [NodeInfo] = []
    /// Operator nodes by text, so that a publisher built again (inside a closure) shares its node.
    private var operatorNodes: [String: Int] = [:]
    /// The operator built most recently, until the next named stream is bound.
    private var lastOperator: (node: Int, text: String)?
    private var entries: [Entry] = []

    init(scheduler: VirtualTimeScheduler, printedCount: @escaping () -> Int) {
        self.scheduler = scheduler
        self.printedCount = printedCount
    }

    /// Wraps the publisher an operator or constructor built, logging as `text`.
    func traceOperator(_ text: String, _ publisher: Stream) -> Stream {
        let node: Int
        if let existing = operatorNodes[text] {
            node = existing
        } else {
            node = nodes.count
            nodes.append(NodeInfo(label: text, kind: .operator))
            operatorNodes[text] = node
        }
        lastOperator = (node, text)
        return TracingPublisher(upstream: publisher, node: node, recorder: self).eraseToAnyPublisher()
    }

    /// Wraps a named stream. When the stream is exactly the operator built last (`let q =
    /// typing.debounce(…)`), that operator's node takes the name instead, so the same events are
    /// not logged twice.
    func traceStream(_ name: String, text: String, _ publisher: Stream) -> Stream {
        defer { lastOperator = nil }
        if let last = lastOperator, last.text == text, nodes[last.node].kind == .operator {
            nodes[last.node].label = name
            nodes[last.node].kind = .stream
            operatorNodes[text] = nil
            return publisher
        }
        let node = nodes.count
        nodes.append(NodeInfo(label: name, kind: .stream))
        return TracingPublisher(upstream: publisher, node: node, recorder: self).eraseToAnyPublisher()
    }

    fileprivate func openSubscription(_ node: Int) -> Int {
        nodes[node].subscriptions += 1
        return nodes[node].subscriptions
    }

    /// Events a trace keeps: the log lives in memory until the run ends, and a run that stops
    /// at a limit may have passed millions of events through its operators first.
    static let maximumEntries = 200_000
    private var unrecorded = 0

    private func record(_ node: Int, _ subscription: Int, _ raw: Raw) {
        guard entries.count < Self.maximumEntries else {
            unrecorded += 1
            return
        }
        entries.append(Entry(frame: scheduler.currentFrame, node: node, subscription: subscription, raw: raw, printed: printedCount()))
    }

    fileprivate func subscribed(_ node: Int, _ subscription: Int) { record(node, subscription, .subscription) }
    fileprivate func requested(_ node: Int, _ subscription: Int, _ demand: Subscribers.Demand, synchronous: Bool) {
        record(node, subscription, .request(demand, synchronous: synchronous))
    }
    fileprivate func received(_ node: Int, _ subscription: Int, _ value: Value) { record(node, subscription, .value(value)) }
    fileprivate func completed(_ node: Int, _ subscription: Int, _ completion: Subscribers.Completion<StreamError>) {
        switch completion {
        case .finished: record(node, subscription, .finished)
        case .failure(let error): record(node, subscription, .failure(error))
        }
    }
    fileprivate func cancelled(_ node: Int, _ subscription: Int) { record(node, subscription, .cancel) }

    /// The log in the order things happened, values written with the test's names, and the
    /// lines of `print` operators in their places.
    func events(table: ValueTable, printed: [(frame: Int, text: String)]) -> [TraceEvent] {
        var events: [TraceEvent] = []
        events.reserveCapacity(entries.count + printed.count)
        var nextPrinted = 0
        func flushPrinted(upTo count: Int) {
            while nextPrinted < min(count, printed.count) {
                let line = printed[nextPrinted]
                events.append(TraceEvent(frame: line.frame, node: "", nodeKind: .output, subscription: 0, kind: .printed(line.text)))
                nextPrinted += 1
            }
        }
        for entry in entries {
            flushPrinted(upTo: entry.printed)
            let node = nodes[entry.node]
            let kind: TraceEvent.Kind
            switch entry.raw {
            case .subscription: kind = .subscription
            case .request(let demand, let synchronous):
                kind = .request(demand: demand.max.map { "max: (\($0))" } ?? "unlimited", synchronous: synchronous)
            case .value(let value): kind = .value(table.token(for: value))
            case .finished: kind = .finished
            case .failure(let error): kind = .failure(table.failureToken(for: error))
            case .cancel: kind = .cancel
            }
            events.append(TraceEvent(frame: entry.frame, node: node.label, nodeKind: node.kind, subscription: entry.subscription, kind: kind))
        }
        flushPrinted(upTo: printed.count)
        if unrecorded > 0 {
            events.append(TraceEvent(frame: scheduler.currentFrame, node: "", nodeKind: .output, subscription: 0,
                                     kind: .printed("the trace stops here: \(unrecorded) more events were not recorded (a trace keeps \(Self.maximumEntries))")))
        }
        return events
    }
}

/// A publisher that only records what passes through it.
private struct TracingPublisher: Publisher {
    typealias Output = Value
    typealias Failure = StreamError

    let upstream: Stream
    let node: Int
    let recorder: TraceRecorder

    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == StreamError {
        let subscription = recorder.openSubscription(node)
        upstream.receive(subscriber: TracingLink(downstream: subscriber, node: node, subscription: subscription, recorder: recorder))
    }
}

/// Forwards every call unchanged, in both directions, after logging it. Unlike an operator it
/// never drops late events: what the traced publisher sends is what its subscriber sees. After a
/// completion or a cancel it lets go of the upstream subscription (as every operator does), so
/// later requests and cancels are logged but go nowhere.
private final class TracingLink<Downstream: Subscriber>: Subscriber, Subscription where Downstream.Input == Value, Downstream.Failure == StreamError {
    typealias Input = Value
    typealias Failure = StreamError

    private let downstream: Downstream
    private let node: Int
    private let subscription: Int
    private let recorder: TraceRecorder
    private var upstream: (any Subscription)?
    /// What `print()` calls the subscription this link passes on, so that a `print` downstream
    /// writes the same line traced or not.
    private var upstreamName = ""

    init(downstream: Downstream, node: Int, subscription: Int, recorder: TraceRecorder) {
        self.downstream = downstream
        self.node = node
        self.subscription = subscription
        self.recorder = recorder
    }

    func receive(subscription: any Subscription) {
        upstream = subscription
        upstreamName = Self.name(of: subscription)
        recorder.subscribed(node, self.subscription)
        downstream.receive(subscription: self)
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        recorder.received(node, subscription, input)
        let demand = downstream.receive(input)
        if demand > 0 { recorder.requested(node, subscription, demand, synchronous: true) }
        return demand
    }

    func receive(completion: Subscribers.Completion<StreamError>) {
        recorder.completed(node, subscription, completion)
        upstream = nil
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        recorder.requested(node, subscription, demand, synchronous: false)
        upstream?.request(demand)
    }

    func cancel() {
        recorder.cancelled(node, subscription)
        let upstream = self.upstream
        self.upstream = nil
        upstream?.cancel()
    }
}

extension TraceRecorder {
    /// A recorder for `interpreter`'s run, installed so that operators trace what they build.
    static func attached(to interpreter: Interpreter) -> TraceRecorder {
        let recorder = TraceRecorder(scheduler: interpreter.scheduler) { [weak interpreter] in interpreter?.trace.count ?? 0 }
        interpreter.tracer = recorder
        return recorder
    }
}

extension TracingLink: CustomStringConvertible {
    var description: String { upstreamName }

    /// The name `print()` gives a subscription: its description, else its type's name without
    /// module, generic arguments and helper suffixes (`RecordingLink` → `Recording`).
    static func name(of subscription: any Subscription) -> String {
        if let described = subscription as? any CustomStringConvertible { return described.description }
        var plain = ""
        var depth = 0
        for character in String(reflecting: type(of: subscription)) {
            switch character {
            case "<": depth += 1
            case ">": depth -= 1
            default: if depth == 0 { plain.append(character) }
            }
        }
        var parts = plain.split(separator: ".").map(String.init).filter { !$0.hasPrefix("(") }
        if parts.count > 1 { parts.removeFirst() }
        let helpers: Set<String> = ["Link", "Inner", "Conduit", "Subscription"]
        while parts.count > 1, let last = parts.last, helpers.contains(last) { parts.removeLast() }
        var name = parts.last ?? plain
        for suffix in ["Subscription", "Conduit", "Link"] where name.count > suffix.count && name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            break
        }
        return name
    }
}

/// The stream or operator that did the most in a stretch of a traced run.
struct BusyNode: Equatable {
    var label: String
    var isStream: Bool
    var values: Int
    var subscriptions: Int
    var events: Int
}

extension TraceRecorder {
    /// How many events have been logged.
    var entryCount: Int { entries.count }

    /// The node with the most events logged from entry `first` on; among equals the one built
    /// first, which is the furthest upstream (a `Timer` before the `map` it feeds). Nil when
    /// nothing was logged.
    func busiestNode(fromEntry first: Int) -> BusyNode? {
        guard first < entries.count else { return nil }
        var counts = Array(repeating: (values: 0, subscriptions: 0, events: 0), count: nodes.count)
        for entry in entries[first...] {
            counts[entry.node].events += 1
            switch entry.raw {
            case .value: counts[entry.node].values += 1
            case .subscription: counts[entry.node].subscriptions += 1
            default: break
            }
        }
        guard let busiest = counts.indices.max(by: { counts[$0].events < counts[$1].events || (counts[$0].events == counts[$1].events && $0 > $1) }),
              counts[busiest].events > 0 else { return nil }
        let count = counts[busiest]
        return BusyNode(label: nodes[busiest].label, isStream: nodes[busiest].kind == .stream,
                        values: count.values, subscriptions: count.subscriptions, events: count.events)
    }
}
