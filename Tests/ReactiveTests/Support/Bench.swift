import MarbleNotation
import Reactive
import Testing

/// A failure for engine tests, identified by its message.
struct TestFailure: Error, Hashable, CustomStringConvertible {
    var message: String
    init(_ message: String = "error") { self.message = message }
    var description: String { message }
}

// The engine's tests read and write marbles with MarbleNotation directly, not through
// MarbleTesting: on Apple platforms MarbleTesting drives Combine, and these tests drive Reactive.

/// The events of a marble line (a letter is a one-character String, `{text}` a longer one, `#`
/// fails with `TestFailure()`, `#{boom}` with `TestFailure("boom")`); a mistake in the line
/// fails the test.
func timeline(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [TimedEvent<String, TestFailure>] {
    do {
        return try MarbleParser(frameNanoseconds: 1_000_000).parse(text, as: .hot).events.compactMap { marble in
            switch marble.event {
            case .value(let token): TimedEvent(marble.frame, .value(token.text.hasPrefix("{") ? String(token.text.dropFirst().dropLast()) : token.text))
            case .finished: TimedEvent(marble.frame, .completion(.finished))
            case .failure(let token): TimedEvent(marble.frame, .completion(.failure(token.map { TestFailure(String($0.text.dropFirst().dropLast())) } ?? TestFailure())))
            case .subscribe, .cancel, .request: nil
            }
        }
    } catch {
        Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
        return []
    }
}

/// Recorded events as marble text (`#` for `TestFailure()`, `#{boom}` for another failure).
func render<Output>(_ events: [TimedEvent<Output, some Error>]) -> String {
    MarblePrinter.render(events.map { event in
        switch event.event {
        case .value(let value):
            // One character as itself, unless the notation reserves it; anything else as `{text}`.
            let text = String(describing: value)
            let plain = text.count == 1 && text.allSatisfy { !"-|#()}{^!".contains($0) && !$0.isWhitespace }
            return (event.time, .value(plain ? text : ValueToken.braced(text)))
        case .completion(.finished): return (event.time, .finished)
        case .completion(.failure(let error)):
            return (event.time, .failure((error as? TestFailure) == TestFailure() ? nil : ValueToken.braced(String(describing: error))))
        }
    })
}

/// A subscription log as `^`/`!` lines, one per subscription.
func render(_ log: SubscriptionLog) -> [String] {
    log.spans.map { span in MarblePrinter.render([(span.start, .subscribe)] + (span.end.map { [($0, .cancel)] } ?? [])) }
}

/// Ends a test that drives its own scheduler, as `Bench` does when it goes: cancels the
/// subscribers a stream still open keeps attached, and drops the work still queued (a subscriber
/// and its subscription hold each other; the clock holds its actions, which hold the pipeline).
func letGo(_ scheduler: VirtualTimeScheduler, _ subscribers: any Cancellable...) {
    for subscriber in subscribers { subscriber.cancel() }
    scheduler.discardPendingWork()
}

/// A test bench: one scheduler, hot and cold sources in the mini dialect, a test subscriber.
final class Bench {
    let scheduler = VirtualTimeScheduler()
    /// Every subscriber made here: a stream still open when the test ends, and work still
    /// queued, hold the scheduler in cycles (subscriber and subscription hold each other, the
    /// clock its actions) that the bench breaks when it goes.
    private var made: [any Cancellable] = []

    deinit {
        for subscriber in made { subscriber.cancel() }
        scheduler.discardPendingWork()
    }

    /// A test subscriber on the bench's clock, cancelled when the bench goes.
    func testSubscriber<Input, Failure: Error>(initialDemand: Subscribers.Demand) -> TestSubscriber<Input, Failure> {
        let subscriber = TestSubscriber<Input, Failure>(scheduler: scheduler, initialDemand: initialDemand)
        made.append(subscriber)
        return subscriber
    }

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
        let subscriber: TestSubscriber<P.Output, P.Failure> = testSubscriber(initialDemand: initialDemand)
        scheduler.schedule(at: subscribeAt) { publisher.subscribe(subscriber) }
        for (time, demand) in requests { scheduler.schedule(at: time) { subscriber.request(demand) } }
        if let cancelAt { scheduler.schedule(at: cancelAt) { subscriber.cancel() } }
        scheduler.run(until: deadline)
        return render(subscriber.events)
    }
}

/// Events as `value@frame` / `|@frame` / `#@frame`, for outputs the one-character dialect
/// cannot show (arrays, numbers, several events in one frame whose order matters).
func trace<Output, Failure>(_ events: [TimedEvent<Output, Failure>]) -> [String] {
    events.map { event in
        switch event.event {
        case .value(let value):
            if let array = value as? [String] { return array.joined() + "@\(event.time)" }
            if let array = value as? [Int] { return array.map(String.init).joined(separator: ",") + "@\(event.time)" }
            return "\(value)@\(event.time)"
        case .completion(.finished): return "|@\(event.time)"
        case .completion(.failure): return "#@\(event.time)"
        }
    }
}

extension Bench {
    /// Like `run`, but returns the subscriber, for `trace` and for checks on its bookkeeping.
    func subscriber<P: Publisher>(_ publisher: P, initialDemand: Subscribers.Demand = .unlimited, subscribeAt: Int = 0, cancelAt: Int? = nil, requests: [(Int, Subscribers.Demand)] = [], until deadline: Int? = nil) -> TestSubscriber<P.Output, P.Failure> {
        let subscriber: TestSubscriber<P.Output, P.Failure> = testSubscriber(initialDemand: initialDemand)
        scheduler.schedule(at: subscribeAt) { publisher.subscribe(subscriber) }
        for (time, demand) in requests { scheduler.schedule(at: time) { subscriber.request(demand) } }
        if let cancelAt { scheduler.schedule(at: cancelAt) { subscriber.cancel() } }
        scheduler.run(until: deadline)
        return subscriber
    }
}
