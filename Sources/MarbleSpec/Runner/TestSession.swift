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
    /// Names of the tests to run; nil runs every test. The whole file is still parsed and
    /// checked (a mistake anywhere means nothing runs).
    public var selectedTests: Set<String>? = nil
    /// Logs every event at every named stream and operator into `TestReport.events`
    /// (`marbles trace`). Off: nothing is wrapped, nothing is logged.
    public var traceEvents = false
    public init() {}
}

/// One test: prepared from its syntax (every stream built, every marble parsed, every name
/// checked), then run once on its own virtual scheduler.
final class TestSession {
    private let syntax: TestSyntax
    private let path: String
    private let lines: LineTable
    private let fileStatements: [Statement]
    private let options: RunOptions
    private(set) var diagnostics: [FileDiagnostic] = []

    private let frameNanoseconds: Int64
    private var table: ValueTable
    private let scheduler: VirtualTimeScheduler
    private let interpreter: Interpreter
    private let activity: StreamActivity
    /// Only with `RunOptions.traceEvents`.
    private let tracer: TraceRecorder?

    private struct NamedStream {
        var stream: StreamValue
        var log: SubscriptionLog
        var report: StreamReport
        /// The name where it is defined.
        var definition: SourceLocation
    }
    private var streamOrder: [String] = []
    private var valueNames: [ValueName] = []
    private struct SubscriberPlan {
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
    private struct Expectation {
        var name: String
        var property: String?
        var line: Int
        /// The column of `expect`.
        var column: Int
        /// The last frame the line covers.
        var lastFrame: Int
        var events: [TimedEvent<Value, StreamError>]
        var span: SubscriptionSpan?
        var requests: [(frame: Int, demand: Subscribers.Demand)] = []
        /// `{_}` and `{where: …}` slots, by index into `events`.
        var matchers: [Int: ValueMatcher] = [:]
        /// `expect A == B`: the stream B, whose events A must repeat exactly.
        var other: String? = nil
    }

    private var streams: [String: NamedStream] = [:]
    private var subscribers: [SubscriberPlan] = []
    private var sends: [(name: String, events: [TimedEvent<Value, StreamError>])] = []
    private var connections: [(name: String, start: Int?, end: Int?)] = []
    private var expectations: [Expectation] = []
    private var firstFrame = 0
    /// The end of the test's longest line: the frame after its last column.
    private var horizon = 0
    /// Events written in the test's lines (marks of subscribe, connect and demand lines too).
    private var writtenEvents = 0
    /// The end frame of the line `timeline(_:as:)` parsed last.
    private var lastTimelineEnd = 0
    /// What the type check needs from the lines as they are defined.
    private var typeChecker = TypeChecker()

    init(_ syntax: TestSyntax, path: String, lines: LineTable, fileStatements: [Statement], options: RunOptions) {
        self.syntax = syntax
        self.path = path
        self.lines = lines
        self.fileStatements = fileStatements
        self.options = options
        table = ValueTable()
        scheduler = VirtualTimeScheduler(limits: .init(maxTime: .max, maxActionsPerInstant: options.maxActionsPerInstant, maxActions: options.maxActions))
        // The frame length applies to the whole test wherever it is written.
        var frame: (nanoseconds: Int64, diagnostics: [FileDiagnostic]) = (1_000_000, [])
        for statement in fileStatements + syntax.statements {
            if case .frame(let duration) = statement.kind { frame = TestSession.frameLength(duration, path: path, lines: lines, current: frame.nanoseconds) }
        }
        frameNanoseconds = frame.nanoseconds
        diagnostics = frame.diagnostics
        interpreter = Interpreter(scheduler: scheduler, frameNanoseconds: frameNanoseconds, lines: lines)
        activity = StreamActivity(interpreter: interpreter)
        tracer = options.traceEvents ? TraceRecorder.attached(to: interpreter) : nil
        prepare(fileStatements: fileStatements)
    }

    // MARK: Diagnostics

    private func diagnose(_ message: String, at location: SourceLocation, length: Int = 1, hint: String? = nil) {
        diagnostics.append(FileDiagnostic(path: path, line: location.line, column: location.column, length: length,
                                          message: message, hint: hint, lineText: lineText(location.line)))
    }

    private func diagnose(_ diagnostic: SpecDiagnostic) {
        diagnose(diagnostic.message, at: diagnostic.location, length: diagnostic.length, hint: diagnostic.hint)
    }

    private func lineText(_ line: Int) -> String {
        lines.line(line)
    }

    // MARK: Preparation

    private func prepare(fileStatements: [Statement]) {
        // The file's types and the test's own come before any value that uses them.
        declareTypes(fileStatements + syntax.statements)
        guard diagnostics.isEmpty else { return }
        // Value names apply to the whole test wherever written.
        for statement in fileStatements + syntax.statements {
            if case .values(let bindings) = statement.kind {
                for binding in bindings {
                    switch Result(catching: { () throws(EvalError) -> Value in
                        try interpreter.valueOf(interpreter.evaluate(binding.value, in: Environment()), at: binding.value.location, purpose: "a value")
                    }) {
                    case .success(let value):
                        table.bind(binding.name, to: value)
                        valueNames.append(ValueName(name: binding.name, literal: interpreter.text(of: binding.value.range)))
                    case .failure(let error): report(error, at: binding.value.location)
                    }
                }
            }
        }

        checkNames()
        guard diagnostics.isEmpty else { return }
        for statement in syntax.statements { define(statement) }
        for statement in syntax.statements { observe(statement) }
        validateSubscribers()
        // Closures are checked before anything runs, whether or not a value would reach them.
        guard diagnostics.isEmpty else { return }
        for diagnostic in typeChecker.check(syntax.statements) { diagnose(diagnostic) }
    }

    /// Collects the `struct`, `enum`, `typealias` and `extension` declarations the test sees.
    private func declareTypes(_ statements: [Statement]) {
        var types = UserTypes()
        let problems = types.declare(statements) { raw in
            switch Result(catching: { () throws(EvalError) -> Value in
                try interpreter.valueOf(interpreter.evaluate(raw, in: Environment()), at: raw.location, purpose: "a raw value")
            }) {
            case .success(let value): return value
            case .failure(let error):
                report(error, at: raw.location)
                return nil
            }
        }
        problems.forEach(diagnose)
        interpreter.types = types
        typeChecker.types = types
    }

    private static func frameLength(_ duration: DurationSyntax, path: String, lines: LineTable, current: Int64) -> (Int64, [FileDiagnostic]) {
        func diagnostic(_ message: String, _ hint: String?) -> [FileDiagnostic] {
            [FileDiagnostic(path: path, line: duration.location.line, column: duration.location.column, length: duration.text.count,
                            message: message, hint: hint, lineText: lines.line(duration.location.line))]
        }
        do {
            guard let nanoseconds = try MarbleDuration.nanoseconds(duration.text), nanoseconds > 0 else {
                return (current, diagnostic("'\(duration.text)' is not a frame length", "write a positive duration such as 1ms, 100ms or 1s"))
            }
            return (nanoseconds, [])
        } catch {
            return (current, diagnostic(error.message, error.hint))
        }
    }

    /// The names an expression of the test may use (found by `checkNames`).
    private var knownNames: Set<String> = []

