#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import MarbleNotation
import MarbleReport
import SwiftCallSite
import VirtualClock

extension TestScheduler {
    /// Expects `publisher` to emit `marbles` — the values at their frames, then `|` or `#` —
    /// to a subscriber that attaches at frame 0 (or at the `^` of `subscription`), asks for
    /// `.unlimited` (or what `demand` says, frame by frame) and cancels at the `!` of
    /// `subscription`, if any. Checked by the next `run()`, which records a failure with the
    /// diff at this line.
    ///
    /// - Parameters:
    ///   - values: what value names stand for; a name without an entry is read as the value
    ///     itself where the type allows (`a` for String, `7` for Int).
    ///   - error: what `#` stands for; `errors` names others for `#{name}`.
    ///   - subscription: when the test's subscriber attaches and cancels, e.g. `"--^---!"`.
    ///   - demand: what it asks for and when, e.g. `"2---1"` (2 at frame 0, 1 at frame 4);
    ///     without, `.unlimited` on subscription.
    ///   - name: the publisher's name in the diff; without, the expression the test passed as
    ///     `publisher` when it is a name (`query`, `model.$results`, read from the source), else `output`.
    /// - Returns: the subscriber's recording, readable after `run()`.
    @inlinable @discardableResult
    public func expect<P: Publisher>(
        _ publisher: P, _ marbles: String, values: [Character: P.Output] = [:], error: P.Failure? = nil, errors: [String: P.Failure] = [:],
        subscription: String? = nil, demand: String? = nil, name: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Recording<P.Output, P.Failure> where P.Output: Equatable, P.Failure: Equatable {
        let location = MarbleSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let table = MarbleValues(values: values, error: error, errors: errors)
        let subscriber = subscribe(publisher, subscription: subscription, demand: demand, at: location)
        let recording = Recording<P.Output, P.Failure>(subscriber)
        switch reader.events(marbles, as: .expect, table, role: "expected") {
        case .failure(let mistake):
            report(mistake, at: location)
        case .success(let expected):
            register(PendingCheck(location: location) { scheduler, labelled in
                // The concrete subscriber, not the recording: its `events` is then built for
                // the caller's types (a long timeline would look up their metadata per event).
                let actual = subscriber.events
                guard !sameEvents(expected, actual) else { return nil }
                let name = CallSites.publisherName(name, at: location, marbles: [marbles], in: .second)
                let differences = Comparison.differences(expected: framed(expected), actual: framed(actual), describe: table.describe)
                var notes = Comparison.notes(stream: name, expected: framed(expected), actual: framed(actual), end: ending)
                if let frame = subscriber.valuesWithoutDemand.first { notes.append("\(name) received a value without demand at frame \(frame)") }
                let check = CheckReport(kind: .events, label: name, stream: name, line: Int(line), expected: expected.map(table.rendered),
                                        actual: actual.map(table.rendered), differences: differences, notes: notes)
                var failure = scheduler.failure(check, headline: "\(name) did not emit the expected marbles", labelled: labelled, at: location)
                failure.update = .make(.second, ran: [marbles], new: [ExpectationUpdate.marbles(
                    check.actual.map { ($0.frame, $0.event) }, replacing: marbles, as: .expect, frameNanoseconds: scheduler.frameNanoseconds)]) {
                    (try? scheduler.reader.events($0[0], as: .expect, table, role: "expected").get()) == actual
                }
                return failure
            })
        }
        return recording
    }

    /// Expects `publisher` to emit the values and completion of `marbles` in this order, at
    /// whatever frames: for code whose timing does not matter (`"abc|"`, `"a b c |"`).
    /// The diff numbers events by their position (`index 2: expected c, got finished`).
    @discardableResult
    public func expect<P: Publisher>(
        _ publisher: P, inOrder marbles: String, values: [Character: P.Output] = [:], error: P.Failure? = nil, errors: [String: P.Failure] = [:],
        subscription: String? = nil, demand: String? = nil, name: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Recording<P.Output, P.Failure> where P.Output: Equatable, P.Failure: Equatable {
        let location = MarbleSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let table = MarbleValues(values: values, error: error, errors: errors)
        let recording = Recording<P.Output, P.Failure>(subscribe(publisher, subscription: subscription, demand: demand, at: location))
        switch reader.events(marbles, as: .expect, table, role: "expected") {
        case .failure(let mistake):
            report(mistake, at: location)
        case .success(let expected):
            // Frames are replaced by positions: the n-th event sits at "frame" n.
            let positioned = { (events: [TimedEvent<P.Output, P.Failure>]) in events.enumerated().map { TimedEvent($0.offset, $0.element.event) } }
            let want = positioned(expected)
            register(PendingCheck(location: location) { scheduler, labelled in
                let got = positioned(recording.events)
                guard !sameEvents(want, got) else { return nil }
                let name = CallSites.publisherName(name, at: location, marbles: [marbles], in: .labelled("inOrder"))
                let differences = Comparison.differences(expected: framed(want), actual: framed(got), describe: table.describe)
                let check = CheckReport(kind: .events, label: name, stream: name, line: Int(line), expected: want.map(table.rendered),
                                        actual: got.map(table.rendered), differences: differences)
                var failure = scheduler.failure(check, headline: "\(name) did not emit the expected events in order", labelled: labelled,
                                                position: "index", at: location)
                failure.update = .make(.labelled("inOrder"), ran: [marbles], new: [ExpectationUpdate.inOrder(check.actual.map(\.event), replacing: marbles)]) {
                    (try? scheduler.reader.events($0[0], as: .expect, table, role: "expected").get()).map(positioned) == got
                }
                return failure
            })
        }
        return recording
    }

    /// Expects the subscriptions of a test source, one marble line per subscription in order:
    /// `^` where it began, `!` where it ended (cancelled, or the source completed). No line:
    /// the source must never be subscribed.
    public func expect(
        _ subscriptions: TestSubscriptions, _ lines: String...,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let location = MarbleSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        var expected: [SubscriptionSpan] = []
        for text in lines {
            switch reader.span(text, role: "subscription") {
            case .success(let span): expected.append(span)
            case .failure(let mistake): return report(mistake, at: location)
            }
        }
        register(PendingCheck(location: location) { scheduler, labelled in
            let actual = subscriptions.spans
            guard actual != expected else { return nil }
            let stream = subscriptions.source.written ?? CallSites.publisher(at: location, marbles: lines, in: .rest, property: "subscriptions")
                ?? subscriptions.source.fallback
            let label = stream + ".subscriptions"
            var failures: [MarbleFailure] = []
            for ordinal in 1...max(1, max(expected.count, actual.count)) {
                let want = expected.indices.contains(ordinal - 1) ? expected[ordinal - 1] : nil
                let got = actual.indices.contains(ordinal - 1) ? actual[ordinal - 1] : nil
                var differences = Comparison.subscriptionDifferences(stream: stream, expected: want.map { ($0.start, $0.end) },
                                                                     actual: got.map { ($0.start, $0.end) }, ordinal: ordinal)
                if expected.isEmpty, let got {
                    differences = [Difference(frame: got.start, sentence: "expected \(stream) never to be subscribed, but it was subscribed here")]
                }
                guard !differences.isEmpty else { continue }
                let check = CheckReport(kind: .subscriptions, label: label, stream: stream, line: Int(line), expected: Comparison.render(want.map { ($0.start, $0.end) }),
                                        actual: Comparison.render(got.map { ($0.start, $0.end) }), differences: differences)
                failures.append(scheduler.failure(check, headline: "the \(Comparison.ordinalText(ordinal)) subscription to \(stream) differs",
                                                  labelled: labelled, at: location))
                if expected.isEmpty { break }
            }
            var failure = MarbleFailure(combining: failures)
            failure?.update = .make(.rest, ran: lines, new: zip(actual.indices, actual).map { index, span in
                ExpectationUpdate.marbles(Comparison.render((span.start, span.end)).map { ($0.frame, $0.event) }, replacing: lines.indices.contains(index) ? lines[index] : "",
                                          as: .subscription, frameNanoseconds: scheduler.frameNanoseconds)
            }) { $0.map { try? scheduler.reader.span($0, role: "subscription").get() } == actual.map(Optional.some) }
            return failure
        })
    }

    /// Expects the demand a test source was asked for, over all its subscriptions:
    /// a digit or `{n}` for `.max(n)`, `*` for `.unlimited`, at the frame it was asked.
    public func expect(
        _ requests: TestRequests, _ marbles: String,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let location = MarbleSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let expected: [(frame: Int, demand: DemandRequest)]
        switch reader.demands(marbles, role: "requests") {
        case .success(let demands): expected = demands.map { ($0.frame, request($0.demand)) }
        case .failure(let mistake): return report(mistake, at: location)
        }
        register(PendingCheck(location: location) { scheduler, labelled in
            let actual = requests.demands.map { ($0.frame, request($0.demand)) }
            let stream = requests.source.written ?? CallSites.publisher(at: location, marbles: [marbles], in: .second, property: "requests")
                ?? requests.source.fallback
            let label = stream + ".requests"
            let differences = Comparison.requestDifferences(stream: stream, expected: expected, actual: actual)
            guard !differences.isEmpty else { return nil }
            let check = CheckReport(kind: .requests, label: label, stream: stream, line: Int(line), expected: Comparison.render(expected),
                                    actual: Comparison.render(actual), differences: differences)
            var failure = scheduler.failure(check, headline: "\(stream) was not asked for the expected demand", labelled: labelled, at: location)
            failure.update = .make(.second, ran: [marbles], new: [ExpectationUpdate.marbles(
                check.actual.map { ($0.frame, $0.event) }, replacing: marbles, as: .demand, frameNanoseconds: scheduler.frameNanoseconds)]) {
                (try? scheduler.reader.demands($0[0], role: "requests").get()).map { Comparison.render($0.map { ($0.frame, request($0.demand)) }) } == check.actual
            }
            return failure
        })
    }

    /// Subscribes a recording subscriber to `publisher` as `subscription` and `demand` say.
    @inlinable
    func subscribe<P: Publisher>(_ publisher: P, subscription: String?, demand: String?, at location: MarbleSourceLocation) -> MarbleSubscriber<P.Output, P.Failure> {
        var span = SubscriptionSpan(start: max(0, clock.currentFrame))
        if let subscription {
            switch reader.span(subscription, role: "subscription") {
            case .success(let parsed): span = parsed
            case .failure(let mistake): report(mistake, at: location)
            }
        }
        var requests: [(frame: Int, demand: Subscribers.Demand)] = []
        if let demand {
            switch reader.demands(demand, role: "demand") {
            case .success(let parsed): requests = parsed
            case .failure(let mistake): report(mistake, at: location)
            }
        }
        let subscriber = MarbleSubscriber<P.Output, P.Failure>(clock: clock, initialDemand: demand == nil ? .unlimited : .none)
        attach(subscriber, span: span, requests: requests) { publisher.subscribe(subscriber) }
        return subscriber
    }

    /// Schedules `subscribe` at the span's start, the requests, and the cancel at its end.
    @usableFromInline
    func attach<Output, Failure>(_ recorder: any MarbleRecorder<Output, Failure>, span: SubscriptionSpan,
                                 requests: [(frame: Int, demand: Subscribers.Demand)], subscribe: @escaping () -> Void) {
        attachedRecorders.append(recorder.cancel)
        clock.schedule(at: span.start, subscribe)
        for request in requests { clock.schedule(at: request.frame) { recorder.request(request.demand) } }
        if let end = span.end { clock.schedule(at: end) { recorder.cancel() } }
    }
}

/// `expected == actual`, written out so that it compiles for the caller's types: `Array.==`
/// reaches `TimelineEvent`'s synthesised `==` unspecialised, which looked up generic metadata for
/// every event (callgrind, `marbles-bench swift-api W1`: about 750 instructions an event).
@inlinable
func sameEvents<Output: Equatable, Failure: Equatable>(_ expected: [TimedEvent<Output, Failure>], _ actual: [TimedEvent<Output, Failure>]) -> Bool {
    guard expected.count == actual.count else { return false }
    for index in expected.indices {
        let want = expected[index], got = actual[index]
        guard want.time == got.time else { return false }
        switch (want.event, got.event) {
        case let (.value(a), .value(b)): guard a == b else { return false }
        case (.completion(.finished), .completion(.finished)): continue
        case let (.completion(.failure(a)), .completion(.failure(b))): guard a == b else { return false }
        default: return false
        }
    }
    return true
}

/// An event list as the comparison reads it.
@usableFromInline
func framed<Output, Failure>(_ events: [TimedEvent<Output, Failure>]) -> [(frame: Int, event: TimelineEvent<Output, Failure>)] {
    events.map { ($0.time, $0.event) }
}

/// How an event ends its stream, if it does, for the comparison's notes.
@usableFromInline
func ending<Output, Failure>(_ event: TimelineEvent<Output, Failure>) -> Comparison.End? {
    switch event {
    case .value: nil
    case .completion(.finished): .finished
    case .completion(.failure): .failed
    }
}

/// A demand as the notation writes it.
func request(_ demand: Subscribers.Demand) -> DemandRequest {
    demand.max.map(DemandRequest.max) ?? .unlimited
}

/// What an expectation reads from the subscriber it attached, and how it scripts it.
public protocol MarbleRecorder<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error
    /// Every event received, in order, with its frame.
    var events: [TimedEvent<Output, Failure>] { get }
    /// Frames at which a value arrived beyond the demand.
    var valuesWithoutDemand: [VirtualTime] { get }
    func request(_ demand: Subscribers.Demand)
    func cancel()
}

/// The subscriber an expectation attaches: attaches when told, requests what it is told,
/// cancels when told, and records every event it receives with its frame.
@usableFromInline
final class MarbleSubscriber<Input, Failure: Error>: Subscriber, Cancellable, MarbleRecorder {
    @usableFromInline let clock: VirtualTimeScheduler
    /// Every event received, with its frame, in order (values, then at most one completion).
    /// Inlinable so that callers build it specialised for their types (generic, it would look
    /// up metadata per element).
    @inlinable var events: [TimedEvent<Input, Failure>] {
        var events = zip(valueFrames, values).map { TimedEvent<Input, Failure>($0, .value($1)) }
        if let completion { events.append(TimedEvent(completion.frame, .completion(completion.completion))) }
        return events
    }
    // Values and their frames are kept in two plain arrays: making a `TimedEvent` per value in
    // this generic class would look up its type metadata every time, the costliest step of
    // recording a long timeline.
    // Used from one thread, with no access spanning a call back into the subscriber: the runtime
    // exclusivity checks would cost more than the recording (as in Reactive's TestSubscriber).
    @exclusivity(unchecked) @usableFromInline var valueFrames: [VirtualTime] = []
    @exclusivity(unchecked) @usableFromInline var values: [Input] = []
    /// Appends a value and its frame. Made by the inlinable initialiser, so its body is compiled
    /// for the caller's `Input`: appending to `[Input]` from this generic class would look up
    /// `Array<Input>`'s metadata for every value.
    @usableFromInline var record: (Input, VirtualTime) -> Void = { _, _ in }
    @exclusivity(unchecked) @usableFromInline var completion: (frame: VirtualTime, completion: Subscribers.Completion<Failure>)?
    /// Frames at which a value arrived beyond the demand this subscriber had signalled.
    @exclusivity(unchecked) @usableFromInline private(set) var valuesWithoutDemand: [VirtualTime] = []
    @usableFromInline let initialDemand: Subscribers.Demand
    @exclusivity(unchecked) private var subscription: (any Subscription)?
    @exclusivity(unchecked) private var outstanding: Subscribers.Demand = .none
    @exclusivity(unchecked) private var isSubscribed = false
    @exclusivity(unchecked) private var isCancelled = false
    /// Whether `completion` is set: testing the optional generic tuple instead would look up its
    /// type metadata for every value.
    @exclusivity(unchecked) private var isCompleted = false

