import Testing
@testable import Reactive

/// What each operator still forwards after downstream has cancelled, and what it passes
/// upstream then — driven by a hand-held source that keeps sending after the cancel, as
/// OpenCombine's `CustomPublisher` does in the tests named (they run against Combine).
@Suite struct AfterCancelTests {
    private typealias Source = SequenceTestSource<Int, TestFailure>

    /// Subscribes a logging subscriber that asks for `initialDemand` and returns `demand`.
    private func attach<P: Publisher>(_ publisher: P, initialDemand: Subscribers.Demand = .unlimited, demand: Subscribers.Demand = .none, lines: SequenceLines) -> SequenceLogSubscriber<P.Output, P.Failure> {
        let subscriber = SequenceLogSubscriber<P.Output, P.Failure>(initialDemand: initialDemand, log: lines.append, demandFor: { _ in demand })
        publisher.subscribe(subscriber)
        return subscriber
    }

    // MARK: Operators that hand the upstream subscription straight through

    /// OC `MapTests.testMapCancel` / `testMapCancelAlreadyCancelled`.
    @Test func mapForwardsEverythingAfterACancelAndPassesRequestsAndCancelsOn() {
        let source = Source(), lines = SequenceLines()
        let subscriber = attach(source.map { $0 * 2 }, demand: .max(111), lines: lines)
        subscriber.subscription?.cancel()
        #expect(source.send(1) == .max(111))
        source.send(completion: .finished)
        subscriber.subscription?.request(.unlimited)
        subscriber.subscription?.cancel()
        #expect(lines.lines == ["downstream subscription", "downstream 2", "downstream finished"])
        #expect(source.subscription.history == ["request unlimited", "cancel", "request unlimited", "cancel"])
    }

    /// OC `FilterTests.testFilterCancelAlreadyCancelled`, `CompactMapTests.testCompactMapCancelAlreadyCancelled`.
    @Test func filterAndCompactMapForwardAfterACancel() {
        let filterSource = Source(), compactSource = Source(), lines = SequenceLines()
        let filtered = attach(filterSource.filter { $0.isMultiple(of: 2) }, demand: .max(2), lines: lines)
        let compacted = attach(compactSource.compactMap { $0 > 0 ? $0 : nil }, demand: .max(2), lines: lines)
        filtered.subscription?.cancel()
        compacted.subscription?.cancel()
        #expect(filterSource.send(42) == .max(2))
        #expect(filterSource.send(1) == .max(1))
        #expect(compactSource.send(7) == .max(2))
        #expect(lines.lines == ["downstream subscription", "downstream subscription", "downstream 42", "downstream 7"])
    }

    /// OC `ScanTests.testScanCancel`.
    @Test func scanForwardsValuesAndTheCompletionAfterACancel() {
        let source = Source(), lines = SequenceLines()
        let subscriber = attach(source.scan(0) { $0 + $1 * 2 }, lines: lines)
        subscriber.subscription?.cancel()
        #expect(source.send(1) == .none)
        source.send(completion: .finished)
        #expect(lines.lines == ["downstream subscription", "downstream 2", "downstream finished"])
        #expect(source.subscription.history == ["request unlimited", "cancel"])
    }

    /// OC `IgnoreOutputTests.testDemand`: the subscriber's requests reach upstream besides the
    /// operator's own `.unlimited`, and so does every cancel.
    @Test func ignoreOutputPassesTheSubscribersRequestsAndCancelsUpstream() {
        let source = Source(), lines = SequenceLines()
        let subscriber = attach(source.ignoreOutput(), initialDemand: .max(42), lines: lines)
        #expect(source.send(0) == .none)
        subscriber.subscription?.request(.max(95))
        subscriber.subscription?.request(.max(5))
        subscriber.subscription?.cancel()
        subscriber.subscription?.cancel()
        #expect(source.subscription.history == ["request max(42)", "request unlimited", "request max(95)", "request max(5)", "cancel", "cancel"])
        source.send(completion: .finished)
        #expect(lines.lines == ["downstream subscription", "downstream finished"])
    }