    /// Reports every name used in an expression that the test does not define.
    private func checkNames() {
        var defined = Set(Builtins.globalNames + Catalogue.constructorNames + ["Publishers", "Timer", "true", "false", "nil"] + interpreter.types.names)
        for statement in syntax.statements {
            switch statement.kind {
            case .hot(let name, _), .cold(let name, _), .subject(let name, _), .binding(let name, _): defined.insert(name.name)
            case .published(let name, _, _): defined.formUnion([name.name, AppIdioms.publisherName(name.name)])
            default: break
            }
        }
        knownNames = defined
        let check = NameCheck(known: defined)
        var checked: [Expr] = []
        for statement in fileStatements + syntax.statements {
            switch statement.kind {
            case .binding(_, let expr): checked.append(expr)
            case .published(_, _, let expr): checked.append(expr)
            case .declaration(let declaration):
                // A computed property's body sees `self` and the stored properties.
                var fields = ["self"]
                if case .structure(let stored) = declaration.kind { fields += stored.map(\.name.name) }
                if let target = interpreter.types.structType(declaration.name.name) { fields += target.fields.map(\.name.name) }
                for property in declaration.properties {
                    checked.append(Expr(kind: .closure(Closure(parameters: fields, body: property.body)), location: property.name.location))
                }
            default: break
            }
        }
        for expr in checked {
            if let idiom = AppIdioms.subscriberCall(in: expr) {
                diagnose(idiom)
                continue
            }
            for (name, location) in check.undefinedNames(in: expr) {
                if let idiom = AppIdioms.unavailableName(name) {
                    diagnose(idiom.message, at: location, length: name.count, hint: idiom.hint)
                    continue
                }
                diagnose("cannot find '\(name)' in scope", at: location, length: name.count,
                         hint: Suggestions.nearest(to: name, in: defined).map { "did you mean '\($0)'?" })
            }
        }
    }

    private func report(_ error: EvalError, at location: SourceLocation) {
        switch error {
        case .fault(let diagnostic): diagnose(diagnostic)
        case .thrown(let thrown): diagnose("uncaught error \(thrown.value.literal)", at: location)
        case .returning: diagnose("'return' outside a closure", at: location)
        case .nilInChain: diagnose("'?' outside an optional chain", at: location)
        }
    }

    private func parse(_ marbles: MarbleText, as kind: MarbleLineKind) -> ParsedMarbles? {
        do {
            let parsed = try MarbleParser(frameNanoseconds: frameNanoseconds).parse(marbles.text, as: kind)
            noteExtent(of: parsed, kind)
            writtenEvents += parsed.events.count
            return parsed
        } catch {
            diagnose(error.message, at: column(marbles, error.offset), length: error.length, hint: error.hint)
            return nil
        }
    }

    /// A hot, cold, send or expect line parsed straight into engine events (values resolved
    /// through the value table), without keeping the parsed tokens: a long line's tokens would
    /// otherwise be an array as large as its events. A line with a syntax error reports only that.
    private func timeline(_ marbles: MarbleText, as kind: MarbleLineKind) -> [TimedEvent<Value, StreamError>]? {
        var events: [TimedEvent<Value, StreamError>] = []
        let reportedBefore = diagnostics.count
        lineMatchers = [:]
        matchersAllowed = kind == .expect
        defer { matchersAllowed = false }
        do {
            let parsed = try MarbleParser(frameNanoseconds: frameNanoseconds).parse(marbles.text, as: kind) { item in
                if let event = engineEvent(item, marbles) {
                    if let matcher = pendingMatcher { lineMatchers[events.count] = matcher }
                    events.append(event)
                }
                pendingMatcher = nil
            }
            noteExtent(of: parsed, kind)
            writtenEvents += events.count
            lastTimelineEnd = parsed.endFrame
            // Frames were counted from the first character; `^` moves frame 0.
            if parsed.firstFrame != 0 {
                for index in events.indices { events[index].time += parsed.firstFrame }
            }
            return events
        } catch {
            diagnostics.removeSubrange(reportedBefore...)
            diagnose(error.message, at: column(marbles, error.offset), length: error.length, hint: error.hint)
            return nil
        }
    }

    /// The run starts at the earliest `^`; the longest line's end is where settling begins.
    private func noteExtent(of parsed: ParsedMarbles, _ kind: MarbleLineKind) {
        horizon = max(horizon, parsed.endFrame)
        if kind == .hot || kind == .expect { firstFrame = min(firstFrame, parsed.firstFrame) }
    }

    private func column(_ marbles: MarbleText, _ offset: Int) -> SourceLocation {
        SourceLocation(line: marbles.location.line, column: marbles.location.column + offset)
    }

    /// The engine event of a parsed value, finish or failure (values resolved through the value
    /// table); nil for anything else, or a value whose literal had an error (reported).
    private func engineEvent(_ item: TimedMarbleEvent, _ marbles: MarbleText) -> TimedEvent<Value, StreamError>? {
        switch item.event {
        case .value(let token):
            return resolve(token, marbles).map { TimedEvent(item.frame, .value($0)) }
        case .finished:
            return TimedEvent(item.frame, .completion(.finished))
        case .failure(let token):
            var error = StreamError.default
            if let token, let value = resolve(token, marbles) { error = StreamError(value) }
            if pendingMatcher != nil, let token {
                pendingMatcher = nil
                diagnose("a matcher cannot stand for an error; errors are compared by their message", at: column(marbles, token.offset),
                         length: token.text.count, hint: "write the error, such as #{\"offline\"}, or # for the default one")
                return nil
            }
            return TimedEvent(item.frame, .completion(.failure(error)))
        default:
            return nil
        }
    }

    private func resolve(_ token: ValueToken, _ marbles: MarbleText) -> Value? {
        switch token.form {
        case .name(let name): return table.value(named: name)
        case .literal(let text):
            // Most literals in long timelines are plain integers: read them directly.
            if let value = Self.integerLiteral(text) { return .int(value) }
            let location = column(marbles, token.offset + 1)
            if ValueMatcher.isMatcher(text) { return matcherPlaceholder(text, at: location) }
            do {
                let expr = try MarbleFileParser.parseLiteral(text, at: location)
                switch Result(catching: { () throws(EvalError) -> Value in
                    try interpreter.valueOf(interpreter.evaluate(expr, in: Environment()), at: location, purpose: "a marble value")
                }) {
                case .success(let value): return value
                case .failure(let error): report(error, at: location)
                }
            } catch {
                diagnose(error.message, at: error.location, length: error.length, hint: error.hint)
            }
            return nil
        }
    }

    /// The `{_}` or `{where: …}` of the line being parsed, for the event it stands in.
    private var pendingMatcher: ValueMatcher?
    /// The matchers of the line `timeline(_:as:)` parsed last, by event index.
    private var lineMatchers: [Int: ValueMatcher] = [:]
    /// Only `expect` lines may hold matchers.
    private var matchersAllowed = false

