import Testing
@testable import Reactive

@Suite struct PrefixWhileTests {
    @Test func finishesOnTheFirstFailingValueWithoutEmittingIt() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-c-d-|", log: log).prefix(while: { $0 != "c" })) == "-a-b-|")
        #expect(render(log) == ["^----!"])
    }

    @Test func completionAndFailurePassThrough() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b-|").prefix(while: { _ in true })) == "-a-b-|")
        let failing = Bench()
        #expect(failing.run(failing.hot("-a-#").prefix(while: { _ in true })) == "-a-#")
    }

    @Test func cancellationAndDemand() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-c-|", log: log).prefix(while: { _ in true }), cancelAt: 2) == "-a")
        #expect(render(log) == ["^-!"])
        let limited = Bench()
        #expect(limited.run(limited.cold("abc|").prefix(while: { $0 != "c" }), initialDemand: .max(1), requests: [(4, .max(2))]) == "a---(b|)")
    }

    @Test func tryPrefixWhile() {
        let bench = Bench()
        let log = SubscriptionLog()
        let throwing = bench.hot("-a-b-c-|", log: log).tryPrefix { value in
            if value == "b" { throw TestFailure("boom") }
            return true
        }
        #expect(bench.run(throwing) == "-a-#{boom}")
        #expect(render(log) == ["^--!"])
        let ending = Bench()
        #expect(ending.run(ending.hot("-a-b-c-|").tryPrefix(while: { $0 != "b" })) == "-a-|")
        let failing = Bench()
        #expect(failing.run(failing.hot("-a-#").tryPrefix(while: { _ in true })) == "-a-#")
    }
}
