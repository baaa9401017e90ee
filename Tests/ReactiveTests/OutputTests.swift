import Testing
@testable import Reactive

@Suite struct OutputTests {
    /// Disputed point, decided eager: `.finished` and the upstream cancel come right after the
    /// n-th value, at its frame — not when the next value arrives (frame 5 here).
    @Test func prefixFinishesRightAfterTheLastValue() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-c-|", log: log).prefix(2)) == "-a-(b|)")
        #expect(render(log) == ["^--!"])
    }

    @Test func prefixFinishesSynchronouslyInsideTheLastDelivery() {
        let lines = SequenceLines()
        let source = SequenceTestSource<Int, Never>()
        source.prefix(2).subscribe(SequenceLogSubscriber<Int, Never>(log: lines.append, demandFor: { _ in .max(7) }))
        #expect(source.send(1) == .max(7))
        // The demand returned by downstream still goes back, but the stream is over already.
        #expect(source.send(2) == .max(7))
        #expect(lines.lines == ["downstream subscription", "downstream 1", "downstream 2", "downstream finished"])
        #expect(source.subscription.history == ["request unlimited", "cancel"])
        #expect(source.send(3) == .none)
    }

    @Test func upstreamCompletionBeforeTheRangeEnds() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-|").prefix(3)) == "-a-|")
        let failing = Bench()
        #expect(failing.run(failing.hot("-a-#").prefix(3)) == "-a-#")
        let outside = Bench()
        #expect(outside.run(outside.hot("-a-|").output(at: 2)) == "---|")
    }

    @Test func prefixZeroFinishesOnTheFirstValue() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("--a-|", log: log).prefix(0)) == "--|")
        #expect(render(log) == ["^-!"])
    }

    @Test func outputAtAndInRanges() {
        let at = Bench()
        #expect(at.run(at.hot("-a-b-c-|").output(at: 1)) == "---(b|)")
        let halfOpen = Bench()
        #expect(halfOpen.run(halfOpen.hot("-a-b-c-d-|").output(in: 1..<3)) == "---b-(c|)")
        let closed = Bench()
        #expect(closed.run(closed.hot("-a-b-c-d-|").output(in: 1...2)) == "---b-(c|)")
        let upTo = Bench()
        #expect(upTo.run(upTo.hot("-a-b-c-|").output(in: ...1)) == "-a-(b|)")
        let from = Bench()
        #expect(from.run(from.hot("-a-b-c-|").output(in: 1...)) == "---b-c-|")
    }

    @Test func rangesTranslateLikeCombine() {
        let source = Empty<Int, Never>()
        #expect(source.prefix(3).range == 0..<3)
        #expect(source.output(at: 4).range == 4..<5)
        #expect(source.output(in: 2...5).range == 2..<6)
        #expect(source.output(in: 2...).range == 2..<Int.max)
    }

    @Test func skippedValuesAreAskedForAgainAndDemandPassesThrough() {
        let source = SequenceTestSource<Int, Never>()
        let subscriber = SequenceLogSubscriber<Int, Never>(initialDemand: .max(1), log: { _ in }, demandFor: { _ in .max(3) })
        source.output(in: 2..<5).subscribe(subscriber)
        #expect(source.send(0) == .max(1))
        #expect(source.send(1) == .max(1))
        #expect(source.send(2) == .max(3))
        subscriber.subscription?.request(.max(2))
        #expect(source.subscription.requests == [.max(1), .max(2)])

        let bench = Bench()
        let (events, checked) = bench.runKeepingSubscriber(bench.cold("abcd|").output(in: 2...3), initialDemand: .max(1), requests: [(6, .max(1))])
        #expect(events == "--c---(d|)")
        #expect(checked.valuesWithoutDemand.isEmpty)
    }

    @Test func cancellationReachesUpstream() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-c-|", log: log).prefix(5), cancelAt: 4) == "-a-b")
        #expect(render(log) == ["^---!"])
    }
}