    /// Notes the matcher spelled by a `{…}` literal (its text at `location`) for the event being
    /// parsed; the event's value is a placeholder that the comparison never reads.
    private func matcherPlaceholder(_ text: String, at location: SourceLocation) -> Value? {
        guard matchersAllowed else {
            diagnose("a matcher such as {\(text)} can only stand in an expect line", at: SourceLocation(line: location.line, column: location.column - 1),
                     length: text.count + 2, hint: "a source sends values: write one, such as {42} or a")
            return nil
        }
        do {
            let matcher = try ValueMatcher.make(text, at: location, globals: interpreter.globals)
            if case .predicate(let closure) = matcher.kind,
               let (name, at) = NameCheck(known: knownNames).undefinedNames(in: Expr(kind: .closure(closure.syntax), location: closure.location)).first {
                diagnose("cannot find '\(name)' in scope", at: at, length: name.count,
                         hint: Suggestions.nearest(to: name, in: knownNames).map { "did you mean '\($0)'?" })
                return nil
            }
            pendingMatcher = matcher
            return .null
        } catch {
            diagnose(error.message, at: error.location, length: error.length, hint: error.hint)
            return nil
        }
    }

    /// `42` or `-7` (ASCII digits, an optional leading minus, no leading zero unless it is `0`)
    /// as an `Int`; nil for anything else, which goes through the expression parser and
    /// interpreter (and so gets their diagnostics, e.g. for a number too large for Int).
    static func integerLiteral(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            let negative = bytes.first == UInt8(ascii: "-")
            let digits = negative ? bytes.dropFirst() : bytes[...]
            // At most 18 digits: no overflow to check.
            guard let first = digits.first, digits.count <= 18, first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
            var value = 0
            for byte in digits {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return negative ? -value : value
        }
    }

    private func bind(_ name: Identifier, _ stream: StreamValue, kind: StreamReport.Kind, expression: Expr? = nil, declared: DeclaredTimeline? = nil) {
        guard streams[name.name] == nil else {
            diagnose("'\(name.name)' is already defined in this test", at: name.location, length: name.name.count)
            return
        }
        let log = SubscriptionLog()
        var recorded = stream
        recorded.publisher = SubscriptionRecorder(stream.publisher, log: log, scheduler: scheduler).eraseToAnyPublisher()
        if let tracer { recorded.publisher = tracer.traceStream(name.name, text: stream.text, recorded.publisher) }
        recorded.publisher = StreamGuard(upstream: recorded.publisher, counts: StreamActivity.Counts(name: name.name, location: name.location),
                                         activity: activity).eraseToAnyPublisher()
        let references = expression.map { NameCheck.references(in: $0, to: definedNames) } ?? (direct: [], inClosures: [])
        let report = StreamReport(name: name.name, kind: kind, expression: expression.map { interpreter.text(of: $0.range) },
                                  inputs: references.direct, innerSources: references.inClosures,
                                  declaredTimeline: declared, observed: nil, subscriptions: [])
        streams[name.name] = NamedStream(stream: recorded, log: log, report: report, definition: name.location)
        if let watch = stream.broadcast {
            // `let shared = source.share()`: its subject drops what a subscriber has no demand for.
            let shared = name.name
            var witnesses: [SubscriptionLog]?
            watch.around = { [unowned self] value, broadcast in
                if witnesses == nil { witnesses = logsSeeing(shared) }
                noteDrops(of: value, in: witnesses ?? [], send: broadcast)
            }
        }
        streamOrder.append(name.name)
        interpreter.globals[name.name] = .stream(recorded)
    }

    /// Binds a name whose definition had an error, so that later lines using it report their
    /// own mistakes rather than a cascade of "cannot find" errors. The test never runs.
    private func bindPlaceholder(_ name: Identifier, subject: Bool) {
        guard streams[name.name] == nil else { return }
        bind(name, StreamValue(publisher: Empty(completeImmediately: false).eraseToAnyPublisher(), text: name.name,
                               subject: subject ? SubjectHandle() : nil), kind: subject ? .subject : .derived)
    }

    private func define(_ statement: Statement) {
        switch statement.kind {
        case .hot(let name, let marbles):
            guard let events = timeline(marbles, as: .hot) else { return bindPlaceholder(name, subject: true) }
            let subject = PassthroughSubject<Value, StreamError>()
            bind(name, StreamValue(publisher: subject.eraseToAnyPublisher(), text: name.name, subject: SubjectHandle(subject)), kind: .hot,
                 declared: DeclaredTimeline(lines: [marbles.text], kind: .hot, frameNanoseconds: frameNanoseconds))
            sends.append((name.name, events))
            typeChecker.marbleTypes[name.name] = TypeChecker.noting(events, into: nil)
        case .cold(let name, let marbles):
            let isLaterAttempt = !coldLinesSeen.insert(name.name).inserted
            guard let events = timeline(marbles, as: .cold) else {
                return isLaterAttempt ? () : bindPlaceholder(name, subject: false)
            }
            if isLaterAttempt, let attempts = coldAttempts[name.name] {
                // Another line of a per-subscription cold source: the next subscription's timeline.
                attempts.timelines.append(events)
                typeChecker.marbleTypes[name.name] = TypeChecker.noting(events, into: typeChecker.marbleTypes[name.name])
                streams[name.name]?.report.declaredTimeline?.lines.append(marbles.text)
                return
            }
            // The first line had an error, or its name was taken (reported there, once).
            if isLaterAttempt { return }
            typeChecker.marbleTypes[name.name] = TypeChecker.noting(events, into: nil)
            let publisher: Stream
            if coldLineCounts[name.name, default: 0] > 1 {
                let attempts = PerSubscriptionCold.Attempts(events)
                coldAttempts[name.name] = attempts
                publisher = PerSubscriptionCold(attempts: attempts, scheduler: scheduler).eraseToAnyPublisher()
            } else {
                publisher = ColdTimeline(events, scheduler: scheduler).eraseToAnyPublisher()
            }
            bind(name, StreamValue(publisher: publisher, text: name.name), kind: .cold,
                 declared: DeclaredTimeline(lines: [marbles.text], kind: .cold, frameNanoseconds: frameNanoseconds,
                                            perSubscription: coldAttempts[name.name] != nil))
        case .subject(let name, let expr):
            guard withinPipelineDepth(name, expr) else { return bindPlaceholder(name, subject: true) }
            switch evaluate(expr) {
            case .stream(let stream)? where stream.subject != nil:
                bind(name, stream, kind: .subject, expression: expr)
            case nil:
                bindPlaceholder(name, subject: true)
            case let other?:
                diagnose("a subject must be PassthroughSubject() or CurrentValueSubject(value), not \(other.kindDescription)", at: expr.location)
                bindPlaceholder(name, subject: true)
            }
        case .binding(let name, let expr):
            guard withinPipelineDepth(name, expr) else { return bindPlaceholder(name, subject: false) }
            switch evaluate(expr, in: consumerEnvironment(for: name.name, expr)) {
            case .stream(let stream)?:
                bind(name, stream, kind: .derived, expression: expr)
            case .value(let value)?:
                interpreter.globals[name.name] = .value(value)
                typeChecker.constants[name.name] = value
            case nil:
                bindPlaceholder(name, subject: false)
            case let other?:
                diagnose("'\(name.name)' must be a publisher or a value, not \(other.kindDescription)", at: expr.location)
                bindPlaceholder(name, subject: false)
            }
        case .published(let name, _, let expr):
            guard let runtime = evaluate(expr) else { return bindPlaceholder(Identifier(name: AppIdioms.publisherName(name.name), location: name.location), subject: true) }
            guard case .value(let initial) = runtime else {
                diagnose("a @Published property holds a value, not \(runtime.kindDescription)", at: expr.location)
                return bindPlaceholder(Identifier(name: AppIdioms.publisherName(name.name), location: name.location), subject: true)
            }
            publishedProperties.insert(name.name)
            bind(Identifier(name: AppIdioms.publisherName(name.name), location: name.location),
                 AppIdioms.publishedProperty(name.name, initial: initial, interpreter: interpreter), kind: .subject)
        case .send(var name, let marbles):
            let reportedBefore = diagnostics.count
            guard let events = timeline(marbles, as: .hot) else { return }
            if publishedProperties.contains(name.name) {
                // `send query …` sets the property, which `$query` publishes.
                if let end = events.first(where: { $0.event.isTerminal }) {
                    var mark = "|"
                    if case .completion(.failure) = end.event { mark = "#" }
                    diagnose("a @Published property never finishes or fails: '\(name.name)' cannot be sent '\(mark)'",
                             at: marbles.location, length: marbles.text.count, hint: "send values only; '$\(name.name)' stays open as in Combine")
                    return
                }
                name.name = AppIdioms.publisherName(name.name)
            }
            guard let stream = streams[name.name], stream.stream.subject != nil else {
                // The line's values mean nothing without its subject: report only that.
                diagnostics.removeSubrange(reportedBefore...)
                diagnose(streams[name.name] == nil ? "cannot find subject '\(name.name)'" : "'\(name.name)' is not a subject; only subjects can be sent to",
                         at: name.location, length: name.name.count,
                         hint: streams[name.name] == nil ? nearestStream(name.name) : "declare it with `subject \(name.name) = PassthroughSubject()`")
                return
            }
            sends.append((name.name, events))
            typeChecker.sentTypes[name.name] = TypeChecker.noting(events, into: typeChecker.sentTypes[name.name])
            // Several send lines into one subject make one timeline, in frame order.
            let earlier = streams[name.name]?.report.declaredTimeline?.lines ?? []
            streams[name.name]?.report.declaredTimeline = DeclaredTimeline(lines: earlier + [marbles.text], kind: .hot, frameNanoseconds: frameNanoseconds)
        default:
            break
        }
    }

