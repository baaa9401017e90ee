import MarbleNotation

/// A problem in a file, with everything needed to show it: `path:line:column: error: message`,
/// the line, a caret under the column, and a suggestion.
public struct FileDiagnostic: Sendable, Hashable, Error {
    public var path: String
    public var line: Int
    public var column: Int
    public var length: Int
    public var message: String
    public var hint: String?
    /// The text of the offending line (empty when the file could not be read at all).
    public var lineText: String
    /// For runtime errors: the frame at which it happened.
    public var frame: Int?
    public enum Severity: String, Sendable, Hashable { case error, warning }
    /// Errors stop a file or a test; warnings (a stream nothing checks) only inform.
    public var severity: Severity

    public init(path: String, line: Int, column: Int, length: Int = 1, message: String, hint: String? = nil, lineText: String = "", frame: Int? = nil,
                severity: Severity = .error) {
        self.severity = severity
        self.path = path
        self.line = line
        self.column = column
        self.length = length
        self.message = message
        self.hint = hint
        self.lineText = lineText
        self.frame = frame
    }
}

/// An event placed on the time axis, ready to print.
public struct RenderedEvent: Sendable, Hashable {
    public var frame: Int
    public var event: PrintableEvent
    public init(frame: Int, event: PrintableEvent) {
        self.frame = frame
        self.event = event
    }
}

/// One difference between expectation and outcome, at one frame.
public struct Difference: Sendable, Hashable {
    public var frame: Int
    /// e.g. "expected c, got nothing".
    public var sentence: String
    public init(frame: Int, sentence: String) {
        self.frame = frame
        self.sentence = sentence
    }
}

/// The result of one `expect` line.
public struct CheckReport: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case events, subscriptions, requests }
    public var kind: Kind
    /// As written after `expect`: `query`, `request.subscriptions`.
    public var label: String
    public var stream: String
    public var line: Int
    /// The column of the line's `expect`.
    public var column: Int = 1
    public var expected: [RenderedEvent]
    public var actual: [RenderedEvent]
    public var differences: [Difference]
    /// Extra explanation, e.g. "query had already finished at frame 16".
    public var notes: [String]
    public var passed: Bool { differences.isEmpty }
    /// Whether `--update` may write what the stream did into the line: not for a line with
    /// matchers, an `expect NAME.values` line or an `expect A == B` line.
    public var rewritable = true
    /// For `expect A == B`: B, the stream whose events are the expectation (`stream` is A).
    public var expectedStream: String? = nil

    public init(kind: Kind, label: String, stream: String, line: Int, column: Int = 1, expected: [RenderedEvent], actual: [RenderedEvent],
                differences: [Difference], notes: [String] = []) {
        self.kind = kind
        self.label = label
        self.stream = stream
        self.line = line
        self.column = column
        self.expected = expected
        self.actual = actual
        self.differences = differences
        self.notes = notes
    }
}

/// A source timeline to show above a failing expectation.
public struct SourceLine: Sendable, Hashable {
    public var name: String
    public var events: [RenderedEvent]
    public var isCold: Bool
    public init(name: String, events: [RenderedEvent], isCold: Bool) {
        self.name = name
        self.events = events
        self.isCold = isCold
    }
}

