import MarbleTesting
import Testing
@testable import Reactive

@Suite struct DelayTests {
    @Test func shiftsValuesAndCompletion() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b--|", log: log).delay(for: 2, scheduler: bench.scheduler)) == "---a-b--|")
        #expect(render(log) == ["^-----!"])
    }

    @Test func failureIsDelayedToo() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a#").delay(for: 3, scheduler: bench.scheduler)) == "----a#")
    }

    @Test func equalDueTimesKeepArrivalOrder() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-(ab)|").delay(for: 2, scheduler: bench.scheduler)) == "---(ab)|")
    }

    @Test func cancelDropsUndeliveredValues() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b---|", log: log).delay(for: 3, scheduler: bench.scheduler), cancelAt: 5) == "----a")
        #expect(render(log) == ["^----!"])
    }

    @Test func cancelAfterUpstreamCompletedIsANoOp() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a|", log: log).delay(for: 3, scheduler: bench.scheduler), cancelAt: 3) == "----a|")
        #expect(render(log) == ["^-!"])
    }

    @Test func demandReturnedByDownstreamIsAskedOfUpstreamAfterDelivery() {
        let scheduler = VirtualTimeScheduler()
        var received: [String] = []
        let subscriber = AnySubscriber<String, TestFailure>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { value in
                received.append("\(value)@\(scheduler.currentFrame)")
                return .max(1)
            })
        ColdTimeline(timeline("abc|"), scheduler: scheduler).delay(for: 2, scheduler: scheduler).subscribe(subscriber)
        scheduler.run()
        // Each value unlocks the next one only when it is delivered, 2 frames after it left.
        #expect(received == ["a@2", "b@4", "c@6"])
    }
}