    /// A chain of pass-through operators hands the source's own subscription to the subscriber
    /// (so `print` downstream names the source, as in Combine).
    @Test func aPassThroughOperatorHandsOnTheSourcesOwnSubscription() {
        let source = Source(), lines = SequenceLines()
        let subscriber = attach(source.map { $0 }.mapError { $0 }.filter { _ in true }.scan(0, +), lines: lines)
        #expect(subscriber.subscription.map { $0 as AnyObject } === source.subscription)
    }

    // MARK: Work already scheduled when the cancel comes

    /// OC `Publishers.Debounce.swift` and `Publishers.Throttle.swift`: a cancel drops the value
    /// waiting for its time, whoever still holds the operator. In a `.marble` run nothing does
    /// (the upstream lets the operator go on the cancel, and its scheduled work holds it weakly),
    /// so the mutants `debounce-cancel-keeps-pending` and `throttle-cancel-keeps-pending` are
    /// equivalent there and pinned here, where the hand-held source keeps its subscriber.
    @Test func aValueWaitingInDebounceOrThrottleIsDroppedByACancelWhileUpstreamHoldsTheOperator() {
        let scheduler = VirtualTimeScheduler()
        let debounced = Source(), throttled = Source(), lines = SequenceLines()
        let first = attach(debounced.debounce(for: 3, scheduler: scheduler), lines: lines)
        let second = attach(throttled.throttle(for: 3, scheduler: scheduler, latest: true), lines: lines)
        #expect(throttled.send(1) == .none)
        scheduler.run()
        #expect(debounced.send(1) == .none)
        #expect(throttled.send(2) == .none)
        first.subscription?.cancel()
        second.subscription?.cancel()
        scheduler.run()
        #expect(lines.lines == ["downstream subscription", "downstream subscription", "downstream 1"])
        #expect(debounced.subscription.history == ["request unlimited", "cancel"])
        #expect(throttled.subscription.history == ["request unlimited", "cancel"])
    }

    // MARK: Operators with state of their own

    /// OC `MapTests.testTryMapCancel`: the value still arrives, the completion does not, and
    /// the request after the cancel goes nowhere.
    @Test func tryMapForwardsValuesButNotTheCompletionAfterACancel() {
        let source = Source(), lines = SequenceLines()
        let subscriber = attach(source.tryMap { $0 * 2 }, lines: lines)
        subscriber.subscription?.cancel()
        source.send(1)
        source.send(completion: .finished)
        subscriber.subscription?.request(.max(3))
        #expect(lines.lines == ["downstream subscription", "downstream 2"])
        #expect(source.subscription.history == ["request unlimited", "cancel"])
    }

    /// OC `Publishers.Map.swift` (TryMap): a throw after the cancel still fails the stream
    /// (its catch path sends the failure whatever the state). Nothing passes after that failure:
    /// OC's value path would go on forwarding, which no subscriber may see after a completion.
    @Test func aTryMapThrowAfterACancelStillFailsTheStreamOnce() {
        let source = Source(), lines = SequenceLines()
        let subscriber = attach(source.tryMap { value -> Int in
            if value == 0 { throw TestFailure("zero") }
            return value
        }, lines: lines)
        subscriber.subscription?.cancel()
        source.send(0)
        source.send(1)
        #expect(lines.lines == ["downstream subscription", "downstream failure zero"])
    }

    /// OC `Publishers.TryScan`: values pass after a cancel, the completion does not.
    @Test func tryScanForwardsValuesButNotTheCompletionAfterACancel() {
        let source = Source(), lines = SequenceLines()
        let subscriber = attach(source.tryScan(0) { $0 + $1 }, lines: lines)
        subscriber.subscription?.cancel()
        source.send(1)
        source.send(2)
        source.send(completion: .finished)
        #expect(lines.lines == ["downstream subscription", "downstream 1", "downstream 3"])
    }

