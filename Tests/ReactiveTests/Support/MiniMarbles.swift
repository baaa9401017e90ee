import Reactive

/// A failure for engine tests, identified by its message.
struct TestFailure: Error, Hashable, CustomStringConvertible {
    var message: String
    init(_ message: String = "error") { self.message = message }
    var description: String { message }
}

/// A deliberately small marble dialect for engine tests (the real notation lives in
/// MarbleNotation, which the engine must not depend on): one character per frame; `-` a
/// frame; `|` finished; `#` failure "error"; `(…)` a same-frame group taking one frame; any
/// other character a one-character String value. Spaces are ignored.
func timeline(_ text: String) -> [TimedEvent<String, TestFailure>] {
    var events: [TimedEvent<String, TestFailure>] = []
    var frame = 0
    var inGroup = false
    for character in text where character != " " {
        switch character {
        case "(": inGroup = true; continue
        case ")": inGroup = false
        case "-": break
        case "|": events.append(TimedEvent(frame, .completion(.finished)))
        case "#": events.append(TimedEvent(frame, .completion(.failure(TestFailure()))))
        default: events.append(TimedEvent(frame, .value(String(character))))
        }
        if !inGroup { frame += 1 }
    }
    return events
}

/// Renders recorded events back into the mini dialect, one cell per frame up to the last event.
func render<Output>(_ events: [TimedEvent<Output, some Error>]) -> String {
    guard let last = events.last?.time else { return "" }
    var cells = Array(repeating: [String](), count: last + 1)
    for event in events {
        switch event.event {
        case .value(let value): cells[event.time].append("\(value)")
        case .completion(.finished): cells[event.time].append("|")
        case .completion(.failure(let error)): cells[event.time].append(error is TestFailure && "\(error)" == "error" ? "#" : "#\(error)")
        }
    }
    return cells.map { $0.isEmpty ? "-" : $0.count == 1 ? $0[0] : "(" + $0.joined() + ")" }.joined()
}

/// Renders a subscription log as `^`/`!` lines, one per subscription.
func render(_ log: SubscriptionLog) -> [String] {
    log.spans.map { span in
        var line = String(repeating: "-", count: span.start) + "^"
        if let end = span.end {
            if end == span.start { line = String(repeating: "-", count: span.start) + "(^!)" } else {
                line += String(repeating: "-", count: end - span.start - 1) + "!"
            }
        }
        return line
    }
}

/// A test bench: one scheduler, hot and cold sources in the mini dialect, a test subscriber.
final class Bench {
    let scheduler = VirtualTimeScheduler()

    /// A hot source: a PassthroughSubject fed at absolute frames; subscriptions are logged.
    func hot(_ text: String, log: SubscriptionLog = SubscriptionLog()) -> SubscriptionRecorder<PassthroughSubject<String, TestFailure>> {
        let subject = PassthroughSubject<String, TestFailure>()
        scheduler.play(timeline(text)) { event in
            switch event {
            case .value(let value): subject.send(value)
            case .completion(let completion): subject.send(completion: completion)
            }
        }
        return SubscriptionRecorder(subject, log: log, scheduler: scheduler)
    }

    /// A cold source played from each subscription; subscriptions are logged.
    func cold(_ text: String, log: SubscriptionLog = SubscriptionLog()) -> SubscriptionRecorder<ColdTimeline<String, TestFailure>> {
        SubscriptionRecorder(ColdTimeline(timeline(text), scheduler: scheduler), log: log, scheduler: scheduler)
    }

    /// Subscribes a test subscriber at `subscribeAt`, optionally cancelling at `cancelAt`,
    /// runs the scheduler and returns the recorded events rendered in the mini dialect.
    func run<P: Publisher>(_ publisher: P, initialDemand: Subscribers.Demand = .unlimited, subscribeAt: Int = 0, cancelAt: Int? = nil, requests: [(Int, Subscribers.Demand)] = [], until deadline: Int? = nil) -> String {
        let subscriber = TestSubscriber<P.Output, P.Failure>(scheduler: scheduler, initialDemand: initialDemand)
        scheduler.schedule(at: subscribeAt) { publisher.subscribe(subscriber) }
        for (time, demand) in requests { scheduler.schedule(at: time) { subscriber.request(demand) } }
        if let cancelAt { scheduler.schedule(at: cancelAt) { subscriber.cancel() } }
        scheduler.run(until: deadline)
        return render(subscriber.events)
    }
}
