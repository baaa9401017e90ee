#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import MarbleNotation
import MarbleReport
import VirtualClock

/// A source made from marbles by `TestScheduler.hot` or `.cold`: a publisher of the engine the
/// test runs on (Combine where it can be imported, else `Reactive`). It records its
/// subscriptions and the demand it is asked for, which `expect(source.subscriptions, …)` and
/// `expect(source.requests, …)` check.
public struct TestPublisher<Output, Failure: Error>: Publisher {
    @usableFromInline
    enum Source {
        /// A subject fed at the line's absolute frames: subscribers see what is sent while subscribed.
        case hot(PassthroughSubject<Output, Failure>)
        /// The line played from each subscription's frame.
        case cold([TimedEvent<Output, Failure>])
    }

    @usableFromInline let source: Source
    @usableFromInline let log: SourceLog
    @usableFromInline let clock: VirtualTimeScheduler
    @usableFromInline let sourceName: SourceName
    /// The name in failures: the one given, else the variable the test declared it as
    /// (`let typing = scheduler.hot(…)`), else `hot`, `cold2`, ….
    public var name: String { sourceName.text }

    @usableFromInline
    init(source: Source, log: SourceLog, clock: VirtualTimeScheduler, name: SourceName) {
        self.source = source
        self.log = log
        self.clock = clock
        sourceName = name
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let recording = RecordingSubscription(downstream: subscriber, log: log, index: log.open(at: clock.currentFrame), clock: clock)
        switch source {
        case .hot(let subject):
            subject.subscribe(recording)
        case .cold(let events):
            let subscription = ColdSubscription(downstream: recording)
            recording.receive(subscription: subscription)
            subscription.start(events, on: clock)
        }
    }

    /// Its subscriptions, for `expect(source.subscriptions, "--^--!")`.
    public var subscriptions: TestSubscriptions { TestSubscriptions(source: sourceName, log: log) }
    /// The demand it was asked for, for `expect(source.requests, "3---1")`.
    public var requests: TestRequests { TestRequests(source: sourceName, log: log) }
}

/// The subscriptions a test source saw.
public struct TestSubscriptions {
    let source: SourceName
    let log: SourceLog
    /// Every subscription so far: its start frame and end frame (`nil` while active).
    public var spans: [SubscriptionSpan] { log.spans }
}

/// The demand a test source was asked for.
public struct TestRequests {
    let source: SourceName
    let log: SourceLog
    /// Every request so far: its frame and demand, in order, over all subscriptions.
    public var demands: [(frame: VirtualTime, demand: Subscribers.Demand)] { log.requests }
}

/// The subscription history of a test source: when each subscription began and ended, and every
/// demand requested through them (in a value's return too, which Combine adds to the demand).
@usableFromInline
final class SourceLog {
    @usableFromInline private(set) var spans: [SubscriptionSpan] = []
    private(set) var requests: [(frame: VirtualTime, demand: Subscribers.Demand)] = []

    @usableFromInline init() {}

    func open(at frame: VirtualTime) -> Int {
        spans.append(SubscriptionSpan(start: frame))
        return spans.count - 1
    }

    func request(_ demand: Subscribers.Demand, at frame: VirtualTime) {
        requests.append((frame, demand))
    }

    func close(_ index: Int, at frame: VirtualTime) {
        guard spans[index].end == nil else { return }
        spans[index].end = frame
    }
}

/// Between a test source and its subscriber: records the subscription's requests and its end
/// (the completion, or a cancel) in the source's log, and is transparent otherwise — what the
/// source still sends after a cancel reaches the subscriber, as without it.
final class RecordingSubscription<Downstream: Subscriber>: Subscriber, Subscription {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let log: SourceLog
    private let index: Int
    private let clock: VirtualTimeScheduler
    private var upstream: (any Subscription)?
    private var isCompleted = false

    init(downstream: Downstream, log: SourceLog, index: Int, clock: VirtualTimeScheduler) {
        self.downstream = downstream
        self.log = log
        self.index = index
        self.clock = clock
    }

