import Reactive
import MarbleNotation
import MarbleSyntax

/// Defining the streams of a test: hot, cold, subject, `let` and `@Published` lines bound to names, the per-subscription cold sources, and the depth of a pipeline across its `let` lines.
extension TestSession {
    func bind(_ name: Identifier, _ stream: StreamValue, kind: StreamReport.Kind, expression: Expr? = nil, declared: DeclaredTimeline? = nil) {
        guard streams[name.name] == nil else {
            diagnose("'\(name.name)' is already defined in this test", at: name.location, length: name.name.count)
            return
        }
        let log = SubscriptionLog()
        var recorded = stream
        let counts = activity.counts(name: name.name, location: name.location)
        if let tracer {
            // The tracer logs between the recorder and the guard.
            recorded.publisher = SubscriptionRecorder(stream.publisher, log: log, scheduler: scheduler).eraseToAnyPublisher()
            recorded.publisher = tracer.traceStream(name.name, text: stream.text, recorded.publisher)
            recorded.publisher = StreamGuard(upstream: recorded.publisher, counts: counts, activity: activity).eraseToAnyPublisher()
        } else {
            recorded.publisher = GuardedRecorder(upstream: stream.publisher, log: log, scheduler: scheduler, counts: counts,
                                                 activity: activity).eraseToAnyPublisher()
        }
        let references = expression.map { NameCheck.references(in: $0, to: definedNames) } ?? (direct: [], inClosures: [])
        let report = StreamReport(name: name.name, kind: kind, expression: expression.map { interpreter.text(of: $0.range) },
                                  inputs: references.direct, innerSources: references.inClosures,
                                  declaredTimeline: declared, observed: nil, subscriptions: [])
        streams[name.name] = NamedStream(stream: recorded, log: log, report: report, definition: name.location)
        if let watch = stream.broadcast {
            // `let shared = source.share()` (or a multicast): its subject drops what a subscriber has
            // no demand for; a CurrentValueSubject's holds it until the next value replaces it.
            let shared = name.name
            let subjectName = watch.subjectName
            var witnesses: [SubscriptionLog]?
            func seeing() -> [SubscriptionLog] {
                if let witnesses { return witnesses }
                let logs = logsSeeing(shared) + (subjectName.map(logsSeeing) ?? [])
                witnesses = logs
                return logs
            }
            // The watch holds these closures: they must not hold it (a cycle per shared stream).
            watch.around = { [unowned self, unowned watch] value, broadcast in
                guard let subject = watch.subject, !subject.dropsWithoutDemand else { return noteDrops(of: value, in: seeing(), send: broadcast) }
                guard let current = subject.current else { return broadcast() }
                noteConflation(of: value, replacing: current(), in: seeing(), send: broadcast)
            }
            watch.beforeCompletion = { [unowned self, unowned watch] in
                guard let current = watch.subject?.current else { return }
                noteConflationEnds(holding: current(), in: seeing())
            }
        }
        for drops in stream.demandDrops { watchDrops(drops, for: log) }
        streamOrder.append(name.name)
        interpreter.globals[name.name] = .stream(recorded)
    }

    /// `let query = typing.debounce(…)` (throttle, a timer; wherever it stands in the line, as
    /// in `typing.debounce(…).map { … }`), and aliases `let slow = query`: a subscription of the
    /// operator made while one of these logs' subscriptions is being made (inside its
    /// `receive(subscriber:)`) belongs to it, and it loses what the operator drops. Made while
    /// it is being made, not merely in its frame: an alias subscribing before its original in
    /// the same frame is not credited with the original's own subscription's drops.
    private func watchDrops(_ drops: DemandDrops<Value>, for log: SubscriptionLog) {
        let key = ObjectIdentifier(drops)
        if dropLogs[key] == nil {
            drops.subscribed = { [unowned self] in
                let losing = (dropLogs[key] ?? []).compactMap { log -> (SubscriptionLog, Int)? in
                    guard let index = log.subscribing.last else { return nil }
                    return (log, index)
                }
                guard !losing.isEmpty else { return nil }
                return { [unowned self] value in for (log, index) in losing { noteDrop(of: value, log, index) } }
            }
        }
        dropLogs[key, default: []].append(log)
    }

    /// Binds a name whose definition had an error, so that later lines using it report their
    /// own mistakes rather than a cascade of "cannot find" errors. The test never runs.
    func bindPlaceholder(_ name: Identifier, subject: Bool) {
        guard streams[name.name] == nil else { return }
        bind(name, StreamValue(publisher: Empty(completeImmediately: false).eraseToAnyPublisher(), text: name.name,
                               subject: subject ? SubjectHandle() : nil), kind: subject ? .subject : .derived)
    }

    func define(_ statement: Statement) {
        switch statement.kind {
        case .hot(let name, let marbles):
            guard let events = timeline(marbles, as: .hot) else { return bindPlaceholder(name, subject: true) }
            let subject = PassthroughSubject<Value, StreamError>()
            bind(name, StreamValue(publisher: subject.eraseToAnyPublisher(), text: name.name, subject: SubjectHandle(subject)), kind: .hot,
                 declared: DeclaredTimeline(lines: [marbles.text], kind: .hot, frameNanoseconds: frameNanoseconds, dialect: dialect))
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
                 declared: DeclaredTimeline(lines: [marbles.text], kind: .cold, frameNanoseconds: frameNanoseconds, dialect: dialect,
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
            streams[name.name]?.report.declaredTimeline = DeclaredTimeline(lines: earlier + [marbles.text], kind: .hot, frameNanoseconds: frameNanoseconds, dialect: dialect)
        default:
            break
        }
    }

    /// The deepest a pipeline may be, counted in syntax-tree levels (`Expr.depth`) along its
    /// chain of `let` lines: each `let` adds its expression's depth to the deepest stream it
    /// uses. Subscribing, delivering and tearing down recurse once per operator, so this is what
    /// bounds the engine's stack (an expression alone is bounded by the parser).
    static let maximumPipelineDepth = 1_000

    /// Notes how deep `name`'s pipeline is; false (with a diagnostic) when it is too deep.
    func withinPipelineDepth(_ name: Identifier, _ expr: Expr) -> Bool {
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

    /// The globals, except that the streams `expr` uses inside its closures are seen through a
    /// recorder of their own, so that a diagram can tell which operator made which inner
    /// subscription (two operators using one cold source each get their own record).
    func consumerEnvironment(for name: String, _ expr: Expr) -> Environment {
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

    func evaluate(_ expr: Expr, in environment: Environment? = nil) -> Runtime? {
        switch Result(catching: { () throws(EvalError) -> Runtime in try interpreter.evaluate(expr, in: environment ?? interpreter.globals) }) {
        case .success(let runtime): return runtime
        case .failure(let error):
            report(error, at: expr.location)
            return nil
        }
    }

    func nearestStream(_ name: String) -> String? {
        Suggestions.nearest(to: name, in: streams.keys).map { "did you mean '\($0)'?" }
    }

    func checkStream(_ name: Identifier) -> Bool {
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

    func subscriberIndex(_ name: String) -> Int {
        if let index = subscribers.firstIndex(where: { $0.name == name }) { return index }
        subscribers.append(SubscriberPlan(name: name))
        return subscribers.count - 1
    }
}
