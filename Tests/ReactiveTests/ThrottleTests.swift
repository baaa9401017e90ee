// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
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
        defer { subscriber.cancel() } // the subject never finishes: its conduit and the throttle hold each other
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
        let scheduler = TestScheduler()
        let source = scheduler.hot("-(abc)-|")
        scheduler.expect(source.throttle(for: 3, scheduler: scheduler.clock, latest: true), "-c-|")
        scheduler.expect(source.throttle(for: 3, scheduler: scheduler.clock, latest: false), "-a-|")
        scheduler.run()
    }

    @Test func latestFalseStillSendsTheFirstValueAfterTheLastEmission() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-abc------|")
        scheduler.expect(source.throttle(for: 4, scheduler: scheduler.clock, latest: false), "-a---b----|")
        scheduler.expect(source.throttle(for: 4, scheduler: scheduler.clock, latest: true), "-a---c----|")
        scheduler.run()
    }

    @Test func completionWaitsForThePendingValue() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("-ab|").throttle(for: 4, scheduler: scheduler.clock, latest: true), "-a---(b|)")
        scheduler.run()
    }

    @Test func failureWaitsForThePendingValue() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.failingHot("-ab#").throttle(for: 4, scheduler: scheduler.clock, latest: true), "-a---(b#)", error: TestFailure())
        scheduler.run()
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
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("-a-b---c--|").throttle(for: 2, scheduler: scheduler.clock, latest: true), "-a-----c--|", demand: "1-----1")
        scheduler.run()
    }

    @Test func theDemandCheckComesBeforeTheLatestReplacement() {
        let scheduler = TestScheduler()
        // `b` takes the last unit of demand; `c` finds none, so it is dropped rather than replacing `b`.
        let recording = scheduler.expect(scheduler.hot("-abc-----|").throttle(for: 4, scheduler: scheduler.clock, latest: true), "-a---b---|", demand: "2")
        scheduler.run()
        #expect(recording.valuesWithoutDemand.isEmpty)
    }

    @Test func cancelDropsThePendingValue() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-ab-----|")
        scheduler.expect(source.throttle(for: 4, scheduler: scheduler.clock, latest: true), "-a", subscription: "^--!")
        scheduler.expect(source.subscriptions, "^--!")
        scheduler.run()
    }

    @Test func cancelAfterUpstreamCompletedStillDropsThePendingEmission() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("-ab|").throttle(for: 4, scheduler: scheduler.clock, latest: true), "-a", subscription: "^---!")
        scheduler.run()
    }
}
#endif
