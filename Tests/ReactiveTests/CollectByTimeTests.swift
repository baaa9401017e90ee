import MarbleTesting
import Testing
@testable import Reactive

@Suite struct CollectByTimeTests {
    @Test func emitsEachNonEmptyWindow() {
        let bench = Bench()
        let log = SubscriptionLog()
        let subscriber = bench.subscriber(bench.hot("-ab-c------d|", log: log).collect(.byTime(bench.scheduler, 3)))
        // Windows end at 3, 6, 9, 12; the ones at 6 and 9 are empty and emit nothing.
        #expect(trace(subscriber.events) == ["ab@3", "c@6", "d@12", "|@12"])
        #expect(render(log) == ["^-----------!"])
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
        let bench = Bench()
        let subscriber = bench.subscriber(bench.hot("-ab-c#").collect(.byTime(bench.scheduler, 3)))
        #expect(trace(subscriber.events) == ["ab@3", "#@5"])
        let bench2 = Bench()
        let subscriber2 = bench2.subscriber(bench2.hot("-abc#").collect(.byTimeOrCount(bench2.scheduler, 9, 2)))
        #expect(trace(subscriber2.events) == ["ab@2", "#@4"])
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
        let bench = Bench()
        let subscriber = bench.subscriber(bench.hot("-a--b--c--|").collect(.byTime(bench.scheduler, 3)), initialDemand: .max(1))
        // No demand at 6 or 9: `b` and `c` wait; the final flush ignores demand.
        #expect(trace(subscriber.events) == ["a@3", "bc@10", "|@10"])
        let bench2 = Bench()
        let subscriber2 = bench2.subscriber(bench2.hot("-a--b--c--|").collect(.byTime(bench2.scheduler, 3)), initialDemand: .max(1), requests: [(8, .max(1))])
        #expect(trace(subscriber2.events) == ["a@3", "bc@9", "|@10"])
    }

    @Test func byTimeAsksUpstreamForOneAtATime() {
        let bench = Bench()
        // A cold source only sends what is asked: one per request plus one per value, i.e. everything.
        let subscriber = bench.subscriber(bench.cold("abc|").collect(.byTime(bench.scheduler, 2)), initialDemand: .max(1))
        #expect(trace(subscriber.events) == ["ab@2", "c@3", "|@3"])
    }

    @Test func byTimeOrCountAsksUpstreamForDemandTimesCount() {
        let bench = Bench()
        let subscriber = bench.subscriber(bench.cold("abcde|").collect(.byTimeOrCount(bench.scheduler, 10, 2)),
                                          initialDemand: .max(1), requests: [(5, .max(1))], until: 30)
        // 2 values asked at first, 2 more at 5; `e` is never asked for.
        #expect(trace(subscriber.events) == ["ab@1", "cd@5"])
    }

    /// Subscribes to `publisher` asking for one array, and one more after each array received.
    private func oneMorePerArray<P: Publisher>(_ publisher: P, scheduler: VirtualTimeScheduler, until deadline: Int) -> [String] where P.Output == [String] {
        var received: [String] = []
        publisher.subscribe(AnySubscriber<[String], P.Failure>(
            receiveSubscription: { $0.request(.max(1)) },
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
        let bench = Bench()
        // heckj `ReducingOperatorTests.testCollectByTimeOrCount` (measured on Apple's Combine):
        // count reached at 2 → the next tick is still at 4, the one due from the subscription.
        let subscriber = bench.subscriber(bench.hot("-ab-c---|").collect(.byTimeOrCount(bench.scheduler, 4, 2)))
        #expect(trace(subscriber.events) == ["ab@2", "c@4", "|@8"])
    }

    @Test func cancelStopsTheWindowsAndDropsAQueuedArray() {
        let bench = Bench()
        let log = SubscriptionLog()
        let subscriber = bench.subscriber(bench.hot("-a-b---", log: log).collect(.byTime(bench.scheduler, 5)), cancelAt: 4)
        #expect(subscriber.events.isEmpty)
        #expect(render(log) == ["^---!"])
        #expect(!bench.scheduler.hasPendingWork)

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
