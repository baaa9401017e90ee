import Testing
@testable import Reactive

@Suite struct HandleEventsTests {
    private func logged(_ source: SequenceTestSource<Int, TestFailure>, _ lines: SequenceLines) -> Publishers.HandleEvents<SequenceTestSource<Int, TestFailure>> {
        source.handleEvents(
            receiveSubscription: { _ in lines.append("receiveSubscription") },
            receiveOutput: { lines.append("receiveOutput \($0)") },
            receiveCompletion: { lines.append("receiveCompletion \($0)") },
            receiveCancel: { lines.append("receiveCancel") },
            receiveRequest: { lines.append("receiveRequest \($0)") }
        )
    }

    @Test func closuresRunBeforeForwarding() {
        let lines = SequenceLines()
        let source = SequenceTestSource<Int, TestFailure>()
        logged(source, lines).subscribe(SequenceLogSubscriber<Int, TestFailure>(initialDemand: .max(1), log: lines.append, demandFor: { $0 == 1 ? .max(2) : .none }))
        source.send(1)
        source.send(2)
        source.send(completion: .finished)
        #expect(lines.lines == [
            "receiveSubscription", "downstream subscription", "receiveRequest max(1)",
            "receiveOutput 1", "downstream 1", "receiveRequest max(2)",
            "receiveOutput 2", "downstream 2",
            "receiveCompletion finished", "downstream finished",
        ])
        #expect(source.subscription.requests == [.max(1)])
    }

    @Test func cancelRunsBeforeTheUpstreamCancelAndReleasesTheClosures() {
        let lines = SequenceLines()
        let source = SequenceTestSource<Int, TestFailure>()
        let subscriber = SequenceLogSubscriber<Int, TestFailure>(initialDemand: .none, log: lines.append)
        logged(source, lines).handleEvents(receiveCancel: { lines.append("upstream cancel: \(source.subscription.isCancelled)") }).subscribe(subscriber)
        subscriber.subscription?.cancel()
        subscriber.subscription?.cancel()
        subscriber.subscription?.request(.max(1))
        #expect(lines.lines == ["receiveSubscription", "downstream subscription", "upstream cancel: false", "receiveCancel"])
        #expect(source.subscription.history == ["cancel"])
    }

    @Test func noClosureRunsAfterTheCompletion() {
        let lines = SequenceLines()
        let source = SequenceTestSource<Int, TestFailure>()
        let subscriber = SequenceLogSubscriber<Int, TestFailure>(initialDemand: .none, log: lines.append)
        logged(source, lines).subscribe(subscriber)
        source.send(completion: .failure(TestFailure("x")))
        subscriber.subscription?.cancel()
        source.send(3)
        #expect(lines.lines == ["receiveSubscription", "downstream subscription", "receiveCompletion failure(x)", "downstream failure x"])
    }

    @Test func isTransparentInTime() {
        let bench = Bench()
        let log = SubscriptionLog()
        var seen: [String] = []
        let pipeline = bench.hot("-a-b-c-|", log: log).handleEvents(receiveOutput: { seen.append($0) })
        #expect(bench.run(pipeline, cancelAt: 4) == "-a-b")
        #expect(render(log) == ["^---!"])
        #expect(seen == ["a", "b"])
    }
}

@Suite struct PrintTests {
    @Test func printsCombinesLines() {
        let lines = SequenceLines()
        _ = Just("x").print("p", to: lines.append).sink { _ in }
        #expect(lines.lines == ["p: receive subscription: (Just)", "p: request unlimited", "p: receive value: (x)", "p: receive finished"])
    }

    @Test func withoutPrefixErrorsAndCancel() {
        let lines = SequenceLines()
        let source = SequenceTestSource<Int, TestFailure>()
        let subscriber = SequenceLogSubscriber<Int, TestFailure>(initialDemand: .max(1), log: { _ in }, demandFor: { $0 == 1 ? .max(2) : .none })
        source.print(to: lines.append).subscribe(subscriber)
        source.send(1)
        source.send(2)
        source.send(completion: .failure(TestFailure("bad")))
        subscriber.subscription?.cancel()
        #expect(lines.lines == [
            "receive subscription: (Probe)",
            "request max: (1)",
            "receive value: (1)",
            "request max: (2) (synchronous)",
            "receive value: (2)",
            "receive error: (bad)",
            "receive cancel",
        ])
    }

    @Test func unlimitedSynchronousDemandAndCancel() {
        let lines = SequenceLines()
        let source = SequenceTestSource<Int, Never>()
        let subscriber = SequenceLogSubscriber<Int, Never>(initialDemand: .max(3), log: { _ in }, demandFor: { _ in .unlimited })
        source.print("q", to: lines.append).subscribe(subscriber)
        source.send(7)
        subscriber.subscription?.cancel()
        #expect(lines.lines == ["q: receive subscription: (Probe)", "q: request max: (3)", "q: receive value: (7)", "q: request unlimited (synchronous)", "q: receive cancel"])
        #expect(source.subscription.history == ["request max(3)", "cancel"])
    }

    @Test func namesSubscriptionsAfterTheirOperator() {
        let lines = SequenceLines()
        _ = [1, 2].publisher.dropFirst().print(to: lines.append).sink { _ in }
        #expect(lines.first == "receive subscription: (Drop)")
    }

    /// `map` hands the upstream subscription straight through, so `print` names the source
    /// (OpenCombine `MapTests.testRange`: `.subscription("PassthroughSubject")`).
    @Test func namesTheSourceThroughAPassThroughOperator() {
        let lines = SequenceLines()
        let subject = PassthroughSubject<Int, Never>()
        _ = subject.map { $0 }.filter { _ in true }.print(to: lines.append).sink { _ in }
        #expect(lines.first == "receive subscription: (PassthroughSubject)")
    }
}

private extension SequenceLines {
    var first: String? { lines.first }
}