/// Everything known about one named stream of a test, for diagrams and traces.
public struct StreamReport: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case hot, cold, subject, derived }
    public var name: String
    public var kind: Kind
    /// The expression as written, for derived streams and subjects (`typing.debounce(for: …)`).
    public var expression: String?
    /// Streams used directly by the expression (the inputs drawn above its operator box), in order.
    public var inputs: [String]
    /// Streams used inside its closures: the inner publishers of `flatMap`, `switchToLatest`, `catch`.
    public var innerSources: [String]
    /// The timeline as written on its `hot`/`cold`/`send` line (cold: relative to each subscription).
    public var declared: [RenderedEvent]? {
        declaredTimeline.map { $0.events.map { RenderedEvent(frame: $0.frame, event: $0.event.printable) } }
    }
    /// For a cold source written on several `cold` lines, the timeline of each line in order
    /// (line n is what the nth subscription plays, the last line every later one); nil otherwise.
    public var declaredPerSubscription: [[RenderedEvent]]? {
        guard let timeline = declaredTimeline, timeline.perSubscription else { return nil }
        return timeline.lines.indices.map { index in
            timeline.events(ofSubscription: index).map { RenderedEvent(frame: $0.frame, event: $0.event.printable) }
        }
    }
    /// The marble text behind `declared`, parsed again only when `declared` is read: a passing
    /// run never shows it, and keeping a long line's parsed tokens costs as much memory as its events.
    package var declaredTimeline: DeclaredTimeline?
    /// What the test's subscriber to this stream received, if the test observes it.
    public var observed: [RenderedEvent]?
    /// Every subscription to this stream: start frame, end frame (nil while active at the end).
    public var subscriptions: [SubscriptionRecord]
    /// The test's own subscriber to this stream, when the test observes it: when it attached,
    /// when a `subscribe … !` line cancelled it, and what its `demand` line asked for.
    public var subscriber: SubscriberRecord?
    /// Per inner source used in this stream's closures, the subscriptions those closures'
    /// publishers made (so a source used by two operators is drawn once per operator).
    public var innerSubscriptions: [InnerUse] = []

    package init(name: String, kind: Kind, expression: String?, inputs: [String], innerSources: [String], declaredTimeline: DeclaredTimeline?,
                 observed: [RenderedEvent]?, subscriptions: [SubscriptionRecord]) {
        self.name = name
        self.kind = kind
        self.expression = expression
        self.inputs = inputs
        self.innerSources = innerSources
        self.declaredTimeline = declaredTimeline
        self.observed = observed
        self.subscriptions = subscriptions
    }
}

/// The test subscriber of a stream.
public struct SubscriberRecord: Sendable, Hashable {
    public var start: Int
    /// The frame of the `!` of its `subscribe` line.
    public var cancel: Int?
    /// The `.request` events of its `demand` line, in order (empty: none, or no demand line).
    public var demand: [RenderedEvent]
    /// Whether the test gives it a `demand` line: without one it asks for `.unlimited` as it
    /// subscribes; with one that never asks (`demand nothing ---`), its demand stays `.none`.
    public var hasDemandLine: Bool
    /// Its subscription among the stream's `subscriptions` (by index), when it subscribed.
    public var subscription: Int?

    package init(start: Int, cancel: Int?, demand: [RenderedEvent], hasDemandLine: Bool? = nil, subscription: Int? = nil) {
        self.start = start
        self.cancel = cancel
        self.demand = demand
        self.hasDemandLine = hasDemandLine ?? !demand.isEmpty
        self.subscription = subscription
    }
}

/// The subscriptions one stream's closures made to one inner source.
public struct InnerUse: Sendable, Hashable {
    public var source: String
    public var subscriptions: [SubscriptionRecord]

    package init(source: String, subscriptions: [SubscriptionRecord]) {
        self.source = source
        self.subscriptions = subscriptions
    }
}

/// A `connect NAME ^…!` line: when the connectable was connected and when that was cancelled.
public struct ConnectionRecord: Sendable, Hashable {
    public var stream: String
    public var start: Int
    public var end: Int?

    package init(stream: String, start: Int, end: Int?) {
        self.stream = stream
        self.start = start
        self.end = end
    }
}

/// The marble lines a stream was declared with (several `send` lines for a subject), as written.
package struct DeclaredTimeline: Sendable, Hashable {
    package var lines: [String]
    package var kind: MarbleLineKind
    package var frameNanoseconds: Int64
    /// The file's notation, which reads `lines`.
    package var dialect: MarbleDialect
    /// A cold source on several lines: line n is what its nth subscription plays (the last line
    /// every later one), so `events` is its first line only.
    package var perSubscription = false

    package init(lines: [String], kind: MarbleLineKind, frameNanoseconds: Int64, dialect: MarbleDialect = .native, perSubscription: Bool = false) {
        self.lines = lines
        self.kind = kind
        self.frameNanoseconds = frameNanoseconds
        self.dialect = dialect
        self.perSubscription = perSubscription
    }

    /// The timeline the `ordinal`th subscription (from 0) plays, for a per-subscription cold source.
    package func events(ofSubscription ordinal: Int) -> [TimedMarbleEvent] {
        guard perSubscription, !lines.isEmpty else { return events }
        return (try? MarbleParser(frameNanoseconds: frameNanoseconds, dialect: dialect).parse(lines[min(ordinal, lines.count - 1)], as: kind).events) ?? []
    }

    /// The lines' events in frame order (one line's events are already; several are merged stably).
    /// The lines parsed once already, so parsing them again cannot fail.
    package var events: [TimedMarbleEvent] {
        let parser = MarbleParser(frameNanoseconds: frameNanoseconds, dialect: dialect)
        if perSubscription { return (try? parser.parse(lines[0], as: kind).events) ?? [] }
        let all = lines.flatMap { (try? parser.parse($0, as: kind).events) ?? [] }
        guard lines.count > 1 else { return all }
        return all.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
    }
}