    /// Names seen on a `cold` line so far, while defining.
    private var coldLinesSeen: Set<String> = []
    /// The per-subscription cold sources (a name on several `cold` lines), by name.
    private var coldAttempts: [String: PerSubscriptionCold.Attempts] = [:]
    /// How many `cold` lines name each stream.
    private lazy var coldLineCounts: [String: Int] = syntax.statements.reduce(into: [:]) { counts, statement in
        if case .cold(let name, _) = statement.kind { counts[name.name, default: 0] += 1 }
    }

    /// Every name the test defines with hot, cold, subject or let (for references before
    /// definition); collected once, as every `let` asks.
    private lazy var definedNames: Set<String> = Set(syntax.statements.compactMap { statement -> String? in
        switch statement.kind {
        case .hot(let name, _), .cold(let name, _), .subject(let name, _), .binding(let name, _): return name.name
        case .published(let name, _, _): return AppIdioms.publisherName(name.name)
        default: return nil
        }
    })
    /// The test's `@Published var` names (their publishers are `$NAME`).
    private var publishedProperties: Set<String> = []

    /// The deepest a pipeline may be, counted in syntax-tree levels (`Expr.depth`) along its
    /// chain of `let` lines: each `let` adds its expression's depth to the deepest stream it
    /// uses. Subscribing, delivering and tearing down recurse once per operator, so this is what
    /// bounds the engine's stack (an expression alone is bounded by the parser).
    static let maximumPipelineDepth = 1_000
    private var pipelineDepths: [String: Int] = [:]

    /// Notes how deep `name`'s pipeline is; false (with a diagnostic) when it is too deep.
    private func withinPipelineDepth(_ name: Identifier, _ expr: Expr) -> Bool {
        var deepest = 0
        var deepestInput: String?
        // A name that is not (yet) a stream adds nothing: the name check or the interpreter reports it.
        for input in NameCheck.identifiers(in: expr) {
            if let inputDepth = pipelineDepths[input], inputDepth > deepest { (deepest, deepestInput) = (inputDepth, input) }
        }
        let depth = deepest + expr.depth
        guard depth <= Self.maximumPipelineDepth else {
            let through = deepestInput.map { " (built on '\($0)')" } ?? ""
            diagnose("'\(name.name)' is too deep: its pipeline has more than \(Self.maximumPipelineDepth) levels of operators, calls and member accesses across the 'let' lines it is built on\(through)",
                     at: name.location, length: name.name.count, hint: "a chain of this many 'let' lines cannot be subscribed without exhausting the stack")
            return false
        }
        pipelineDepths[name.name] = depth
        return true
    }

    /// The subscriptions each derived stream's closures made to each inner source, by stream name.
    private var innerLogs: [String: [(source: String, log: SubscriptionLog)]] = [:]

    /// The globals, except that the streams `expr` uses inside its closures are seen through a
    /// recorder of their own, so that a diagram can tell which operator made which inner
    /// subscription (two operators using one cold source each get their own record).
    private func consumerEnvironment(for name: String, _ expr: Expr) -> Environment {
        // `definedNames` rather than the streams so far: built once, where a set of the streams
        // per `let` would be quadratic in a long chain of them; a later name has no stream yet.
        let inner = NameCheck.references(in: expr, to: definedNames).inClosures
        guard !inner.isEmpty else { return interpreter.globals }
        let environment = Environment(parent: interpreter.globals)
        for source in inner {
            guard var stream = streams[source]?.stream else { continue }
            let log = SubscriptionLog()
            stream.publisher = SubscriptionRecorder(stream.publisher, log: log, scheduler: scheduler).eraseToAnyPublisher()
            environment[source] = .stream(stream)
            innerLogs[name, default: []].append((source, log))
        }
        return environment
    }

    private func evaluate(_ expr: Expr, in environment: Environment? = nil) -> Runtime? {
        switch Result(catching: { () throws(EvalError) -> Runtime in try interpreter.evaluate(expr, in: environment ?? interpreter.globals) }) {
        case .success(let runtime): return runtime
        case .failure(let error):
            report(error, at: expr.location)
            return nil
        }
    }

    private func nearestStream(_ name: String) -> String? {
        Suggestions.nearest(to: name, in: streams.keys).map { "did you mean '\($0)'?" }
    }

    private func checkStream(_ name: Identifier) -> Bool {
        if publishedProperties.contains(name.name) {
            diagnose("'\(name.name)' is a @Published property, not a publisher", at: name.location, length: name.name.count,
                     hint: "its publisher is '\(AppIdioms.publisherName(name.name))'")
            return false
        }
        guard streams[name.name] != nil else {
            diagnose("cannot find stream '\(name.name)' in this test", at: name.location, length: name.name.count, hint: nearestStream(name.name))
            return false
        }
        return true
    }

    private func subscriberIndex(_ name: String) -> Int {
        if let index = subscribers.firstIndex(where: { $0.name == name }) { return index }
        subscribers.append(SubscriberPlan(name: name))
        return subscribers.count - 1
    }

