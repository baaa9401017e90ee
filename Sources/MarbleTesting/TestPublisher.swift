import MarbleNotation
import MarbleReport
import Reactive

/// A source made from marbles by `TestScheduler.hot` or `.cold`. It records its subscriptions
/// and the demand it is asked for, which `expect(source.subscriptions, …)` and
/// `expect(source.requests, …)` check.
public struct TestPublisher<Output, Failure: Error>: Publisher {
    @usableFromInline
    enum Source {
        /// A subject fed at the line's absolute frames: subscribers see what is sent while subscribed.
        case hot(PassthroughSubject<Output, Failure>)
        /// The line played from each subscription's frame.
        case cold(ColdTimeline<Output, Failure>)
    }

    @usableFromInline let source: Source
    @usableFromInline let log: SubscriptionLog
    @usableFromInline let clock: VirtualTimeScheduler
    @usableFromInline let sourceName: SourceName
    /// The name in failures: the one given, else the variable the test declared it as
    /// (`let typing = scheduler.hot(…)`), else `hot`, `cold2`, ….
    public var name: String { sourceName.text }

    @usableFromInline
    init(source: Source, log: SubscriptionLog, clock: VirtualTimeScheduler, name: SourceName) {
        self.source = source
        self.log = log
        self.clock = clock
        sourceName = name
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        switch source {
        case .hot(let subject): SubscriptionRecorder(subject, log: log, scheduler: clock).receive(subscriber: subscriber)
        case .cold(let timeline): SubscriptionRecorder(timeline, log: log, scheduler: clock).receive(subscriber: subscriber)
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
    let log: SubscriptionLog
    /// Every subscription so far: its start frame and end frame (`nil` while active).
    public var spans: [SubscriptionSpan] { log.spans }
}

/// The demand a test source was asked for.
public struct TestRequests {
    let source: SourceName
    let log: SubscriptionLog
    /// Every request so far: its frame and demand, in order, over all subscriptions.
    public var demands: [(frame: VirtualTime, demand: Subscribers.Demand)] { log.requests.map { ($0.time, $0.demand) } }
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
        let log = SubscriptionLog()
        register(SourceRecord(name: name, kind: .hot, marbles: [marbles], log: log), playback: { [clock] in
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
        let log = SubscriptionLog()
        register(SourceRecord(name: name, kind: .cold, marbles: [marbles], log: log), playback: nil)
        return TestPublisher(source: .cold(ColdTimeline(events, scheduler: clock)), log: log, clock: clock, name: name)
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
        register(SourceRecord(name: name, kind: .subject, marbles: [marbles], log: nil), playback: { [clock] in
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
