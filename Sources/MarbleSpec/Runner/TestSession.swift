import Reactive
import MarbleNotation
import MarbleSyntax

/// Limits and switches for running tests.
public struct RunOptions: Sendable {
    /// Actions allowed at one instant before a run is declared unsettled.
    public var maxActionsPerInstant = 100_000
    /// Actions allowed in one test run, plus `actionsPerWrittenEvent` for every event its lines
    /// write: a run's work is bounded by the size of the test, so a pipeline that keeps the
    /// scheduler busy across a long line (a timer every frame for `100000s`) is stopped in
    /// a fraction of a second, not after gigabytes of recorded ticks.
    public var maxActions = 100_000
    /// See `maxActions`.
    public var actionsPerWrittenEvent = 100
    /// After the end of the test's longest line a run goes on until no work is left, for at most
    /// as many actions again as it took until then, and at least this many; a pipeline still
    /// busy after that never settles (a repeating timer, say), and the test stops with an error.
    public var settleActions = 1_000
    /// Names of the tests to run; nil runs every test. The whole file is still parsed (a
    /// mistake in its structure means no test runs); a mistake in a test not chosen is not reported.
    public var selectedTests: Set<String>? = nil
    /// Logs every event at every named stream and operator into `TestReport.events`
    /// (`marbles trace`). Off: nothing is wrapped, nothing is logged.
    public var traceEvents = false
    /// Keeps the whole report of a passing test. Off, a passing test's report keeps only what a
    /// summary shows (`TestReport.passingSummary`: name, line, time, warnings, `print` output),
    /// so that a file of a million tests does not hold a million runs' events; `marbles run`
    /// turns it off unless a reporter lists passing tests' events (`--reporter json`).
    public var keepsPassingReports = true
    public init() {}
}

/// One test: prepared from its syntax (every stream built, every marble parsed, every name
/// checked), then run once on its own virtual scheduler.
///
/// This file holds the session's state and its diagnostics; the work is in extensions, one
/// file per stage: `TestSession+Preparation` (frame length, declared types, name check),
/// `+Marbles` (marble lines to engine events), `+Binding` (streams bound to names),
/// `+Observation` (subscribers, `expect`, `send` and `connect` lines), `+Running` (the run
/// until it settles), `+Drops` (values a subscription did not get) and `+Checks` (the run
/// compared with the `expect` lines).
final class TestSession {
    let syntax: TestSyntax
    let path: String
    let lines: LineTable
    let fileStatements: [Statement]
    let options: RunOptions
    var diagnostics: [FileDiagnostic] = []

    let frameNanoseconds: Int64
    /// The file's notation (`notation rxjs`): how its marble strings are read.
    let dialect: MarbleDialect
    var table: ValueTable
    let scheduler: VirtualTimeScheduler
    let interpreter: Interpreter
    let activity: StreamActivity
    /// Only with `RunOptions.traceEvents`.
    let tracer: TraceRecorder?

    struct NamedStream {
        var stream: StreamValue
        var log: SubscriptionLog
        var report: StreamReport
        /// The name where it is defined.
        var definition: SourceLocation
    }
    var streamOrder: [String] = []
    var valueNames: [ValueName] = []
    struct SubscriberPlan {
        var name: String
        var subscribeAt = 0
        var cancelAt: Int?
        var requests: [(frame: Int, demand: Subscribers.Demand)] = []
        var hasSubscribeLine = false
        var hasDemandLine = false
        var subscriber: TestSubscriber<Value, StreamError>?
        /// Which subscription of the stream's log is the test subscriber's.
        var subscription: Int?
    }
    struct Expectation {
        var name: String
        var property: String?
        var line: Int
        /// The column of `expect`.
        var column: Int
        /// The last frame the line covers.
        var lastFrame: Int
        var events: [TimedEvent<Value, StreamError>]
        var span: SubscriptionSpan?
        /// A `.subscriptions` line without `^` under an RxJS notation: RxJS's
        /// `expectSubscriptions` leaves such a line out, so it expects no subscription of its own
        /// (all of a stream's lines being such, the stream is expected never to be subscribed).
        var leftOut = false
        var requests: [(frame: Int, demand: Subscribers.Demand)] = []
        /// `{_}` and `{where: …}` slots, by index into `events`.
        var matchers: [Int: ValueMatcher] = [:]
        /// `expect A == B`: the stream B, whose events A must repeat exactly.
        var other: String? = nil
    }

    var streams: [String: NamedStream] = [:]
    var subscribers: [SubscriberPlan] = []
    var sends: [(name: String, events: [TimedEvent<Value, StreamError>])] = []
    var connections: [(name: String, start: Int?, end: Int?)] = []
    var expectations: [Expectation] = []
    var firstFrame = 0
    /// The end of the test's longest line: the frame after its last column.
    var horizon = 0
    /// Events written in the test's lines (marks of subscribe, connect and demand lines too).
    var writtenEvents = 0
    /// The end frame of the line `timeline(_:as:)` parsed last.
    var lastTimelineEnd = 0
    /// What the type check needs from the lines as they are defined.
    var typeChecker = TypeChecker()

    // MARK: State of TestSession+Preparation.swift
    /// The names an expression of the test may use (found by `checkNames`).
    var knownNames: Set<String> = []

    // MARK: State of TestSession+Marbles.swift
    /// The `{_}` or `{where: …}` of the line being parsed, for the event it stands in.
    var pendingMatcher: ValueMatcher?
    /// The matchers of the line `timeline(_:as:)` parsed last, by event index.
    var lineMatchers: [Int: ValueMatcher] = [:]
    /// Only `expect` lines may hold matchers.
    var matchersAllowed = false