    private func observe(_ statement: Statement) {
        switch statement.kind {
        case .subscribe(let name, let marbles):
            guard checkStream(name), let parsed = parse(marbles, as: .subscription) else { return }
            let index = subscriberIndex(name.name)
            guard !subscribers[index].hasSubscribeLine else {
                diagnose("'\(name.name)' already has a subscribe line", at: statement.location)
                return
            }
            subscribers[index].hasSubscribeLine = true
            guard let start = parsed.events.first(where: { $0.event == .subscribe }) else {
                diagnose("a subscribe line needs '^' to say when the subscriber attaches", at: marbles.location)
                return
            }
            subscribers[index].subscribeAt = start.frame
            subscribers[index].cancelAt = parsed.events.first(where: { $0.event == .cancel })?.frame
        case .demand(let name, let marbles):
            guard checkStream(name), let parsed = parse(marbles, as: .demand) else { return }
            let index = subscriberIndex(name.name)
            guard !subscribers[index].hasDemandLine else {
                diagnose("'\(name.name)' already has a demand line", at: statement.location)
                return
            }
            subscribers[index].hasDemandLine = true
            subscribers[index].requests = Self.requests(parsed)
            demandLines[name.name] = marbles
        case .connect(let name, let marbles):
            guard checkStream(name), let parsed = parse(marbles, as: .subscription) else { return }
            guard streams[name.name]?.stream.connect != nil else {
                diagnose("'\(name.name)' is not a connectable publisher", at: name.location, length: name.name.count,
                         hint: "connect works on makeConnectable(), multicast(…) and timers")
                return
            }
            connections.append((name.name, parsed.events.first { $0.event == .subscribe }?.frame, parsed.events.first { $0.event == .cancel }?.frame))
        case .expect(let name, let property, let marbles):
            guard checkStream(name) else { return }
            if let property, property.name == "requests" {
                guard let parsed = parse(marbles, as: .demand) else { return }
                expectations.append(Expectation(name: name.name, property: property.name, line: statement.sourceLine, column: statement.location.column,
                                                lastFrame: parsed.endFrame - 1, events: [], span: nil, requests: Self.requests(parsed)))
            } else if let property, property.name == "values" {
                guard let events = timeline(marbles, as: .expect) else { return }
                _ = subscriberIndex(name.name)
                expectations.append(Expectation(name: name.name, property: property.name, line: statement.sourceLine, column: statement.location.column,
                                                lastFrame: lastTimelineEnd - 1, events: events, span: nil, matchers: lineMatchers))
            } else if let property {
                guard property.name == "subscriptions" else {
                    diagnose("unknown property '\(property.name)'; '.subscriptions', '.requests' and '.values' can be expected", at: property.location, length: property.name.count,
                             hint: Suggestions.nearest(to: property.name, in: ["subscriptions", "requests", "values"]).map { "did you mean '\($0)'?" })
                    return
                }
                guard let parsed = parse(marbles, as: .subscription) else { return }
                let start = parsed.events.first { $0.event == .subscribe }?.frame
                let end = parsed.events.first { $0.event == .cancel }?.frame
                var span: SubscriptionSpan?
                if let start { span = SubscriptionSpan(start: start, end: end) } else if end != nil {
                    diagnose("a subscription line with '!' needs a '^' before it", at: marbles.location)
                    return
                }
                expectations.append(Expectation(name: name.name, property: property.name, line: statement.sourceLine, column: statement.location.column,
                                                lastFrame: parsed.endFrame - 1, events: [], span: span))
            } else if let other = Self.equalityOperand(marbles) {
                guard other.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !other.name.isEmpty else {
                    diagnose("expected a stream name after '=='", at: other.location, length: max(1, other.name.count),
                             hint: "for example: expect \(name.name) == other")
                    return
                }
                guard other.name != name.name else {
                    diagnose("'\(name.name)' is compared with itself", at: other.location, length: other.name.count,
                             hint: "name another stream: expect \(name.name) == other")
                    return
                }
                guard checkStream(other) else { return }
                _ = subscriberIndex(name.name)
                _ = subscriberIndex(other.name)
                expectations.append(Expectation(name: name.name, property: nil, line: statement.sourceLine, column: statement.location.column,
                                                lastFrame: .max, events: [], span: nil, other: other.name))
            } else {
                guard let events = timeline(marbles, as: .expect) else { return }
                _ = subscriberIndex(name.name)
                expectations.append(Expectation(name: name.name, property: nil, line: statement.sourceLine, column: statement.location.column,
                                                lastFrame: lastTimelineEnd - 1, events: events, span: nil, matchers: lineMatchers))
            }
        default:
            break
        }
    }

    private var demandLines: [String: MarbleText] = [:]

    /// The `B` of `expect A == B` (the marbles of the line start with `==`); nil for marbles.
    private static func equalityOperand(_ marbles: MarbleText) -> Identifier? {
        guard marbles.text.hasPrefix("==") else { return nil }
        let rest = marbles.text.dropFirst(2)
        let name = rest.drop { $0 == " " }
        return Identifier(name: String(name), location: SourceLocation(line: marbles.location.line, column: marbles.location.column + 2 + rest.count - name.count))
    }

    /// The requests of a demand-kind line.
    private static func requests(_ parsed: ParsedMarbles) -> [(frame: Int, demand: Subscribers.Demand)] {
        parsed.events.compactMap { item in
            guard case .request(let request) = item.event else { return nil }
            switch request {
            case .unlimited: return (item.frame, .unlimited)
            case .max(let n): return (item.frame, .max(n))
            }
        }
    }

    private func validateSubscribers() {
        for plan in subscribers {
            if let early = plan.requests.first(where: { $0.frame < plan.subscribeAt }), let line = demandLines[plan.name] {
                diagnose("a request at frame \(early.frame), before '\(plan.name)' is subscribed at frame \(plan.subscribeAt)", at: line.location,
                         hint: "a demand line's requests start at the subscription frame")
            }
            if let cancel = plan.cancelAt, cancel < plan.subscribeAt {
                diagnose("'\(plan.name)' is cancelled before it is subscribed", at: syntax.location)
            }
        }
    }

    /// Lets go of everything the test built (see `Interpreter.tearDown`); after `run()`, or
    /// instead of it.
    func tearDown() {
        // A subscription that never ended holds its subscriber and is held by it, as in
        // Combine: cancelling ends every chain (the report is made; nothing is recorded now).
        for plan in subscribers { plan.subscriber?.cancel() }
        // And what no test subscriber reaches: a trigger let go without a cancel, a cold line
        // holding events for demand that never comes.
        activity.cancelOpenSubscriptions()
        interpreter.tearDown()
        streams.removeAll()
        innerLogs.removeAll()
        subscribers.removeAll()
        sends.removeAll()
    }

    // MARK: Running

