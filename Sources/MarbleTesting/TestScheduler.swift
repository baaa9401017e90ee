import MarbleNotation
import MarbleReport
import VirtualClock

/// A virtual clock for marble tests of your own publishers: sources from marbles (`hot`, `cold`,
/// `send`), expectations in marbles (`expect`), and one `run()` that plays the clock and reports
/// every unmet expectation to Swift Testing or XCTest at the line that wrote it.
///
/// One frame — one character of a marble string — lasts `frame`. Idle time costs nothing: the
/// clock jumps from one scheduled action to the next.
///
/// ```swift
/// let scheduler = TestScheduler(frame: .milliseconds(100))
/// let typing = scheduler.hot("-a-b-c-----d--e-|")
/// let query = typing.debounce(for: .milliseconds(300), scheduler: scheduler)
/// scheduler.expect(query, "--------c-------|")
/// scheduler.run()
/// ```
public final class TestScheduler {
    /// The engine's clock that user code schedules on; its time is in frames.
    public let clock: VirtualTimeScheduler
    /// The length of one frame, in nanoseconds.
    public let frameNanoseconds: Int64
    @usableFromInline var reader: MarbleReader { MarbleReader(frameNanoseconds: frameNanoseconds) }

    /// Every hot, cold and `send` source, in creation order (for diagrams).
    private(set) var sources: [SourceRecord] = []
    /// Hot sources and `send` lines wait for `run()` to start playing, so that a subscription
    /// at frame 0 comes before their frame-0 events (RxJS's TestScheduler does the same).
    private var pendingPlayback: [() -> Void] = []
    private var pendingChecks: [PendingCheck] = []
    /// How to cancel each subscriber an expectation attached. A stream still open when the test
    /// ends keeps its subscriber and its subscription alive in each other, and queued work keeps
    /// the operators that scheduled it: when the scheduler goes, it cancels them and drops that
    /// work, so that a test leaves nothing behind.
    @usableFromInline var attachedRecorders: [() -> Void] = []
    /// How far `advance` has moved time, in nanoseconds: it can lie inside a frame, so that
    /// advances shorter than a frame add up.
    var advancedNanoseconds = 0

    /// - Parameter frame: how long one frame of a marble string lasts (`10ms` in a marble
    ///   string is then 10ms / frame frames). At least one nanosecond.
    public init(frame: Duration = .milliseconds(1), limits: VirtualTimeScheduler.Limits = VirtualTimeScheduler.Limits()) {
        frameNanoseconds = Self.nanoseconds(frame)
        clock = VirtualTimeScheduler(limits: limits)
    }

    /// A frame length in whole nanoseconds, at least one.
    static func nanoseconds(_ frame: Duration) -> Int64 {
        let (seconds, attoseconds) = frame.components
        return max(1, seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000)
    }

    deinit {
        // An expectation nobody checked would otherwise pass in silence.
        for check in pendingChecks {
            TestLibrary.record(MarbleFailure(message: "this expectation was never checked: call run() on its TestScheduler after the last expect",
                                             location: check.location))
        }
        for cancel in attachedRecorders { cancel() }
        clock.discardPendingWork()
    }

    /// The current frame (`now` is its start, as a `Scheduler` time).
    public var currentFrame: VirtualTime { clock.currentFrame }

    // MARK: Running

    /// Plays the clock until nothing is left to do (or `frame`, when given), then checks every
    /// expectation made since the last run and records each one that failed, at its `expect`
    /// line, as an issue of the running test (Swift Testing) or a failure (XCTest).
    /// Returns the failures it recorded.
    @discardableResult
    public func run(until frame: VirtualTime? = nil,
                    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) -> [MarbleFailure] {
        var failures: [MarbleFailure] = []
        if let stop = play(until: frame, at: MarbleSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)) {
            failures.append(stop)
        }
        let checks = pendingChecks
        pendingChecks = []
        let labelled = checks.count > 1
        for check in checks {
            guard let failure = check.evaluate(self, labelled) else { continue }
            failures.append(failure)
        }
        failures = failures.map(ExpectationUpdate.applied)
        for failure in failures { TestLibrary.record(failure) }
        return failures
    }

    /// Starts the playback of sources made since the last run, then plays the clock until
    /// nothing is left to do (or `frame`). Returns the failure of a run that a limit stopped.
    func play(until frame: VirtualTime?, at location: MarbleSourceLocation) -> MarbleFailure? {
        let playback = pendingPlayback
        pendingPlayback = []
        for start in playback { start() }
        guard let stop = clock.run(until: frame) else { return nil }
        return MarbleFailure(message: "the run stopped at frame \(clock.currentFrame): \(stop)", location: location)
    }

    // MARK: For sources and expectations

    @usableFromInline
    func register(_ source: SourceRecord, playback: (() -> Void)?) {
        sources.append(source)
        if let playback { pendingPlayback.append(playback) }
    }

    @usableFromInline
    func register(_ check: PendingCheck) { pendingChecks.append(check) }

    /// A name for the next source of `kind`: `hot`, `hot2`, …
    @usableFromInline
    func defaultName(_ kind: StreamReport.Kind, _ base: String) -> String {
        let count = sources.filter { $0.kind == kind }.count
        return count == 0 ? base : base + String(count + 1)
    }

    /// Records a mistake in a marble string now, at the call that passed it.
    @usableFromInline
    func report(_ mistake: MarbleMistake, at location: MarbleSourceLocation) {
        TestLibrary.record(MarbleFailure(message: mistake.message, location: location))
    }
}

/// A source's declaration, for the diagram above a failing expectation.
@usableFromInline
struct SourceRecord {
    var sourceName: SourceName
    var kind: StreamReport.Kind
    var marbles: [String]
    /// Its subscriptions so far (a cold or hot source's; `send` lines have none).
    var spans: (() -> [SubscriptionSpan])?
    var name: String { sourceName.text }

    @usableFromInline
    init(name: SourceName, kind: StreamReport.Kind, marbles: [String], spans: (() -> [SubscriptionSpan])?) {
        sourceName = name
        self.kind = kind
        self.marbles = marbles
        self.spans = spans
    }
}

/// An expectation waiting for `run()`: it builds its report from what was recorded.
@usableFromInline
struct PendingCheck {
    var location: MarbleSourceLocation
    var evaluate: (TestScheduler, _ labelled: Bool) -> MarbleFailure?

    @usableFromInline
    init(location: MarbleSourceLocation, evaluate: @escaping (TestScheduler, _ labelled: Bool) -> MarbleFailure?) {
        self.location = location
        self.evaluate = evaluate
    }
}