    // MARK: State of TestSession+Binding.swift
    /// Names seen on a `cold` line so far, while defining.
    var coldLinesSeen: Set<String> = []
    /// The per-subscription cold sources (a name on several `cold` lines), by name.
    var coldAttempts: [String: PerSubscriptionCold.Attempts] = [:]
    /// How many `cold` lines name each stream.
    lazy var coldLineCounts: [String: Int] = syntax.statements.reduce(into: [:]) { counts, statement in
        if case .cold(let name, _) = statement.kind { counts[name.name, default: 0] += 1 }
    }
    /// Every name the test defines with hot, cold, subject or let (for references before
    /// definition); collected once, as every `let` asks.
    lazy var definedNames: Set<String> = Set(syntax.statements.compactMap { statement -> String? in
        switch statement.kind {
        case .hot(let name, _), .cold(let name, _), .subject(let name, _), .binding(let name, _): return name.name
        case .published(let name, _, _): return AppIdioms.publisherName(name.name)
        default: return nil
        }
    })
    /// The test's `@Published var` names (their publishers are `$NAME`).
    var publishedProperties: Set<String> = []
    /// How deep each stream's pipeline is across its `let` lines (see `maximumPipelineDepth`).
    var pipelineDepths: [String: Int] = [:]
    /// The subscriptions each derived stream's closures made to each inner source, by stream name.
    var innerLogs: [String: [(source: String, log: SubscriptionLog)]] = [:]

    // MARK: State of TestSession+Observation.swift
    /// The `demand` line of each test subscriber, to point at when it asks before it subscribes.
    var demandLines: [String: MarbleText] = [:]

    // MARK: State of TestSession+Running.swift
    /// Where settling began (nil if the lines' end left no work): the actions run and the trace
    /// entries logged by then, and the action limit settling had.
    var settling: (actions: Int, traced: Int, limit: Int)?

    // MARK: State of TestSession+Drops.swift
    /// Per subscription log, per subscription: the values it was offered and did not get, and why.
    var dropped: [ObjectIdentifier: [Int: [(event: TimedEvent<Value, StreamError>, loss: Loss)]]] = [:]
    /// Per subscription log, per subscription of a CurrentValueSubject: the value it last offered it (see `noteConflation`).
    var held: [ObjectIdentifier: [Int: Held]] = [:]
    /// The logs whose subscriptions an operator's drops go to, by its `DemandDrops` (see `watchDrops`).
    var dropLogs: [ObjectIdentifier: [SubscriptionLog]] = [:]
    /// The subscriptions a value is being offered to, with their deliveries before it (see `noteDrops`).
    var offered: [(log: Int, index: Int, delivered: Int)] = []

    // MARK: State of TestSession+Checks.swift
    /// The last frame the checks compare (nil: all of the run).
    var comparedThrough: Int?
    /// How many events each test subscriber had received when a runtime error stopped the run.
    var eventsBeforeFault: [ObjectIdentifier: Int]?
    /// Each observed stream rendered as marble tokens, once (see `observed(_:_:)`).
    var renderedObservations: [String: [RenderedEvent]] = [:]

    init(_ syntax: TestSyntax, path: String, lines: LineTable, fileStatements: [Statement], options: RunOptions) {
        self.syntax = syntax
        self.path = path
        self.lines = lines
        self.fileStatements = fileStatements
        self.options = options
        table = ValueTable()
        scheduler = VirtualTimeScheduler(limits: .init(maxTime: VirtualTimeEnd.last, maxActionsPerInstant: options.maxActionsPerInstant, maxActions: options.maxActions))
        // The frame length applies to the whole test wherever it is written.
        var frame: (nanoseconds: Int64, diagnostics: [FileDiagnostic]) = (1_000_000, [])
        for statement in fileStatements + syntax.statements {
            if case .frame(let duration) = statement.kind { frame = TestSession.frameLength(duration, path: path, lines: lines, current: frame.nanoseconds) }
        }
        frameNanoseconds = frame.nanoseconds
        dialect = MarbleFileSyntax.dialect(of: fileStatements)
        diagnostics = frame.diagnostics
        interpreter = Interpreter(scheduler: scheduler, frameNanoseconds: frameNanoseconds, lines: lines)
        activity = StreamActivity(interpreter: interpreter)
        tracer = options.traceEvents ? TraceRecorder.attached(to: interpreter) : nil
        prepare(fileStatements: fileStatements)
        reportUnparsedStatements()
    }

    // MARK: Diagnostics

    func diagnose(_ message: String, at location: SourceLocation, length: Int = 1, hint: String? = nil) {
        diagnostics.append(FileDiagnostic(path: path, line: location.line, column: location.column, length: length,
                                          message: message, hint: hint, lineText: lineText(location.line)))
    }

    func diagnose(_ diagnostic: SpecDiagnostic) {
        diagnose(diagnostic.message, at: diagnostic.location, length: diagnostic.length, hint: diagnostic.hint)
    }

    func lineText(_ line: Int) -> String {
        lines.line(line)
    }

    func report(_ error: EvalError, at location: SourceLocation) {
        switch error {
        case .fault(let diagnostic): diagnose(diagnostic)
        case .thrown(let thrown): diagnose("uncaught error \(thrown.value.literal)", at: location)
        case .returning: diagnose("'return' outside a closure", at: location)
        case .nilInChain: diagnose("'?' outside an optional chain", at: location)
        case .jump: diagnose("'break' or 'continue' outside a loop", at: location)
        }
    }

}


extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