    func run() -> TestReport {
        let clock = ContinuousClock()
        let started = clock.now
        queueTestActions()
        interpreter.onFault = { [unowned self] in
            var counts: [ObjectIdentifier: Int] = [:]
            for plan in subscribers { if let subscriber = plan.subscriber { counts[ObjectIdentifier(subscriber)] = subscriber.eventCount } }
            eventsBeforeFault = counts
        }
        runUntilSettled()

        var report = TestReport(name: syntax.name, line: syntax.location.line, checks: [], error: nil,
                                trace: interpreter.trace.map { TraceLine(frame: $0.frame, text: $0.text) },
                                frameNanoseconds: frameNanoseconds, seconds: 0)
        if let fault = interpreter.fault {
            report.error = FileDiagnostic(path: path, line: fault.location.line, column: fault.location.column, length: fault.length,
                                          message: fault.message, hint: fault.hint, lineText: lineText(fault.location.line), frame: fault.frame)
            report.stoppedAtLimit = fault.isLimit
        } else if let stop = scheduler.stopReason {
            report.error = stopDiagnostic(stop)
        }
        report.unsettled = interpreter.fault == nil && scheduler.stopReason != nil
        // A run that never settled is compared only up to the end of its lines: what came after
        // depends on where a limit cut it (the error says what kept it going).
        if report.unsettled { comparedThrough = horizon }
        report.checks = checks()
        // What happened after the longest line (late events) is drawn too — unless the run never
        // settled: where a limit cut it is arbitrary, and the error says what kept it going.
        if !report.unsettled, let settling, scheduler.actionCount > settling.actions {
            report.endFrame = max(horizon, scheduler.currentFrame + 1)
        } else {
            report.endFrame = horizon
        }
        report.connections = connections.compactMap { connection in
            connection.start.map { ConnectionRecord(stream: connection.name, start: $0, end: connection.end) }
        }
        report.values = valueNames
        report.warnings = uncheckedStreams()
        report.streams = streamOrder.compactMap { name in
            guard var stream = streams[name]?.report else { return nil }
            if let log = streams[name]?.log {
                var requests: [Int: [(frame: Int, demand: Subscribers.Demand)]] = [:]
                for request in log.requests { requests[request.subscription, default: []].append((request.time, request.demand)) }
                stream.subscriptions = log.spans.enumerated().map { index, span in
                    SubscriptionRecord(start: span.start, end: span.end, delivered: log.deliveries[index], requests: Comparison.render(requests[index] ?? []),
                                       dropped: droppedValues(log, index))
                }
            }
            if let plan = subscribers.first(where: { $0.name == name }), let subscriber = plan.subscriber {
                stream.observed = observed(name, recorded(subscriber))
                if let comparedThrough { stream.observed?.removeAll { $0.frame > comparedThrough } }
                stream.subscriber = SubscriberRecord(start: plan.subscribeAt, cancel: plan.cancelAt,
                                                     demand: plan.hasDemandLine ? Comparison.render(plan.requests) : [], subscription: plan.subscription)
            }
            stream.innerSubscriptions = (innerLogs[name] ?? []).map { use in
                InnerUse(source: use.source, subscriptions: use.log.spans.enumerated().map { index, span in
                    SubscriptionRecord(start: span.start, end: span.end, dropped: droppedValues(use.log, index))
                })
            }
            return stream
        }
        if let tracer { report.events = tracer.events(table: table, printed: interpreter.trace) }
        report.seconds = (clock.now - started).seconds
        return report
    }

    /// A warning for each stream nothing checks: no `expect` line names it, and no checked
    /// stream is built from it (directly or in a closure). Only a stream that no other stream
    /// uses is named (what is built from a checked stream is checked too, so that is exactly the
    /// unchecked streams that nothing else builds on): a source feeding only an unchecked stream
    /// is not named again, the warning on the stream built from it says enough.
    private func uncheckedStreams() -> [FileDiagnostic] {
        var used = Set<String>(minimumCapacity: streamOrder.count)
        for expectation in expectations {
            used.insert(expectation.name)
            if let other = expectation.other { used.insert(other) }
        }
        for name in streamOrder {
            guard let report = streams[name]?.report else { continue }
            for input in report.inputs { used.insert(input) }
            for inner in report.innerSources { used.insert(inner) }
        }
        return streamOrder.compactMap { name -> FileDiagnostic? in
            guard !used.contains(name), let stream = streams[name] else { return nil }
            return FileDiagnostic(path: path, line: stream.definition.line, column: stream.definition.column, length: name.count,
                                  message: "'\(name)' is never checked: no expect line names it or a stream built from it",
                                  hint: "add `expect \(name) …`, or remove it", lineText: lineText(stream.definition.line), severity: .warning)
        }
    }

    /// The actions a run may take in all: `RunOptions.maxActions` plus
    /// `actionsPerWrittenEvent` for each event the test's lines write.
    private var actionBudget: Int {
        let (perEvents, overflow) = writtenEvents.multipliedReportingOverflow(by: options.actionsPerWrittenEvent)
        let (budget, overflowAgain) = options.maxActions.addingReportingOverflow(perEvents)
        return overflow || overflowAgain ? .max : budget
    }

    /// Where settling began (nil if the lines' end left no work): the actions run and the trace
    /// entries logged by then, and the action limit settling had.
    private var settling: (actions: Int, traced: Int, limit: Int)?

    /// Runs the test's lines, then on until the scheduler has no work left — the run settles — or
    /// a limit stops it: the per-instant limit, the action budget, or, once the longest line has
    /// ended, as many actions again as the run took until then (at least `settleActions`).
    /// Running on costs nothing per event: the scheduler's own action limit is only lowered.
    private func runUntilSettled() {
        let budget = actionBudget
        scheduler.limits.maxActions = budget
        scheduler.run(until: horizon)
        guard scheduler.stopReason == nil, scheduler.hasPendingWork else { return }
        let done = scheduler.actionCount
        let (limit, overflow) = done.addingReportingOverflow(max(options.settleActions, done))
        settling = (done, tracer?.entryCount ?? 0, overflow ? budget : min(budget, limit))
        scheduler.limits.maxActions = settling?.limit ?? budget
        scheduler.run()
    }

    /// The error of a run that a limit stopped: which limit, and what kept the scheduler busy
    /// (learnt from a traced run of the same test, made only now: an untraced run logs nothing).
    private func stopDiagnostic(_ stop: SchedulerStop) -> FileDiagnostic {
        guard let tracer else {
            var traced = options
            traced.traceEvents = true
            // At one frame the culprit shows within a few actions: try a small per-instant limit
            // first, and keep its answer only if that run stopped at the same frame the same way.
            if case .instantActionLimit(_, let frame) = stop, options.maxActionsPerInstant > 1_000 {
                var quick = traced
                quick.maxActionsPerInstant = 1_000
                let twin = rerun(with: quick)
                defer { twin.tearDown() }
                if case .instantActionLimit(_, frame)? = twin.scheduler.stopReason {
                    var diagnostic = twin.stopDiagnostic(stop)
                    diagnostic.frame = scheduler.currentFrame
                    return diagnostic
                }
            }
            let twin = rerun(with: traced)
            defer { twin.tearDown() }
            return twin.stopDiagnostic(twin.scheduler.stopReason ?? stop)
        }
        // Settling: what was busy after the lines ended; otherwise: what was busy lately.
        let busy: BusyNode?
        if case .actionLimit = stop, let settling, settling.limit < actionBudget {
            busy = tracer.busiestNode(fromEntry: settling.traced)
        } else {
            busy = tracer.busiestNode(fromEntry: max(0, tracer.entryCount - 1_000))
        }
        let subscribed = streamOrder.filter { streams[$0]?.log.spans.last.map { $0.end == nil } ?? false }
        // Without a busy node, the stream still subscribed that is defined last: the furthest downstream.
        let location = busy.flatMap { definition(of: $0) } ?? subscribed.last.flatMap { streams[$0]?.definition } ?? syntax.location
        let stopped = RunStop(stop: stop, frame: scheduler.currentFrame, lastLineFrame: horizon - 1,
                              settleActions: settling.map { scheduler.actionCount - $0.actions },
                              budget: (base: options.maxActions, perEvent: options.actionsPerWrittenEvent, events: writtenEvents),
                              busy: busy, subscribed: subscribed)
        return FileDiagnostic(path: path, line: location.line, column: location.column, length: 1,
                              message: stopped.message, hint: stopped.hint, lineText: lineText(location.line), frame: scheduler.currentFrame)
    }

