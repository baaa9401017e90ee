import Testing
@testable import Reactive

@Suite struct FirstLastTests {
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

    @Test func lastEmitsAtUpstreamFinish() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b-|").last()) == "-----(b|)")
        let empty = Bench()
        #expect(empty.run(empty.hot("--|").last()) == "--|")
    }

    @Test func lastFailureDiscardsThePartialResult() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-#").last()) == "---#")
        // Even without demand, the failure goes at once.
        let idle = Bench()
        #expect(idle.run(idle.hot("-a-#").last(), initialDemand: .none) == "---#")
    }

    @Test func lastHoldsItsResultUntilDemand() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b-|").last(), initialDemand: .none, requests: [(8, .max(1))]) == "--------(b|)")
    }

    @Test func cancellingBeforeOrWhileHolding() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-|", log: log).last(), cancelAt: 2) == "")
        #expect(render(log) == ["^-!"])
        // Upstream has finished, the result waits for demand; a cancel discards it.
        let holding = Bench()
        #expect(holding.run(holding.hot("-a-|").last(), initialDemand: .none, cancelAt: 5, requests: [(7, .max(1))]) == "")
    }

    @Test func lastWhereAndTryLastWhere() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b-a-c-|").last(where: { $0 != "c" })) == "---------(a|)")
        let log = SubscriptionLog()
        let throwing = Bench()
        let pipeline = throwing.hot("-a-b-c-|", log: log).tryLast { value in
            if value == "b" { throw TestFailure("boom") }
            return true
        }
        #expect(throwing.run(pipeline) == "---#{boom}")
        #expect(render(log) == ["^--!"])
        let plain = Bench()
        #expect(plain.run(plain.hot("-a-b-|").tryLast(where: { $0 == "a" })) == "-----(a|)")
    }
}