public struct SubscriptionRecord: Sendable, Hashable {
    public var start: Int
    public var end: Int?
    /// How many values it delivered to its subscriber.
    public var delivered = 0
    /// What its subscriber requested through it, in order (`.request` events).
    public var requests: [RenderedEvent] = []
    /// The values this subscription never got for lack of demand, at the frames they were offered
    /// to it: a subject's or a multicast's send, a CurrentValueSubject's held value, an operator's
    /// timer (debounce, throttle, a timer tick).
    public var dropped: [RenderedEvent] = []
    /// Why each of `dropped` was lost, where it is not simply "offered without demand".
    public var dropReasons: [RenderedEvent: DropReason] = [:]
    public init(start: Int, end: Int?, delivered: Int = 0, requests: [RenderedEvent] = [], dropped: [RenderedEvent] = [],
                dropReasons: [RenderedEvent: DropReason] = [:]) {
        self.start = start
        self.end = end
        self.delivered = delivered
        self.requests = requests
        self.dropped = dropped
        self.dropReasons = dropReasons
    }
}

/// Why a subscription lost a value it was offered.
public enum DropReason: Sendable, Hashable {
    /// Offered while the subscription had no demand: a PassthroughSubject, a multicast's subject
    /// or an operator whose timer fired passes it on only to demand.
    case noDemand
    /// A CurrentValueSubject held it for the subscription (no demand) until `value` replaced it at `frame`.
    case replaced(by: String, frame: Int)
    /// A CurrentValueSubject held it for the subscription (no demand) until it completed at `frame`.
    case completed(frame: Int)
}

/// A `values` entry of a test (or of its file): the name and the literal as written.
public struct ValueName: Sendable, Hashable {
    public var name: Character
    public var literal: String

    package init(name: Character, literal: String) {
        self.name = name
        self.literal = literal
    }
}

/// The result of one test.
public struct TestReport: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable { case passed, failed, error }
    public var name: String
    public var line: Int
    public var checks: [CheckReport]
    /// What stopped the test: the first of its `diagnostics`, a runtime error in a closure, or
    /// a run stopped by a limit.
    public var error: FileDiagnostic?
    /// The mistakes found in the test before it ran — in its lines, or in a file-level
    /// declaration it uses — in line order: a test with any did not run (it has no checks, and
    /// `error` is the first). One mistake costs the tests it is in or that use it, not the file.
    public var diagnostics: [FileDiagnostic] = []
    /// Whether `error` is a limit of marbles (a stream inside itself, a value or a stream too
    /// large, too many closure calls at one frame) rather than an error in a closure: the file
    /// cannot be run as written, as with a mistake in it (`marbles run` exits 2). A run that
    /// never settles is `unsettled` instead (exit 1).
    public var stoppedAtLimit = false
    /// Streams the test defines that nothing checks (see `docs/language.md`).
    public var warnings: [FileDiagnostic] = []
    /// Every named stream, in the order the test declares them.
    public var streams: [StreamReport] = []
    /// The value names in force in the test: the file's `values`, then the test's.
    public var values: [ValueName] = []
    /// Where the run's diagram ends: the end of the test's longest line, or later when the
    /// run went on after it (the frame after the last action).
    public var endFrame: Int = 0
    /// The test's `connect` lines, in order.
    public var connections: [ConnectionRecord] = []
    /// A limit stopped the run while work was still due: the pipeline never settles (the
    /// `error` says which limit and what kept the scheduler busy).
    public var unsettled = false
    /// Output of `print` operators: frame and line.
    public var trace: [TraceLine]
    /// Every event at every named stream and operator, in order (only with `RunOptions.traceEvents`).
    public var events: [TraceEvent] = []
    /// Frames per line of the notation and what one frame is, for printing.
    public var frameNanoseconds: Int64
    /// Wall-clock time of the run, in seconds.
    public var seconds: Double
    /// The arguments its diagram leaves out of operator texts (none unless the runner says).
    public var omittedArguments = OmittedArguments()

    package init(name: String, line: Int, checks: [CheckReport], error: FileDiagnostic?, trace: [TraceLine], frameNanoseconds: Int64, seconds: Double) {
        self.name = name
        self.line = line
        self.checks = checks
        self.error = error
        self.trace = trace
        self.frameNanoseconds = frameNanoseconds
        self.seconds = seconds
    }

    /// The timelines the test declares (hot, cold and `send` lines), for showing above a diff.
    public var sources: [SourceLine] {
        streams.compactMap { stream in
            guard stream.kind != .derived, let declared = stream.declared else { return nil }
            return SourceLine(name: stream.name, events: declared, isCold: stream.kind == .cold)
        }
    }

    public var outcome: Outcome {
        if error != nil { return .error }
        return checks.allSatisfy(\.passed) ? .passed : .failed
    }

    /// A test that could not run as written: a mistake in it (or in what it uses), or a limit of
    /// marbles stopped it (`marbles run` exits 2 for either, as for a file with a mistake).
    public var cannotRunAsWritten: Bool { !diagnostics.isEmpty || stoppedAtLimit }

    /// The report of a test with mistakes, which did not run.
    package static func notRun(name: String, line: Int, diagnostics: [FileDiagnostic], frameNanoseconds: Int64) -> TestReport {
        var report = TestReport(name: name, line: line, checks: [], error: diagnostics.first, trace: [], frameNanoseconds: frameNanoseconds, seconds: 0)
        report.diagnostics = diagnostics
        return report
    }
}

