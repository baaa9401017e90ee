import Reactive
import MarbleNotation
import MarbleSyntax

/// The test subscribers and their subscribe, cancel and demand lines, the `expect` lines and the send and connect lines, and tearing a test down.
extension TestSession {
    func observe(_ statement: Statement) {
        switch statement.kind {
        case .subscribe(let name, let marbles):
            guard checkStream(name), let parsed = parse(marbles, as: .subscription) else { return }
            let index = subscriberIndex(name.name)
            guard !subscribers[index].hasSubscribeLine else {
                diagnose("'\(name.name)' already has a subscribe line", at: statement.location)
                return
            }
            subscribers[index].hasSubscribeLine = true
            // RxJS's `expectObservable(result, '---!')` subscribes at 0 where the line has no '^'.
            guard let start = parsed.events.first(where: { $0.event == .subscribe })?.frame ?? (dialect == .native ? nil : 0) else {
                diagnose("a subscribe line needs '^' to say when the subscriber attaches", at: marbles.location)
                return
            }
            subscribers[index].subscribeAt = start
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
            let end = parsed.events.first { $0.event == .cancel }?.frame
            // As a subscribe line: '!' without '^' connects at 0.
            connections.append((name.name, parsed.events.first { $0.event == .subscribe }?.frame ?? (end == nil ? nil : 0), end))
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
                if let start { span = SubscriptionSpan(start: start, end: end) }
                expectations.append(Expectation(name: name.name, property: property.name, line: statement.sourceLine, column: statement.location.column,
                                                lastFrame: parsed.endFrame - 1, events: [], span: span, leftOut: start == nil && dialect != .native))
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

    /// The `B` of `expect A == B` (the marbles of the line start with `==`); nil for marbles.
    static func equalityOperand(_ marbles: MarbleText) -> Identifier? {
        guard marbles.text.hasPrefix("==") else { return nil }
        let rest = marbles.text.dropFirst(2)
        let name = rest.drop { $0 == " " }
        return Identifier(name: String(name), location: SourceLocation(line: marbles.location.line, column: marbles.location.column + 2 + rest.count - name.count))
    }

    /// The requests of a demand-kind line.
    static func requests(_ parsed: ParsedMarbles) -> [(frame: Int, demand: Subscribers.Demand)] {
        parsed.events.compactMap { item in
            guard case .request(let request) = item.event else { return nil }
            switch request {
            case .unlimited: return (item.frame, .unlimited)
            case .max(let n): return (item.frame, .max(n))
            }
        }
    }

    func validateSubscribers() {
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
        // A cancel passed on by a hop (subscribe(on:)) is queued for this frame: let it reach
        // upstream, which ends what that upstream holds.
        interpreter.scheduler.finishDueWork()
        interpreter.tearDown()
        streams.removeAll()
        innerLogs.removeAll()
        subscribers.removeAll()
        sends.removeAll()
    }
}
