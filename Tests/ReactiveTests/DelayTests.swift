// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Testing
@testable import Reactive

@Suite struct DelayTests {
    @Test func shiftsValuesAndCompletion() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b--|")
        scheduler.expect(source.delay(for: 2, scheduler: scheduler.clock), "---a-b--|")
        scheduler.expect(source.subscriptions, "^-----!")
        scheduler.run()
    }

    @Test func failureIsDelayedToo() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.failingHot("-a#").delay(for: 3, scheduler: scheduler.clock), "----a#", error: TestFailure())
        scheduler.run()
    }

    @Test func equalDueTimesKeepArrivalOrder() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("-(ab)|").delay(for: 2, scheduler: scheduler.clock), "---(ab)|")
        scheduler.run()
    }

    @Test func cancelDropsUndeliveredValues() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b---|")
        scheduler.expect(source.delay(for: 3, scheduler: scheduler.clock), "----a", subscription: "^----!")
        scheduler.expect(source.subscriptions, "^----!")
        scheduler.run()
    }

    @Test func cancelAfterUpstreamCompletedIsANoOp() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a|")
        scheduler.expect(source.delay(for: 3, scheduler: scheduler.clock), "----a|", subscription: "^--!")
        scheduler.expect(source.subscriptions, "^-!")
        scheduler.run()
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
#endif