    /// The same test prepared and run again with other options (the engine is deterministic).
    private func rerun(with options: RunOptions) -> TestSession {
        let twin = TestSession(syntax, path: path, lines: lines, fileStatements: fileStatements, options: options)
        twin.queueTestActions()
        twin.runUntilSettled()
        return twin
    }

    /// Where the stream or operator `node` is written: a named stream's definition, or the first
    /// `let`/`subject` line whose text holds the operator.
    private func definition(of node: BusyNode) -> SourceLocation? {
        for statement in syntax.statements {
            switch statement.kind {
            case .hot(let name, _), .cold(let name, _), .subject(let name, _), .binding(let name, _):
                if node.isStream {
                    if name.name == node.label { return name.location }
                    continue
                }
                let firstLine = node.label.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? node.label
                let text = lineText(statement.location.line)
                if let range = text.range(of: firstLine) {
                    return SourceLocation(line: statement.location.line, column: text.distance(from: text.startIndex, to: range.lowerBound) + 1)
                }
            default: continue
            }
        }
        return nil
    }

    /// Queues the test's own actions: they go first, in file order, so that at any frame the
    /// test's subscribers act before that frame's sends, and sends before operators' later work.
    private func queueTestActions() {
        scheduler.limits.maxTime = .max
        let scheduler = self.scheduler
        scheduler.rewindStart(to: firstFrame)
        for index in subscribers.indices {
            let plan = subscribers[index]
            guard let stream = streams[plan.name]?.stream.publisher else { continue }
            let initial = plan.hasDemandLine
                ? plan.requests.filter { $0.frame == plan.subscribeAt }.reduce(Subscribers.Demand.none) { $0 + $1.demand }
                : Subscribers.Demand.unlimited
            let subscriber = TestSubscriber<Value, StreamError>(scheduler: scheduler, initialDemand: initial)
            subscribers[index].subscriber = subscriber
            let log = streams[plan.name]?.log
            var actions: [TimedEvent<() -> Void, Never>] = [TimedEvent(plan.subscribeAt, .value({ [unowned self] in
                // The recorder opens the next subscription of the log as the subscriber attaches.
                subscribers[index].subscription = log?.spans.count
                stream.subscribe(subscriber)
            }))]
            for request in plan.requests where request.frame > plan.subscribeAt {
                actions.append(TimedEvent(request.frame, .value({ subscriber.request(request.demand) })))
            }
            if let cancel = plan.cancelAt { actions.append(TimedEvent(cancel, .value({ subscriber.cancel() }))) }
            scheduler.play(sortedStably(actions), deliver: perform)
        }
        for connection in connections {
            guard let connect = streams[connection.name]?.stream.connect, let start = connection.start else { continue }
            var handle: (any Cancellable)?
            var actions: [TimedEvent<() -> Void, Never>] = [TimedEvent(start, .value({ handle = connect() }))]
            if let end = connection.end { actions.append(TimedEvent(end, .value({ handle?.cancel() }))) }
            scheduler.play(actions, deliver: perform)
        }
        for send in sends {
            guard let subject = streams[send.name]?.stream.subject else { continue }
            guard subject.dropsWithoutDemand else {
                scheduler.play(send.events, deliver: subject.send)
                continue
            }
            let witnesses = logsSeeing(send.name)
            scheduler.play(send.events) { [unowned self] event in
                guard case .value(let value) = event else { return subject.send(event) }
                noteDrops(of: value, in: witnesses) { subject.send(event) }
            }
        }
    }

    // MARK: Dropped values

    /// Per subscription log, per subscription: the values a subject sent that it did not get.
    private var dropped: [ObjectIdentifier: [Int: [TimedEvent<Value, StreamError>]]] = [:]

    /// The logs whose subscriptions reach the subject `name` directly: its own, the inner
    /// recorders of the streams that use it in closures, and `let other = name` aliases.
    private func logsSeeing(_ name: String) -> [SubscriptionLog] {
        var logs = streams[name].map { [$0.log] } ?? []
        for uses in innerLogs.values { logs += uses.filter { $0.source == name }.map(\.log) }
        for stream in streams.values where stream.report.kind == .derived && stream.report.expression == name { logs.append(stream.log) }
        return logs
    }

    /// Sends a value with `send` and notes it as dropped for every subscription active before
    /// and after the send that did not deliver it: a PassthroughSubject offers a value to each
    /// of its subscribers at once, and one without demand loses it. (A subscription that began
    /// during the send was not offered it; one that ended during it was cancelled, not starved.)
    private func noteDrops(of value: Value, in logs: [SubscriptionLog], send: () -> Void) {
        // The common shapes first, without the buffer (callgrind: the buffer's accesses were
        // most of this function's cost on a hot line read by one subscriber): one subscription
        // watching, or none.
        if logs.count == 1, let log = logs.first {
            let active = log.active
            if active.isEmpty { return send() }
            if active.count == 1, let index = active.first {
                let delivered = log.deliveries[index]
                send()
                if log.deliveries[index] == delivered, log.spans[index].end == nil { noteDrop(of: value, log, index) }
                return
            }
        }
        // One buffer for every value sent: a long hot line costs no allocation per value. A send
        // can cause another (a subject feeding a share): each uses the part of it it appended.
        let base = offered.count
        for (position, log) in logs.enumerated() {
            for index in log.active { offered.append((position, index, log.deliveries[index])) }
        }
        send()
        for item in offered[base...] {
            let log = logs[item.log]
            guard log.deliveries[item.index] == item.delivered, log.spans[item.index].end == nil else { continue }
            noteDrop(of: value, log, item.index)
        }
        offered.removeSubrange(base...)
    }

    /// Subscription `index` of `log` was offered `value` now and did not get it.
    private func noteDrop(of value: Value, _ log: SubscriptionLog, _ index: Int) {
        dropped[ObjectIdentifier(log), default: [:]][index, default: []].append(TimedEvent(scheduler.currentFrame, .value(value)))
    }

    /// The subscriptions a value is being offered to, with their deliveries before it (see `noteDrops`).
    private var offered: [(log: Int, index: Int, delivered: Int)] = []

    /// What subscription `index` of `log` lost, as marble tokens.
    private func droppedValues(_ log: SubscriptionLog, _ index: Int) -> [RenderedEvent] {
        dropped[ObjectIdentifier(log)]?[index].map { Comparison.render($0, table) } ?? []
    }

    /// The last frame the checks compare (nil: all of the run).
    private var comparedThrough: Int?

    /// How many events each test subscriber had received when a runtime error stopped the run.
    private var eventsBeforeFault: [ObjectIdentifier: Int]?
    /// Each observed stream rendered as marble tokens, once (see `observed(_:_:)`).
    private var renderedObservations: [String: [RenderedEvent]] = [:]

