// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Testing
@testable import Reactive

@Suite struct TimeoutTests {
    @Test func finishesNormallyWhenUpstreamStaysSilent() {
        let scheduler = TestScheduler()
        // OpenCombine `testBasicBehavior`: values at 10 and 11 with an interval of 13 → timeout at 24.
        let source = scheduler.hot("----------ab---------------|")
        scheduler.expect(source.timeout(13, scheduler: scheduler.clock), "----------ab------------|")
        scheduler.expect(source.subscriptions, "^" + String(repeating: "-", count: 23) + "!")
        scheduler.run()
    }

    @Test func failsWithTheCustomError() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.failingHot("-a------|").timeout(3, scheduler: scheduler.clock, customError: { TestFailure("timeout") }),
                         "-a--#{timeout}", errors: ["timeout": TestFailure("timeout")])
        scheduler.run()
    }

    @Test func valuesGoByHop() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        subject.timeout(5, scheduler: scheduler).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 1) {
            subject.send("a")
            seenInline = subscriber.events.count
        }
        scheduler.schedule(at: 2) { subject.send(completion: .finished) }
        scheduler.run()
        #expect(seenInline == 0)
        #expect(trace(subscriber.events) == ["a@1", "|@2"])
    }

    @Test func upstreamCompletionPassesAndStopsTheClock() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a|")
        scheduler.expect(source.timeout(5, scheduler: scheduler.clock), "-a|")
        scheduler.expect(source.subscriptions, "^-!")
        scheduler.expect(scheduler.failingHot("-a#").timeout(5, scheduler: scheduler.clock, customError: { TestFailure("timeout") }), "-a#", error: TestFailure())
        scheduler.run(until: 2)
        #expect(scheduler.clock.nextActionTime == nil)
    }

    @Test func theClockRestartsAtTheFirstRequest() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("---------|")
        scheduler.expect(source.timeout(3, scheduler: scheduler.clock), "-----|", demand: "--1")
        scheduler.expect(source.subscriptions, "^----!")
        // Only the first request restarts it.
        scheduler.expect(scheduler.hot("---------|").timeout(3, scheduler: scheduler.clock), "-----|", demand: "--1-1")
        scheduler.run()
    }

    @Test func cancelStopsEverything() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a---|")
        scheduler.expect(source.timeout(3, scheduler: scheduler.clock), "-a", subscription: "^-!")
        scheduler.expect(source.subscriptions, "^-!")
        scheduler.run(until: 2)
        // Only the source's own `|` at 5 is left: the timeout due at 4 went with the cancel.
        #expect(scheduler.clock.nextActionTime == 5)
    }

    @Test func cancelBeforeTheCompletionHopDropsIt() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        subject.timeout(5, scheduler: scheduler).subscribe(subscriber)
        scheduler.schedule(at: 1) {
            subject.send(completion: .finished)
            subscriber.cancel()
        }
        scheduler.run()
        #expect(subscriber.events.isEmpty)
    }
}
#endif
