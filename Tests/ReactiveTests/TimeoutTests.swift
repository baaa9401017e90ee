import MarbleTesting
import Testing
@testable import Reactive

@Suite struct TimeoutTests {
    @Test func finishesNormallyWhenUpstreamStaysSilent() {
        let bench = Bench()
        let log = SubscriptionLog()
        // OpenCombine `testBasicBehavior`: values at 10 and 11 with an interval of 13 → timeout at 24.
        #expect(bench.run(bench.hot("----------ab---------------|", log: log).timeout(13, scheduler: bench.scheduler))
                == "----------ab------------|")
        #expect(render(log) == ["^" + String(repeating: "-", count: 23) + "!"])
    }

    @Test func failsWithTheCustomError() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a------|").timeout(3, scheduler: bench.scheduler, customError: { TestFailure("timeout") })) == "-a--#{timeout}")
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
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a|", log: log).timeout(5, scheduler: bench.scheduler)) == "-a|")
        #expect(render(log) == ["^-!"])
        #expect(!bench.scheduler.hasPendingWork)
        let bench2 = Bench()
        #expect(bench2.run(bench2.hot("-a#").timeout(5, scheduler: bench2.scheduler, customError: { TestFailure("timeout") })) == "-a#")
    }

    @Test func theClockRestartsAtTheFirstRequest() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("---------|", log: log).timeout(3, scheduler: bench.scheduler), initialDemand: .none, requests: [(2, .max(1))]) == "-----|")
        #expect(render(log) == ["^----!"])
        let bench2 = Bench()
        // Only the first request restarts it.
        #expect(bench2.run(bench2.hot("---------|").timeout(3, scheduler: bench2.scheduler), initialDemand: .none,
                           requests: [(2, .max(1)), (4, .max(1))]) == "-----|")
    }

    @Test func cancelStopsEverything() {
        let bench = Bench()
        let log = SubscriptionLog()
        let subscriber = bench.subscriber(bench.hot("-a---|", log: log).timeout(3, scheduler: bench.scheduler), cancelAt: 2)
        #expect(trace(subscriber.events) == ["a@1"])
        #expect(render(log) == ["^-!"])
        #expect(!bench.scheduler.hasPendingWork)
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