    func receive(subscription: any Subscription) {
        guard upstream == nil, !isCompleted else { return subscription.cancel() }
        upstream = subscription
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard !isCompleted else { return .none }
        let more = downstream.receive(input)
        if more > 0 { log.request(more, at: clock.currentFrame) }
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard !isCompleted else { return }
        isCompleted = true
        upstream = nil
        log.close(index, at: clock.currentFrame)
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        guard !isCompleted else { return }
        log.request(demand, at: clock.currentFrame)
        upstream?.request(demand)
    }

    func cancel() {
        guard !isCompleted else { return }
        log.close(index, at: clock.currentFrame)
        let upstream = self.upstream
        self.upstream = nil
        upstream?.cancel()
    }
}

/// One subscription to a cold source: plays the line from its own frame. Values that arrive
/// while the subscriber has no demand wait, with the completion behind them, and are delivered
/// in order as soon as demand arrives. (The bookkeeping of Reactive's `ColdTimeline`, which the
/// interpreter uses; this one is compiled against whichever engine MarbleTesting is built on.)
final class ColdSubscription<Downstream: Subscriber>: Subscription {
    typealias Event = TimelineEvent<Downstream.Input, Downstream.Failure>
    private var downstream: Downstream?
    private var demand: Subscribers.Demand = .none
    private var buffer: [Event] = []
    private var bufferStart = 0
    private var playback: TimelinePlayback<Event>?
    private var isDraining = false

    init(downstream: Downstream) { self.downstream = downstream }

    func start(_ events: [TimedEvent<Downstream.Input, Downstream.Failure>], on clock: VirtualTimeScheduler) {
        guard downstream != nil else { return }
        playback = clock.play(events, offset: clock.currentFrame) { [weak self] event in
            self?.arrive(event)
        }
    }

    private func arrive(_ event: Event) {
        buffer.append(event)
        if event.isTerminal { playback = nil }
        drain()
    }

    func request(_ demand: Subscribers.Demand) {
        guard downstream != nil, demand > 0 else { return }
        self.demand += demand
        drain()
    }

    private func drain() {
        guard !isDraining else { return }
        isDraining = true
        defer { isDraining = false }
        while bufferStart < buffer.count, let downstream {
            switch buffer[bufferStart] {
            case .value(let value):
                guard demand > 0 else { return }
                bufferStart += 1
                demand -= 1
                demand += downstream.receive(value)
            case .completion(let completion):
                bufferStart += 1
                self.downstream = nil
                downstream.receive(completion: completion)
            }
            if bufferStart > 64, bufferStart * 2 > buffer.count {
                buffer.removeFirst(bufferStart)
                bufferStart = 0
            }
        }
    }

    func cancel() {
        downstream = nil
        buffer = []
        playback?.cancel()
        playback = nil
    }
}

extension TestScheduler {
    /// A hot source: a subject that sends the line's events at their frames (absolute: frame 0
    /// is the first character, or `^`). Subscribers see what arrives while they are subscribed.
    ///
    /// - Parameters:
    ///   - values: what value names stand for (without, `a` is "a" for String, `7` is 7 for Int).
    ///   - error: what `#` stands for; `errors` names others for `#{name}`.
    ///   - name: the source's name in failures; without, the variable the test declared it as
    ///     (`let typing = scheduler.hot(…)`, read from the source), else `hot`, `hot2`, ….
    @inlinable
    public func hot<Output, Failure: Error>(
        _ marbles: String, values: [Character: Output] = [:], error: Failure? = nil, errors: [String: Failure] = [:], name: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        let location = MarbleSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let name = SourceName(given: name, fallback: defaultName(.hot, "hot"), callee: "hot", marbles: marbles, at: location)
        let events = timeline(marbles, as: .hot, MarbleValues(values: values, error: error, errors: errors), role: "hot", at: location)
        let subject = PassthroughSubject<Output, Failure>()
        let log = SourceLog()
        register(SourceRecord(name: name, kind: .hot, marbles: [marbles], spans: { log.spans }), playback: { [clock] in
            clock.play(events) { event in
                switch event {
                case .value(let value): subject.send(value)
                case .completion(let completion): subject.send(completion: completion)
                }
            }
        })
        return TestPublisher(source: .hot(subject), log: log, clock: clock, name: name)
    }