    /// OC `DropTests.testCancelAlreadyCancelled` and `testReusableSubscription`.
    @Test func dropFirstKeepsCountingAndForwardingAfterACancel() {
        let source = Source(), lines = SequenceLines()
        let subscriber = attach(source.dropFirst(), initialDemand: .max(2), lines: lines)
        subscriber.subscription?.cancel()
        subscriber.subscription?.request(.unlimited)
        subscriber.subscription?.cancel()
        source.send(1)
        source.send(2)
        source.send(completion: .finished)
        #expect(lines.lines == ["downstream subscription", "downstream 2", "downstream finished"])
        #expect(source.subscription.history == ["request max(3)", "cancel"])
    }

    /// OC `Publishers.Output`: values in range pass after a cancel; no completion follows.
    @Test func prefixForwardsTheValuesInRangeAfterACancelButNoCompletion() {
        let source = Source(), lines = SequenceLines()
        let subscriber = attach(source.prefix(2), lines: lines)
        subscriber.subscription?.cancel()
        source.send(1)
        source.send(2)
        source.send(3)
        source.send(completion: .finished)
        #expect(lines.lines == ["downstream subscription", "downstream 1", "downstream 2"])
        #expect(source.subscription.history == ["request unlimited", "cancel"])
    }

    /// OC `CollectByCountTests.testCancelThenFinish`.
    @Test func collectByCountDropsValuesButForwardsTheCompletionAfterACancel() {
        let source = Source(), lines = SequenceLines()
        let subscriber = attach(source.collect(4), lines: lines)
        source.send(1)
        subscriber.subscription?.cancel()
        source.send(2)
        source.send(completion: .finished)
        source.send(completion: .finished)
        #expect(lines.lines == ["downstream subscription", "downstream finished"])
    }

    /// OC `Publishers.Catch`: values pass after a cancel, the completion does not; a failure
    /// subscribes no replacement.
    @Test func catchForwardsValuesButNoCompletionAfterACancel() {
        let source = Source(), lines = SequenceLines()
        var replacements = 0
        let subscriber = attach(source.catch { _ -> Just<Int> in replacements += 1; return Just(0) }, lines: lines)
        subscriber.subscription?.cancel()
        source.send(5)
        source.send(completion: .failure(TestFailure("boom")))
        #expect(lines.lines == ["downstream subscription", "downstream 5"])
        #expect(replacements == 0)
    }

    /// OC `Publishers.HandleEvents` and `Publishers.Print`: forwarded after a cancel, with the
    /// closures already released.
    @Test func handleEventsAndPrintForwardAfterACancel() {
        let source = Source(), printed = Source(), lines = SequenceLines(), log = SequenceLines()
        var outputs = 0
        let handled = attach(source.handleEvents(receiveOutput: { _ in outputs += 1 }), lines: lines)
        let logged = attach(printed.print("p", to: log.append), lines: lines)
        handled.subscription?.cancel()
        logged.subscription?.cancel()
        source.send(1)
        source.send(completion: .finished)
        printed.send(2)
        printed.send(completion: .finished)
        #expect(outputs == 0)
        #expect(lines.lines == ["downstream subscription", "downstream subscription", "downstream 1", "downstream finished", "downstream 2", "downstream finished"])
        #expect(log.lines.suffix(3) == ["p: receive cancel", "p: receive value: (2)", "p: receive finished"])
    }

    /// OCF `Publishers.Merge`: values pass after a cancel, and `.finished` once every upstream
    /// has finished; a failure does not.
    @Test func mergeForwardsValuesAndTheLastFinishAfterACancel() {
        let a = Source(), b = Source(), c = Source(), d = Source(), lines = SequenceLines()
        let finishing = attach(a.merge(with: b), lines: lines)
        let failing = attach(c.merge(with: d), lines: lines)
        finishing.subscription?.cancel()
        failing.subscription?.cancel()
        a.send(1)
        a.send(completion: .finished)
        b.send(2)
        b.send(completion: .finished)
        c.send(completion: .failure(TestFailure("boom")))
        #expect(lines.lines == ["downstream subscription", "downstream subscription", "downstream 1", "downstream 2", "downstream finished"])
    }

