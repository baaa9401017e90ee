import Reactive
import MarbleNotation
import MarbleSyntax

/// Running a test on its virtual scheduler until it settles, and the diagnostics of a run that a limit stopped.
extension TestSession {
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
        report.omittedArguments = Catalogue.omittedArguments
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
        report.warnings = uncheckedStreams() + leftOutSubscriptionLines()
        report.streams = streamOrder.compactMap { name in
            guard var stream = streams[name]?.report else { return nil }
            if let log = streams[name]?.log {
                var requests: [Int: [(frame: Int, demand: Subscribers.Demand)]] = [:]
                for request in log.requests { requests[request.subscription, default: []].append((request.time, request.demand)) }
                stream.subscriptions = log.spans.enumerated().map { index, span in
                    SubscriptionRecord(start: span.start, end: span.end, delivered: log.deliveries[index], requests: Comparison.render(requests[index] ?? []),
                                       dropped: droppedValues(log, index), dropReasons: dropReasons(log, index))
                }
            }
            if let plan = subscribers.first(where: { $0.name == name }), let subscriber = plan.subscriber {
                stream.observed = observed(name, recorded(subscriber))
                if let comparedThrough { stream.observed?.removeAll { $0.frame > comparedThrough } }
                stream.subscriber = SubscriberRecord(start: plan.subscribeAt, cancel: plan.cancelAt,
                                                     demand: plan.hasDemandLine ? Comparison.render(plan.requests) : [], hasDemandLine: plan.hasDemandLine,
                                                     subscription: plan.subscription)
            }
            stream.innerSubscriptions = (innerLogs[name] ?? []).map { use in
                InnerUse(source: use.source, subscriptions: use.log.spans.enumerated().map { index, span in
                    SubscriptionRecord(start: span.start, end: span.end, dropped: droppedValues(use.log, index), dropReasons: dropReasons(use.log, index))
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
    func uncheckedStreams() -> [FileDiagnostic] {
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

    /// A warning for each `.subscriptions` line that RxJS's rules leave out and that the run
    /// therefore does not check (see `keptExpectations`): a line without `^` beside other lines
    /// of its stream.
    func leftOutSubscriptionLines() -> [FileDiagnostic] {
        let kept = keptExpectations()
        return expectations.filter { expectation in
            expectation.leftOut && !kept.contains { $0.leftOut && $0.line == expectation.line }
        }.map { expectation in
            FileDiagnostic(path: path, line: expectation.line, column: expectation.column, length: 6,
                           message: "this line has no '^': RxJS's expectSubscriptions leaves it out, so it checks nothing",
                           hint: "mark the subscription with '^', or remove the line", lineText: lineText(expectation.line), severity: .warning)
        }
    }

    /// The actions a run may take in all: `RunOptions.maxActions` plus
    /// `actionsPerWrittenEvent` for each event the test's lines write.
    var actionBudget: Int {
        let (perEvents, overflow) = writtenEvents.multipliedReportingOverflow(by: options.actionsPerWrittenEvent)
        let (budget, overflowAgain) = options.maxActions.addingReportingOverflow(perEvents)
        return overflow || overflowAgain ? .max : budget
    }

    /// Runs the test's lines, then on until the scheduler has no work left — the run settles — or
    /// a limit stops it: the per-instant limit, the action budget, or, once the longest line has
    /// ended, as many actions again as the run took until then (at least `settleActions`).
    /// Running on costs nothing per event: the scheduler's own action limit is only lowered.
    func runUntilSettled() {
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
    func stopDiagnostic(_ stop: SchedulerStop) -> FileDiagnostic {
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
        // Without a busy node, the stream still subscribed that is defined last: the furthest
        // downstream. For work queued past the end of time, that stream first: what was busy
        // lately is upstream of the operator that queued it.
        let furthest = subscribed.last.flatMap { streams[$0]?.definition }
        let location: SourceLocation
        if case .timeLimit = stop {
            location = furthest ?? busy.flatMap { definition(of: $0) } ?? syntax.location
        } else {
            location = busy.flatMap { definition(of: $0) } ?? furthest ?? syntax.location
        }
        let stopped = RunStop(stop: stop, frame: scheduler.currentFrame, lastLineFrame: horizon - 1,
                              settleActions: settling.map { scheduler.actionCount - $0.actions },
                              budget: (base: options.maxActions, perEvent: options.actionsPerWrittenEvent, events: writtenEvents),
                              busy: busy, subscribed: subscribed, pendingFrame: scheduler.nextActionTime)
        return FileDiagnostic(path: path, line: location.line, column: location.column, length: 1,
                              message: stopped.message, hint: stopped.hint, lineText: lineText(location.line), frame: scheduler.currentFrame)
    }

    /// The same test prepared and run again with other options (the engine is deterministic).
    func rerun(with options: RunOptions) -> TestSession {
        let twin = TestSession(syntax, path: path, lines: lines, fileStatements: fileStatements, options: options)
        twin.queueTestActions()
        twin.runUntilSettled()
        return twin
    }

    /// Where the stream or operator `node` is written: a named stream's definition, or the first
    /// `let`/`subject` line whose text holds the operator.
    func definition(of node: BusyNode) -> SourceLocation? {
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
    func queueTestActions() {
        scheduler.limits.maxTime = VirtualTimeEnd.last
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
            if let current = subject.current {
                let witnesses = logsSeeing(send.name)
                scheduler.play(send.events) { [unowned self] event in
                    guard case .value(let value) = event else {
                        noteConflationEnds(holding: current(), in: witnesses)
                        return subject.send(event)
                    }
                    noteConflation(of: value, replacing: current(), in: witnesses) { subject.send(event) }
                }
                continue
            }
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
}