    /// A hot source that never fails.
    @inlinable
    public func hot<Output>(
        _ marbles: String, values: [Character: Output] = [:], name: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> TestPublisher<Output, Never> {
        hot(marbles, values: values, error: nil, errors: [:], name: name, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A hot source of the line's characters as strings (`a` is "a", `{hello}` is "hello").
    public func hot(
        _ marbles: String, name: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> TestPublisher<String, Never> {
        hot(marbles, values: [:], error: nil, errors: [:], name: name, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A cold source: each subscription plays the line from its own frame (the first character
    /// is the subscription's frame). Values wait for demand, the completion behind them.
    @inlinable
    public func cold<Output, Failure: Error>(
        _ marbles: String, values: [Character: Output] = [:], error: Failure? = nil, errors: [String: Failure] = [:], name: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        let location = MarbleSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let name = SourceName(given: name, fallback: defaultName(.cold, "cold"), callee: "cold", marbles: marbles, at: location)
        let events = timeline(marbles, as: .cold, MarbleValues(values: values, error: error, errors: errors), role: "cold", at: location)
        let log = SourceLog()
        register(SourceRecord(name: name, kind: .cold, marbles: [marbles], spans: { log.spans }), playback: nil)
        return TestPublisher(source: .cold(events), log: log, clock: clock, name: name)
    }

    /// A cold source that never fails.
    @inlinable
    public func cold<Output>(
        _ marbles: String, values: [Character: Output] = [:], name: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> TestPublisher<Output, Never> {
        cold(marbles, values: values, error: nil, errors: [:], name: name, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A cold source of the line's characters as strings.
    public func cold(
        _ marbles: String, name: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> TestPublisher<String, Never> {
        cold(marbles, values: [:], error: nil, errors: [:], name: name, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Drives `subject` (yours: a `PassthroughSubject`, a `CurrentValueSubject`) with the line's
    /// events at their absolute frames, like a hot source. Its lane in failures is named `name`,
    /// else as the test wrote `subject` (`to: model.events`), else `send`.
    public func send<S: Subject>(
        _ marbles: String, values: [Character: S.Output] = [:], error: S.Failure? = nil, errors: [String: S.Failure] = [:], to subject: S,
        name: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        send(marbles, values: values, error: error, errors: errors, name: name, fileID: fileID, filePath: filePath, line: line, column: column) { event in
            switch event {
            case .value(let value): subject.send(value)
            case .completion(let completion): subject.send(completion: completion)
            }
        }
    }

    /// Calls `body` with each value of the line at its absolute frame (`model.query = $0`);
    /// completions and failures are ignored. Its lane in failures is named `name`, else by the
    /// property the closure assigns (`{ model.query = $0 }` names it `model.query`), else `send`.
    public func send<Output>(
        _ marbles: String, values: [Character: Output] = [:], name: String? = nil,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        _ body: @escaping (Output) -> Void
    ) {
        send(marbles, values: values, error: nil as Never?, errors: [:], name: name, fileID: fileID, filePath: filePath, line: line, column: column) { event in
            if case .value(let value) = event { body(value) }
        }
    }

    private func send<Output, Failure: Error>(
        _ marbles: String, values: [Character: Output], error: Failure?, errors: [String: Failure], name: String?,
        fileID: String, filePath: StaticString, line: UInt, column: UInt, deliver: @escaping (TimelineEvent<Output, Failure>) -> Void
    ) {
        let location = MarbleSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let events = timeline(marbles, as: .hot, MarbleValues(values: values, error: error, errors: errors), role: "send", at: location)
        let name = SourceName(given: name, fallback: "send") { CallSites.sendTarget(at: location, marbles: marbles) }
        register(SourceRecord(name: name, kind: .subject, marbles: [marbles], spans: nil), playback: { [clock] in
            clock.play(events, deliver: deliver)
        })
    }

    /// The events of a source line; a mistake is recorded at `location` and leaves no events.
    @inlinable
    func timeline<Output, Failure>(_ marbles: String, as kind: MarbleNotation.MarbleLineKind, _ values: MarbleValues<Output, Failure>,
                                   role: String, at location: MarbleSourceLocation) -> [TimedEvent<Output, Failure>] {
        switch reader.events(marbles, as: kind, values, role: role) {
        case .success(let events):
            // Time before `^` is real: the clock starts at the earliest frame of any source.
            if let first = events.first?.time, first < 0 { clock.rewindStart(to: first) }
            return events
        case .failure(let mistake):
            report(mistake, at: location)
            return []
        }
    }
}
