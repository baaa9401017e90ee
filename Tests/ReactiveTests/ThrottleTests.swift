import MarbleTesting
import Testing
@testable import Reactive

@Suite struct ThrottleTests {
    /// heckj/swiftui-notes `DebounceAndThrottleTests`, measured on iOS 14.1–14.4: a `@Published`
    /// seeded with -1, throttled by 500 ms; one frame here is 100 ms.
    private func measuredRun(latest: Bool, sends: [(Int, Int)]) -> [String] {
        let scheduler = VirtualTimeScheduler()
        let published = CurrentValueSubject<Int, Never>(-1)
        let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
        published.throttle(for: 5, scheduler: scheduler, latest: latest).subscribe(subscriber)
        for (time, value) in sends { scheduler.schedule(at: time) { published.value = value } }
        scheduler.run()
        return trace(subscriber.events)
    }

    @Test func measuredIOS14LatestFalse() {
        #expect(measuredRun(latest: false, sends: [(1, 1), (2, 2), (6, 3), (7, 4), (9, 5), (13, 6)])
                == ["-1@0", "1@5", "3@10", "6@15"])
    }

    @Test func measuredIOS14LatestTrue() {
        #expect(measuredRun(latest: true, sends: [(1, 1), (2, 2), (6, 3), (7, 4), (9, 5), (12, 6)])
                == ["-1@0", "2@5", "5@10", "6@15"])
    }

    @Test func sameInstantValuesCollapse() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-(abc)-|").throttle(for: 3, scheduler: bench.scheduler, latest: true)) == "-c-|")
        let bench2 = Bench()
        #expect(bench2.run(bench2.hot("-(abc)-|").throttle(for: 3, scheduler: bench2.scheduler, latest: false)) == "-a-|")
    }

    @Test func latestFalseStillSendsTheFirstValueAfterTheLastEmission() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-abc------|").throttle(for: 4, scheduler: bench.scheduler, latest: false)) == "-a---b----|")
        let bench2 = Bench()
        #expect(bench2.run(bench2.hot("-abc------|").throttle(for: 4, scheduler: bench2.scheduler, latest: true)) == "-a---c----|")
    }

    @Test func completionWaitsForThePendingValue() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-ab|").throttle(for: 4, scheduler: bench.scheduler, latest: true)) == "-a---(b|)")
    }

    @Test func failureWaitsForThePendingValue() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-ab#").throttle(for: 4, scheduler: bench.scheduler, latest: true)) == "-a---(b#)")
    }

    @Test func completionWithNothingPendingGoesByHop() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, TestFailure>()
        let subscriber = TestSubscriber<String, TestFailure>(scheduler: scheduler)
        subject.throttle(for: 3, scheduler: scheduler, latest: false).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 2) {
            subject.send(completion: .failure(TestFailure()))
            seenInline = subscriber.events.count
        }
        scheduler.run()
        #expect(seenInline == 0)
        #expect(trace(subscriber.events) == ["#@2"])
    }

    @Test func valuesWithoutDemandAreDropped() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b---c--|").throttle(for: 2, scheduler: bench.scheduler, latest: true),
                          initialDemand: .max(1), requests: [(6, .max(1))]) == "-a-----c--|")
    }

    @Test func theDemandCheckComesBeforeTheLatestReplacement() {
        let bench = Bench()
        // `b` takes the last unit of demand; `c` finds none, so it is dropped rather than replacing `b`.
        let subscriber = bench.subscriber(bench.hot("-abc-----|").throttle(for: 4, scheduler: bench.scheduler, latest: true), initialDemand: .max(2))
        #expect(trace(subscriber.events) == ["a@1", "b@5", "|@9"])
        #expect(subscriber.valuesWithoutDemand.isEmpty)
    }

    @Test func cancelDropsThePendingValue() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-ab-----|", log: log).throttle(for: 4, scheduler: bench.scheduler, latest: true), cancelAt: 3) == "-a")
        #expect(render(log) == ["^--!"])
    }

    @Test func cancelAfterUpstreamCompletedStillDropsThePendingEmission() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-ab|").throttle(for: 4, scheduler: bench.scheduler, latest: true), cancelAt: 4) == "-a")
    }
}