    @inlinable
    init(clock: VirtualTimeScheduler, initialDemand: Subscribers.Demand) {
        self.clock = clock
        self.initialDemand = initialDemand
        // The subscriber owns the closure and is the only caller, so the closure need not retain it.
        record = { [unowned(unsafe) self] value, frame in
            self.valueFrames.append(frame)
            self.values.append(value)
        }
    }

    @usableFromInline
    func receive(subscription: any Subscription) {
        // A second subscription, or one after a cancel, is refused.
        guard !isSubscribed, !isCancelled else { return subscription.cancel() }
        isSubscribed = true
        self.subscription = subscription
        if initialDemand > 0 {
            outstanding += initialDemand
            subscription.request(initialDemand)
        }
    }

    @usableFromInline
    func receive(_ input: Input) -> Subscribers.Demand {
        guard !isCompleted else { return .none }
        if outstanding == .none { valuesWithoutDemand.append(clock.currentFrame) } else { outstanding -= 1 }
        record(input, clock.currentFrame)
        return .none
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Failure>) {
        guard !isCompleted else { return }
        isCompleted = true
        self.completion = (clock.currentFrame, completion)
        // Let go of the finished subscription, as Combine's Sink does (OpenCombine Sink.swift):
        // a pipeline that holds the test's scheduler (debounce, delay) would otherwise keep the
        // scheduler, and through it this subscriber, alive after the test.
        subscription = nil
    }

    /// Asks for more values (no effect before the subscription arrives or after a cancel).
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        guard let subscription, demand > 0, !isCancelled else { return }
        outstanding += demand
        subscription.request(demand)
    }

    @usableFromInline
    func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        let subscription = self.subscription
        self.subscription = nil
        subscription?.cancel()
    }
}

/// What the test's subscriber of an `expect` received, with frames (complete after `run()`).
public struct Recording<Output, Failure: Error> {
    let recorder: any MarbleRecorder<Output, Failure>
    @usableFromInline
    init(_ recorder: any MarbleRecorder<Output, Failure>) { self.recorder = recorder }
    /// Every event received, in order, with its frame.
    public var events: [TimedEvent<Output, Failure>] { recorder.events }
    /// The values received, in order.
    public var values: [Output] { recorder.events.compactMap { if case .value(let value) = $0.event { value } else { nil } } }
    /// Frames at which a value arrived beyond the subscriber's demand.
    public var valuesWithoutDemand: [VirtualTime] { recorder.valuesWithoutDemand }
}
