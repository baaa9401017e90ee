// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Testing
@testable import Reactive

@Suite struct CollectByTimeTests {
    @Test func emitsEachNonEmptyWindow() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-ab-c------d|")
        // Windows end at 3, 6, 9, 12; the one at 9 is empty and emits nothing.
        scheduler.expect(source.collect(.byTime(scheduler.clock, 3)), "---x--y-----(z|)", values: ["x": ["a", "b"], "y": ["c"], "z": ["d"]])
        scheduler.expect(source.subscriptions, "^-----------!")
        scheduler.run()
    }

    /// CombineX `CollectByTimeSpec` 1.1 and 1.2 (interval 2 s = 2 frames).
    @Test func combineXByTime() {
        for finishes in [false, true] {
            let scheduler = VirtualTimeScheduler()
            let subject = PassthroughSubject<Int, TestFailure>()
            let subscriber = TestSubscriber<[Int], TestFailure>(scheduler: scheduler)
            subject.collect(.byTime(scheduler, 2)).subscribe(subscriber)
            subject.send(1)
            subject.send(2)
            scheduler.schedule(at: 2) { for value in 3...5 { subject.send(value) } }
            scheduler.schedule(at: 3) { subject.send(completion: finishes ? .finished : .failure(TestFailure())) }
            scheduler.run()
            #expect(trace(subscriber.events) == (finishes ? ["1,2@2", "3,4,5@3", "|@3"] : ["1,2@2", "#@3"]))
        }
    }

    /// CombineX `CollectByTimeSpec` 1.3 (interval 2 frames, count 2).
    @Test func combineXByTimeOrCount() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, TestFailure>()
        let subscriber = TestSubscriber<[Int], TestFailure>(scheduler: scheduler)
        subject.collect(.byTimeOrCount(scheduler, 2, 2)).subscribe(subscriber)
        for value in 1...3 { subject.send(value) }
        scheduler.schedule(at: 2) { for value in 4...8 { subject.send(value) } }
        scheduler.schedule(at: 4) { subject.send(completion: .finished) }
        scheduler.run()
        #expect(trace(subscriber.events) == ["1,2@0", "3@2", "4,5@2", "6,7@2", "8@4", "|@4"])
    }

    @Test func failureDiscardsTheBuffer() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.failingHot("-ab-c#").collect(.byTime(scheduler.clock, 3)), "---x-#", values: ["x": ["a", "b"]], error: TestFailure())
        scheduler.expect(scheduler.failingHot("-abc#").collect(.byTimeOrCount(scheduler.clock, 9, 2)), "--x-#", values: ["x": ["a", "b"]], error: TestFailure())
        scheduler.run()
    }

    @Test func valuesAndCompletionGoByHop() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, TestFailure>()
        let subscriber = TestSubscriber<[String], TestFailure>(scheduler: scheduler)
        subject.collect(.byTimeOrCount(scheduler, 10, 2)).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 1) {
            subject.send("a")
            subject.send("b")
            subject.send("c")
            subject.send(completion: .finished)
            seenInline = subscriber.events.count
        }
        scheduler.run()
        #expect(seenInline == 0)
        #expect(trace(subscriber.events) == ["ab@1", "c@1", "|@1"])
    }

    @Test func byTimeTicksNeedDemandAndTheBufferCarriesOver() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a--b--c--|")
        let arrays: [Character: [String]] = ["x": ["a"], "y": ["b", "c"]]
        // No demand at 6 or 9: `b` and `c` wait; the final flush ignores demand.
        scheduler.expect(source.collect(.byTime(scheduler.clock, 3)), "---x------(y|)", values: arrays, demand: "1")
        scheduler.expect(source.collect(.byTime(scheduler.clock, 3)), "---x-----y|", values: arrays, demand: "1-------1")
        scheduler.run()
    }

    @Test func byTimeAsksUpstreamForOneAtATime() {
        let scheduler = TestScheduler()
        // A cold source only sends what is asked: one per request plus one per value, i.e. everything.
        scheduler.expect(scheduler.cold("abc|").collect(.byTime(scheduler.clock, 2)), "--x(y|)", values: ["x": ["a", "b"], "y": ["c"]], demand: "1")
        scheduler.run()
    }

    @Test func byTimeOrCountAsksUpstreamForDemandTimesCount() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("abcde|")
        scheduler.expect(source.collect(.byTimeOrCount(scheduler.clock, 10, 2)), "-x---y", values: ["x": ["a", "b"], "y": ["c", "d"]], demand: "1----1")
        // 2 values asked at first, 2 more at 5; `e` is never asked for.
        scheduler.expect(source.requests, "2----2")
        scheduler.run(until: 30)
    }

    /// Subscribes to `publisher` asking for one array, and one more after each array received.
    private func oneMorePerArray<P: Publisher>(_ publisher: P, scheduler: VirtualTimeScheduler, until deadline: Int) -> [String] where P.Output == [String] {
        var received: [String] = []
        var subscription: (any Subscription)?
        // Cancelled and let go at the end: a source that never finishes and the collect hold each
        // other, and the subscription holds the closures that keep it.
        defer { subscription?.cancel(); subscription = nil }
        publisher.subscribe(AnySubscriber<[String], P.Failure>(
            receiveSubscription: { subscription = $0; $0.request(.max(1)) },
            receiveValue: { array in
                received.append(array.joined() + "@\(scheduler.currentFrame)")
                return .max(1)
            },
            receiveCompletion: { _ in received.append("|@\(scheduler.currentFrame)") }))
        scheduler.run(until: deadline)
        return received
    }

    @Test func byTimeOrCountPassesDemandFromAFullArrayTimesCount() {
        let scheduler = VirtualTimeScheduler()
        let source = ColdTimeline(timeline("abcdef|"), scheduler: scheduler)
        #expect(oneMorePerArray(source.collect(.byTimeOrCount(scheduler, 10, 2)), scheduler: scheduler, until: 30)
                == ["ab@1", "cd@3", "ef@5", "|@6"])
    }

    @Test func byTimeOrCountIgnoresDemandFromATickArray() {
        // CombineX `VersioningCollectByTimeSpec` (iOS 13.3+ records `[max(4), max(2)]`): the
        // `.max(1)` returned for `a` and for `b` (tick arrays) never reaches upstream, so `c` and
        // `d` stay in the cold source.
        let scheduler = VirtualTimeScheduler()
        let source = ColdTimeline(timeline("a---bcd|"), scheduler: scheduler)
        #expect(oneMorePerArray(source.collect(.byTimeOrCount(scheduler, 2, 2)), scheduler: scheduler, until: 20)
                == ["a@2", "b@6"])
    }

    @Test func aFullArrayLeavingEarlyKeepsTheWindowPhase() {
        let scheduler = TestScheduler()
        // heckj `ReducingOperatorTests.testCollectByTimeOrCount` (measured on Apple's Combine):
        // count reached at 2 → the next tick is still at 4, the one due from the subscription.
        scheduler.expect(scheduler.hot("-ab-c---|").collect(.byTimeOrCount(scheduler.clock, 4, 2)), "--x-y---|", values: ["x": ["a", "b"], "y": ["c"]])
        scheduler.run()
    }

    @Test func cancelStopsTheWindowsAndDropsAQueuedArray() {
        let testScheduler = TestScheduler()
        let source = testScheduler.hot("-a-b---")
        testScheduler.expect(source.collect(.byTime(testScheduler.clock, 5)), "-", subscription: "^---!")
        testScheduler.expect(source.subscriptions, "^---!")
        // Stopped at the cancel: the window due at 5 must be gone already.
        testScheduler.run(until: 4)
        #expect(testScheduler.clock.nextActionTime == nil)

        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber2 = TestSubscriber<[String], Never>(scheduler: scheduler)
        subject.collect(.byTimeOrCount(scheduler, 5, 2)).subscribe(subscriber2)
        scheduler.schedule(at: 1) {
            subject.send("a")
            subject.send("b")
            subscriber2.cancel()
        }
        scheduler.run()
        #expect(subscriber2.events.isEmpty)
    }

    @Test func aTickComesBeforeSameFrameWorkQueuedAfterTheSubscription() {
        // Open point §11.3, pinned: the window timer keeps its place in the queue. A cold source's
        // events are queued after the subscription, so `a` at frame 3 misses the tick at 3.
        let bench = Bench()
        let cold = bench.subscriber(bench.cold("---a--|").collect(.byTime(bench.scheduler, 3)))
        #expect(trace(cold.events) == ["a@6", "|@6"])
        // A hot source's events were queued before the subscription: `a` makes the tick at 3.
        let bench2 = Bench()
        let hot = bench2.subscriber(bench2.hot("---a--|").collect(.byTime(bench2.scheduler, 3)))
        #expect(trace(hot.events) == ["a@3", "|@6"])
    }
}
#endif