    /// OC `Publishers.FlatMap`: an inner's values pass after a cancel.
    @Test func flatMapForwardsAnInnersValuesAfterACancel() {
        let outer = Source(), inner = Source(), lines = SequenceLines()
        let subscriber = attach(outer.flatMap { _ in inner }, lines: lines)
        outer.send(0)
        subscriber.subscription?.cancel()
        inner.send(7)
        inner.send(completion: .finished)
        #expect(lines.lines == ["downstream subscription", "downstream 7"])
        #expect(inner.subscription.history == ["request unlimited", "cancel"])
    }

    /// OCF `Publishers.CombineLatest`: values are dropped after a cancel, completions count.
    @Test func combineLatestDeliversOnlyCompletionsAfterACancel() {
        let a = Source(), b = Source(), lines = SequenceLines()
        let subscriber = attach(a.combineLatest(b), lines: lines)
        subscriber.subscription?.cancel()
        a.send(1)
        b.send(2)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(lines.lines == ["downstream subscription", "downstream finished"])
    }

    /// A reducer and a FilterProducer-based operator forward nothing after a cancel.
    @Test func reducersAndTryFilterForwardNothingAfterACancel() {
        let a = Source(), b = Source(), lines = SequenceLines()
        let collected = attach(a.collect(), lines: lines)
        let filtered = attach(b.tryFilter { _ in true }, lines: lines)
        collected.subscription?.cancel()
        filtered.subscription?.cancel()
        a.send(1)
        a.send(completion: .finished)
        b.send(1)
        b.send(completion: .finished)
        #expect(lines.lines == ["downstream subscription", "downstream subscription"])
    }
}

/// When `zip` hands downstream its subscription (OC `Publishers.Zip.swift`,
/// `receivedSubscription(for:)`).
@Suite struct ZipSubscriptionMomentTests {
    /// Downstream is subscribed inside the last upstream's `receive(subscription:)`, so its
    /// request reaches that upstream before the upstream's `receive(subscriber:)` returns.
    @Test func downstreamIsSubscribedInsideTheLastUpstreamsSubscription() {
        let a = SequenceTestSource<Int, TestFailure>()
        let b = SequenceTestSource<Int, TestFailure>()
        let lines = SequenceLines()
        let subscriber = SequenceLogSubscriber<(Int, Int), TestFailure>(initialDemand: .max(2), log: lines.append)
        defer { subscriber.subscription?.cancel() }
        let probe = SubscribeProbe(upstream: b) { lines.append("b subscribed") }
        a.zip(probe).subscribe(subscriber)
        #expect(lines.lines == ["downstream subscription", "b subscribed"])
        #expect(a.subscription.history == ["request max(2)"])
        #expect(b.subscription.history == ["request max(2)"])
    }

    /// An upstream that never delivers a subscription leaves downstream without one.
    @Test func anUpstreamWithoutASubscriptionLeavesDownstreamWithoutOne() {
        let a = SequenceTestSource<Int, TestFailure>()
        let silent = AnyPublisher<Int, TestFailure> { _ in }
        let lines = SequenceLines()
        a.zip(silent).subscribe(SequenceLogSubscriber<(Int, Int), TestFailure>(log: lines.append))
        #expect(lines.lines.isEmpty)
        #expect(a.subscription.history.isEmpty)
        a.send(completion: .failure(TestFailure())) // lets the zip go
    }

    /// An upstream that finishes before the last one has subscribed: the finish is held until
    /// the subscription has gone down, the subscriber's request goes nowhere, and the later
    /// upstream's subscription is cancelled.
    @Test func aFinishBeforeTheLastSubscriptionWaitsForIt() {
        let b = SequenceTestSource<Int, TestFailure>()
        let lines = SequenceLines()
        Empty<Int, TestFailure>().zip(b).subscribe(SequenceLogSubscriber<(Int, Int), TestFailure>(log: lines.append))
        #expect(lines.lines == ["downstream subscription", "downstream finished"])
        #expect(b.subscription.history == ["cancel"])
    }
}

/// Runs `after` once `upstream.receive(subscriber:)` has returned.
private struct SubscribeProbe<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure
    let upstream: Upstream
    let after: () -> Void

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.receive(subscriber: subscriber)
        after()
    }
}
