import Testing
@testable import Reactive

@Suite struct DropFirstTests {
    @Test func dropFirstSkipsTheFirstValues() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b-c-|").dropFirst()) == "---b-c-|")
        let two = Bench()
        #expect(two.run(two.hot("-a-b-c-|").dropFirst(2)) == "-----c-|")
        let none = Bench()
        #expect(none.run(none.hot("-a-b-|").dropFirst(0)) == "-a-b-|")
    }

    @Test func dropFirstFailureAndCancellation() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-#").dropFirst()) == "---#")
        let cancelled = Bench()
        let log = SubscriptionLog()
        #expect(cancelled.run(cancelled.hot("-a-b-c-|", log: log).dropFirst(), cancelAt: 4) == "---b")
        #expect(render(log) == ["^---!"])
    }

    @Test func dropFirstAsksUpstreamForDemandPlusCount() {
        let source = SequenceTestSource<Int, Never>()
        let subscriber = SequenceLogSubscriber<Int, Never>(initialDemand: .max(3), log: { _ in })
        source.dropFirst(2).subscribe(subscriber)
        #expect(source.subscription.requests == [.max(5)])
        // The skipped values cost nothing: they return no new demand.
        #expect(source.send(1) == .none)
        #expect(source.send(2) == .none)
        subscriber.subscription?.request(.max(4))
        #expect(source.subscription.requests == [.max(5), .max(4)])

        let idle = SequenceTestSource<Int, Never>()
        idle.dropFirst().subscribe(SequenceLogSubscriber<Int, Never>(initialDemand: .none, log: { _ in }))
        #expect(idle.subscription.requests == [.max(1)])

        let unlimited = SequenceTestSource<Int, Never>()
        unlimited.dropFirst(3).subscribe(SequenceLogSubscriber<Int, Never>(log: { _ in }))
        #expect(unlimited.subscription.requests == [.unlimited])
    }

    @Test func dropFirstOnAColdSourceWithLimitedDemand() {
        let bench = Bench()
        let (events, subscriber) = bench.runKeepingSubscriber(bench.cold("abcd|").dropFirst(2), initialDemand: .max(1), requests: [(6, .max(1))])
        #expect(events == "--c---(d|)")
        #expect(subscriber.valuesWithoutDemand.isEmpty)
    }

    @Test func dropFirstGivesDownstreamItsSubscriptionBeforeSubscribingUpstream() {
        let lines = SequenceLines()
        let source = SequenceTestSource<Int, Never>()
        let upstream = source.handleEvents(receiveSubscription: { _ in lines.append("upstream subscribed") })
        upstream.dropFirst().subscribe(SequenceLogSubscriber<Int, Never>(initialDemand: .max(1), log: lines.append))
        #expect(lines.lines == ["downstream subscription", "upstream subscribed"])
        #expect(source.subscription.requests == [.max(2)])
        source.send(completion: .finished) // never finished, the chain would hold itself
    }
}
