import Testing
@testable import Reactive

@Suite struct LastTests {
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
