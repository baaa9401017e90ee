import Testing
@testable import Reactive

@Suite struct DropWhileTests {
    @Test func dropWhileSkipsUntilThePredicateFails() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b-a-c-|").drop(while: { $0 == "a" })) == "---b-a-c-|")
        let failing = Bench()
        #expect(failing.run(failing.hot("-a-#").drop(while: { $0 == "a" })) == "---#")
    }

    @Test func dropWhileAsksAgainForSkippedValuesAndPassesCancel() {
        let bench = Bench()
        #expect(bench.run(bench.cold("aab|").drop(while: { $0 == "a" }), initialDemand: .max(1)) == "--b|")
        let cancelled = Bench()
        let log = SubscriptionLog()
        #expect(cancelled.run(cancelled.hot("-a-b-|", log: log).drop(while: { $0 == "a" }), cancelAt: 2) == "")
        #expect(render(log) == ["^-!"])
    }

    @Test func tryDropWhileThrowCancelsUpstreamAndFails() {
        let bench = Bench()
        let log = SubscriptionLog()
        let pipeline = bench.hot("-a-b-c-|", log: log).tryDrop { value in
            if value == "b" { throw TestFailure("boom") }
            return true
        }
        #expect(bench.run(pipeline) == "---#{boom}")
        #expect(render(log) == ["^--!"])
        // Once dropping has stopped, the predicate is no longer consulted.
        let stopped = Bench()
        let later = stopped.hot("-a-b-c-|").tryDrop { value in
            if value == "c" { throw TestFailure("boom") }
            return value == "a"
        }
        #expect(stopped.run(later) == "---b-c-|")
    }
}
