import Reactive
import MarbleNotation
import MarbleSyntax

/// Comparing what the run produced with the `expect` lines, into the check reports.
extension TestSession {
    /// What the test subscriber of `name` received, rendered as marble tokens once for the
    /// checks and the report (a long timeline is expensive to render).
    func observed(_ name: String, _ events: @autoclosure () -> [TimedEvent<Value, StreamError>]) -> [RenderedEvent] {
        if let rendered = renderedObservations[name] { return rendered }
        let rendered = Comparison.render(events(), table)
        renderedObservations[name] = rendered
        return rendered
    }

    /// A subscriber's events, without what arrived after a runtime error (the placeholder value
    /// the failing closure returned so that the current action could unwind).
    func recorded(_ subscriber: TestSubscriber<Value, StreamError>) -> [TimedEvent<Value, StreamError>] {
        guard let count = eventsBeforeFault?[ObjectIdentifier(subscriber)] else { return subscriber.events }
        return Array(subscriber.events.prefix(count))
    }

    func perform(_ event: TimelineEvent<() -> Void, Never>) {
        if case .value(let action) = event { action() }
    }

    /// The expectations a run compares. RxJS's `expectSubscriptions` leaves out a line without
    /// `^` (`Expectation.leftOut`): such a line counts only when every line of its stream is one,
    /// and then once, as "never subscribed".
    func keptExpectations() -> [Expectation] {
        guard expectations.contains(where: \.leftOut) else { return expectations }
        let withCaret = Set(expectations.filter { $0.property == "subscriptions" && !$0.leftOut }.map(\.name))
        var seen: Set<String> = []
        return expectations.filter { expectation in
            guard expectation.leftOut else { return true }
            return !withCaret.contains(expectation.name) && seen.insert(expectation.name).inserted
        }
    }

    func sortedStably<T>(_ events: [TimedEvent<T, Never>]) -> [TimedEvent<T, Never>] {
        events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    func checks() -> [CheckReport] {
        let expectations = keptExpectations()
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
                // A value holding a NaN equals nothing, itself included (as in Swift): written out
                // as `{Double.nan}` it would fail for ever, so `--update` leaves the line alone.
                let unequal = actual.first { if case .value(let value) = $0.event { value != value } else { false } }
                if let unequal, case .value(let value) = unequal.event {
                    notes.append("--update does not rewrite this line: at frame \(unequal.time) \(expectation.name) sent \(table.token(for: value)), "
                                 + "and NaN equals nothing, not even itself (as in Swift), so no value written here can match it; "
                                 + "check it with a matcher such as {where: $0.isNaN}")
                }
                var check = CheckReport(kind: .events, label: expectation.name, stream: expectation.name, line: expectation.line, column: expectation.column,
                                        expected: differences.isEmpty ? renderedActual : Comparison.render(expectation.events, table), actual: renderedActual,
                                        differences: differences.sorted { $0.frame < $1.frame }, notes: notes)
                check.rewritable = unequal == nil
                checks.append(check)
            }
        }
        return checks
    }

    /// What a test subscriber received, up to where the run is compared.
    func received(_ name: String) -> [TimedEvent<Value, StreamError>]? {
        guard let subscriber = subscribers.first(where: { $0.name == name })?.subscriber else { return nil }
        var events = recorded(subscriber)
        if let comparedThrough { events.removeAll { $0.time > comparedThrough } }
        return events
    }

    /// The check of an `expect` line with matchers, an `expect NAME.values` line or an
    /// `expect A == B` line; nil for any other line. None of them is rewritten by `--update`:
    /// concrete values in place of a matcher would say more than the test meant.
    func matchingCheck(_ expectation: Expectation) -> CheckReport? {
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
            result.notes = []
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
        check.expectedStream = expectation.other
        if !check.passed { check.notes.append("--update does not rewrite this line: it states less than the exact events, on purpose") }
        return check
    }
}
