import Testing
@testable import Reactive

@Suite struct FirstTests {
    @Test func firstCancelsUpstreamAndFinishesOnTheFirstValue() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-|", log: log).first()) == "-(a|)")
        #expect(render(log) == ["^!"])
    }

    @Test func firstOfAnEmptyUpstreamJustFinishes() {
        let bench = Bench()
        #expect(bench.run(bench.hot("---|").first()) == "---|")
        let failing = Bench()
        #expect(failing.run(failing.hot("--#").first()) == "--#")
    }

    @Test func firstHoldsTheValueUntilDemandButCancelsUpstreamAtOnce() {
        let bench = Bench()
        let log = SubscriptionLog()
        let (events, subscriber) = bench.runKeepingSubscriber(bench.hot("-a-b-|", log: log).first(), initialDemand: .none, requests: [(4, .max(1))])
        #expect(events == "----(a|)")
        #expect(render(log) == ["^!"])
        #expect(subscriber.valuesWithoutDemand.isEmpty)
    }

    @Test func reducersAskUpstreamForEverything() {
        let source = SequenceTestSource<Int, Never>()
        source.first().subscribe(SequenceLogSubscriber<Int, Never>(initialDemand: .none, log: { _ in }))
        #expect(source.subscription.requests == [.unlimited])
        let last = SequenceTestSource<Int, Never>()
        last.last().subscribe(SequenceLogSubscriber<Int, Never>(initialDemand: .max(1), log: { _ in }))
        #expect(last.subscription.requests == [.unlimited])
    }

    @Test func firstWhere() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-c-|", log: log).first(where: { $0 == "b" })) == "---(b|)")
        #expect(render(log) == ["^--!"])
        let none = Bench()
        #expect(none.run(none.hot("-a-c-|").first(where: { $0 == "b" })) == "-----|")
    }

    @Test func tryFirstWhere() {
        let bench = Bench()
        let log = SubscriptionLog()
        let throwing = bench.hot("-a-b-c-|", log: log).tryFirst { value in
            if value == "b" { throw TestFailure("boom") }
            return false
        }
        #expect(bench.run(throwing) == "---#{boom}")
        #expect(render(log) == ["^--!"])
        let matching = Bench()
        #expect(matching.run(matching.hot("-a-b-|").tryFirst(where: { $0 == "b" })) == "---(b|)")
    }
}