public struct TraceLine: Sendable, Hashable {
    public var frame: Int
    public var text: String

    package init(frame: Int, text: String) {
        self.frame = frame
        self.text = text
    }
}

/// The result of one file: either diagnostics (nothing ran) or the tests' reports.
public struct FileReport: Sendable, Hashable {
    public var path: String
    /// The file's own mistakes, belonging to no test: one that breaks the file's structure (a
    /// `test` line, a line before the first test that declares nothing, the file's `frame`), and
    /// then no test ran (`tests` is empty); or a file-level declaration with a mistake that no
    /// test uses, beside the tests that ran. A test's mistakes are its own (`TestReport.diagnostics`).
    public var diagnostics: [FileDiagnostic]
    public var tests: [TestReport]
    /// The file has a mistake of its own (and `marbles run` exits 2).
    public var isError: Bool { !diagnostics.isEmpty }
    /// Every mistake found before the tests ran, the file's and each test's, in line order.
    public var allDiagnostics: [FileDiagnostic] {
        let tests = tests.flatMap(\.diagnostics)
        guard !tests.isEmpty else { return diagnostics }
        // A declaration's mistake is each test's that uses it: listed once.
        var seen: Set<FileDiagnostic> = []
        return (diagnostics + tests).filter { seen.insert($0).inserted }.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    public init(path: String, diagnostics: [FileDiagnostic], tests: [TestReport]) {
        self.path = path
        self.diagnostics = diagnostics
        self.tests = tests
    }
}

// Public initialisers, for reports built outside the runner: MarbleTesting describes a failing
// expectation in Swift code with these, so that the CLI's diff and the SVG diagram draw it.

extension StreamReport {
    /// A stream whose declared timeline is `marbles` (one line, or several `send` lines) of `kind`.
    public init(name: String, kind: Kind, expression: String? = nil, inputs: [String] = [], innerSources: [String] = [],
                marbles: [String] = [], lineKind: MarbleLineKind = .hot, frameNanoseconds: Int64 = 1_000_000,
                observed: [RenderedEvent]? = nil, subscriptions: [SubscriptionRecord] = []) {
        self.init(name: name, kind: kind, expression: expression, inputs: inputs, innerSources: innerSources,
                  declaredTimeline: marbles.isEmpty ? nil : DeclaredTimeline(lines: marbles, kind: lineKind, frameNanoseconds: frameNanoseconds),
                  observed: observed, subscriptions: subscriptions)
    }
}

extension TestReport {
    public init(name: String, line: Int, checks: [CheckReport], streams: [StreamReport], endFrame: Int, frameNanoseconds: Int64) {
        self.init(name: name, line: line, checks: checks, error: nil, trace: [], frameNanoseconds: frameNanoseconds, seconds: 0)
        self.streams = streams
        self.endFrame = endFrame
    }
}