    /// A subscriber's events, without what arrived after a runtime error (the placeholder value
    /// the failing closure returned so that the current action could unwind).
    /// What the test subscriber of `name` received, rendered as marble tokens once for the
    /// checks and the report (a long timeline is expensive to render).
    private func observed(_ name: String, _ events: @autoclosure () -> [TimedEvent<Value, StreamError>]) -> [RenderedEvent] {
        if let rendered = renderedObservations[name] { return rendered }
        let rendered = Comparison.render(events(), table)
        renderedObservations[name] = rendered
        return rendered
    }

    private func recorded(_ subscriber: TestSubscriber<Value, StreamError>) -> [TimedEvent<Value, StreamError>] {
        guard let count = eventsBeforeFault?[ObjectIdentifier(subscriber)] else { return subscriber.events }
        return Array(subscriber.events.prefix(count))
    }

    private func perform(_ event: TimelineEvent<() -> Void, Never>) {
        if case .value(let action) = event { action() }
    }

    private func sortedStably<T>(_ events: [TimedEvent<T, Never>]) -> [TimedEvent<T, Never>] {
        events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    private func checks() -> [CheckReport] {
        var checks: [CheckReport] = []
        var subscriptionOrdinal: [String: Int] = [:]
        for expectation in expectations {
            if let check = matchingCheck(expectation) {
                checks.append(check)
            } else if expectation.property == "requests" {
                let actual = streams[expectation.name]?.log.requests.filter { $0.time <= comparedThrough ?? .max }.map { ($0.time, $0.demand) } ?? []
                checks.append(CheckReport(kind: .requests, label: expectation.name + ".requests", stream: expectation.name, line: expectation.line, column: expectation.column,
                                          expected: Comparison.render(expectation.requests), actual: Comparison.render(actual),
                                          differences: Comparison.requestDifferences(stream: expectation.name, expected: expectation.requests, actual: actual,
                                                                                             lastFrame: expectation.lastFrame),
                                          notes: []))
            } else if expectation.property != nil {
                let ordinal = subscriptionOrdinal[expectation.name, default: 0] + 1
                subscriptionOrdinal[expectation.name] = ordinal
                let spans = streams[expectation.name]?.log.spans ?? []
                let actual = spans.indices.contains(ordinal - 1) ? spans[ordinal - 1] : nil
                var differences = Comparison.subscriptionDifferences(stream: expectation.name, expected: expectation.span, actual: actual, ordinal: ordinal,
                                                                   lastFrame: expectation.lastFrame)
                var notes: [String] = []
                if expectation.span == nil, ordinal == 1, !spans.isEmpty {
                    differences = [Difference(frame: spans[0].start, sentence: "expected \(expectation.name) never to be subscribed, but it was subscribed here")]
                }
                let lastLine = !expectations.dropFirst(expectations.firstIndex { $0.line == expectation.line }.map { $0 + 1 } ?? expectations.count)
                    .contains { $0.name == expectation.name && $0.property == "subscriptions" }
                if lastLine, spans.count > ordinal {
                    let extra = spans[ordinal...].map { "frame \($0.start)" }.joined(separator: ", ")
                    differences.append(Difference(frame: spans[ordinal].start, sentence: "\(expectation.name) was subscribed \(spans.count) times; no line expects the subscription at \(extra)"))
                    notes.append("write one `expect \(expectation.name).subscriptions` line per subscription, in order")
                }
                checks.append(CheckReport(kind: .subscriptions, label: expectation.name + ".subscriptions", stream: expectation.name, line: expectation.line, column: expectation.column,
                                          expected: Comparison.render(expectation.span), actual: Comparison.render(actual),
                                          differences: differences.sorted { $0.frame < $1.frame }, notes: notes))
            } else {
                guard let subscriber = subscribers.first(where: { $0.name == expectation.name })?.subscriber else { continue }
                var actual = recorded(subscriber)
                if let comparedThrough { actual.removeAll { $0.time > comparedThrough } }
                let renderedActual = observed(expectation.name, actual)
                let differences = Comparison.differences(expected: expectation.events, actual: actual, table: table, lastFrame: expectation.lastFrame)
                var notes = differences.isEmpty ? [] : Comparison.notes(stream: expectation.name, expected: expectation.events, actual: actual)
                // Some Combine operators really do send beyond demand (replaceEmpty asks upstream
                // for .unlimited and forwards everything), so this explains, it does not fail.
                if !differences.isEmpty, let frame = subscriber.valuesWithoutDemand.first {
                    notes.append("\(expectation.name) received a value without demand at frame \(frame)")
                }
                checks.append(CheckReport(kind: .events, label: expectation.name, stream: expectation.name, line: expectation.line, column: expectation.column,
                                          expected: differences.isEmpty ? renderedActual : Comparison.render(expectation.events, table), actual: renderedActual,
                                          differences: differences.sorted { $0.frame < $1.frame }, notes: notes))
            }
        }
        return checks
    }

    /// What a test subscriber received, up to where the run is compared.
    private func received(_ name: String) -> [TimedEvent<Value, StreamError>]? {
        guard let subscriber = subscribers.first(where: { $0.name == name })?.subscriber else { return nil }
        var events = recorded(subscriber)
        if let comparedThrough { events.removeAll { $0.time > comparedThrough } }
        return events
    }

    /// The check of an `expect` line with matchers, an `expect NAME.values` line or an
    /// `expect A == B` line; nil for any other line. None of them is rewritten by `--update`:
    /// concrete values in place of a matcher would say more than the test meant.
    private func matchingCheck(_ expectation: Expectation) -> CheckReport? {
        guard expectation.property == "values" || expectation.other != nil || !expectation.matchers.isEmpty,
              let actual = received(expectation.name) else { return nil }
        let renderedActual = observed(expectation.name, actual)
        var renderedExpected = Comparison.render(expectation.events, table)
        for (index, matcher) in expectation.matchers { renderedExpected[index].event = .value(matcher.text) }
        let label: String
        var result: (differences: [Difference], notes: [String])
        if let other = expectation.other, let wanted = received(other) {
            label = "\(expectation.name) == \(other)"
            result.differences = Comparison.differences(expected: wanted, actual: actual, table: table)
            result.notes = result.differences.isEmpty ? [] : ["expected: what \(other) received; got: what \(expectation.name) received"]
            renderedExpected = observed(other, wanted)
        } else if expectation.property == "values" {
            label = expectation.name + ".values"
            result = MatchingComparison.sequenceDifferences(expected: expectation.events, matchers: expectation.matchers, actual: actual,
                                                            table: table, interpreter: interpreter)
            renderedExpected = MatchingComparison.sequenceTimeline(expected: renderedExpected, actual: actual)
        } else {
            label = expectation.name
            result = MatchingComparison.differences(expected: expectation.events, matchers: expectation.matchers, actual: actual, table: table,
                                                    lastFrame: expectation.lastFrame, interpreter: interpreter)
            if !result.differences.isEmpty { result.notes += Comparison.notes(stream: expectation.name, expected: expectation.events, actual: actual) }
        }
        var check = CheckReport(kind: .events, label: label, stream: expectation.name, line: expectation.line, column: expectation.column,
                                expected: result.differences.isEmpty ? renderedActual : renderedExpected, actual: renderedActual,
                                differences: result.differences.sorted { $0.frame < $1.frame }, notes: result.differences.isEmpty ? [] : result.notes)
        check.rewritable = false
        if !check.passed { check.notes.append("--update does not rewrite this line: it states less than the exact events, on purpose") }
        return check
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
