// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Testing
@testable import Reactive

@Suite struct DebounceTests {
    // Written with MarbleTesting: a marble for the source, the output and the subscription.
    @Test func emitsAfterAQuietPeriod() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b----c---|")
        scheduler.expect(source.debounce(for: 3, scheduler: scheduler.clock), "------b----c|")
        scheduler.expect(source.subscriptions, "^-----------!")
        scheduler.run()
    }
    @Test func completionDropsThePendingValue() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("-a-b|").debounce(for: 3, scheduler: scheduler.clock), "----|")
        scheduler.run()
    }

    @Test func failureDropsThePendingValue() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b#", values: [Character: String](), error: TestFailure())
        scheduler.expect(source.debounce(for: 3, scheduler: scheduler.clock), "----#", error: TestFailure())
        scheduler.run()
    }

    @Test func completionAndZeroDueTimeGoByHop() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, TestFailure>()
        let subscriber = TestSubscriber<String, TestFailure>(scheduler: scheduler)
        subject.debounce(for: 0, scheduler: scheduler).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 2) {
            subject.send("a")
            subject.send(completion: .finished)
            seenInline = subscriber.events.count
        }
        scheduler.run()
        #expect(seenInline == 0)
        // The value was pending when the completion came: dropped.
        #expect(trace(subscriber.events) == ["|@2"])
    }

    @Test func aCancelAfterUpstreamCompletedDoesNotStopTheCompletionHop() {
        // OpenCombine: once upstream has completed, cancel is a no-op.
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        subject.debounce(for: 2, scheduler: scheduler).subscribe(subscriber)
        scheduler.schedule(at: 1) {
            subject.send(completion: .finished)
            subscriber.cancel()
        }
        scheduler.run()
        #expect(trace(subscriber.events) == ["|@1"])
    }

    @Test func cancelDropsThePendingValue() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b-----|")
        scheduler.expect(source.debounce(for: 3, scheduler: scheduler.clock), "-", subscription: "^----!")
        scheduler.expect(source.subscriptions, "^----!")
        scheduler.run()
    }

    @Test func valuesDueWithoutDemandAreDropped() {
        let scheduler = TestScheduler()
        // `a` falls due at 3 with no demand: gone for good, the request at 6 does not bring it back.
        scheduler.expect(scheduler.hot("-a------b-----|").debounce(for: 2, scheduler: scheduler.clock), "----------b---|", demand: "------1")
        scheduler.run()
        let scheduler2 = TestScheduler()
        let recording = scheduler2.expect(scheduler2.hot("-a---b---|").debounce(for: 2, scheduler: scheduler2.clock), "---a-----|", demand: "1")
        scheduler2.run()
        #expect(recording.valuesWithoutDemand.isEmpty)
    }

    @Test func asksUpstreamForEverything() {
        let scheduler = TestScheduler()
        // A cold source sends only what is asked for: `c` (the third value) comes through with a
        // downstream demand of 2 because debounce asked for everything.
        let source = scheduler.cold("a--bc----|")
        scheduler.expect(source.debounce(for: 2, scheduler: scheduler.clock), "--a---c--|", demand: "2")
        scheduler.expect(source.requests, "*")
        scheduler.run()
    }
}

@Suite struct DebounceFastPathTests {
    @Test func aValueArrivingAtTheDeadlineReplacesThePendingOne() {
        // `b` at 3 is queued (by the playback) before `a`'s wait, which also ends at 3: `b` comes
        // first, replaces `a` and starts a new wait.
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b---|").debounce(for: 2, scheduler: bench.scheduler)) == "-----b-|")
    }

    @Test func aValueQueuedBeforeTheWaitForItsLastFrameReplacesThePendingOne() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = FrameRecorder<String, Never>(scheduler: scheduler)
        subject.debounce(for: 2, scheduler: scheduler).subscribe(recorder)
        // Queued up front, so before the waits that `a` (at 1, for 3) and `d` (at 9, for 11)
        // start: `b` and `e` run first in those frames and replace the pending value.
        scheduler.schedule(at: 3) { subject.send("b") }
        scheduler.schedule(at: 1) { subject.send("a") }
        scheduler.schedule(at: 9) { subject.send("d") }
        scheduler.schedule(at: 11) { subject.send("e") }
        scheduler.schedule(at: 20) { subject.send(completion: .finished) }
        scheduler.run()
        #expect(recorder.log == ["b@5", "e@13", "|@20"])
    }

    @Test func theWaitFiresBeforeAValueQueuedLaterForTheSameFrame() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = FrameRecorder<String, Never>(scheduler: scheduler)
        subject.debounce(for: 2, scheduler: scheduler).subscribe(recorder)
        scheduler.schedule(at: 1) {
            subject.send("a")
            scheduler.schedule(at: 3) { subject.send("c") }
        }
        scheduler.run()
        #expect(recorder.log == ["a@3", "c@5"])
        recorder.subscription?.cancel() // the subject never finishes: its conduit and the link hold each other
    }

    @Test func manyValuesInOneFrameAndAZeroWait() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = FrameRecorder<String, Never>(scheduler: scheduler)
        subject.debounce(for: 0, scheduler: scheduler).subscribe(recorder)
        scheduler.schedule(at: 2) {
            subject.send("a")
            subject.send("b")
            scheduler.schedule { recorder.log.append("hop@\(scheduler.currentFrame)") }
            subject.send("c")
        }
        scheduler.schedule(at: 4) { subject.send("d") }
        scheduler.run()
        // `c`'s wait was queued after the hop, so the hop runs first.
        #expect(recorder.log == ["hop@2", "c@2", "d@4"])
        recorder.subscription?.cancel() // the subject never finishes: its conduit and the link hold each other
    }

    @Test func aWaitRestartedManyTimesFiresOnceAtTheEnd() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = FrameRecorder<Int, Never>(scheduler: scheduler)
        subject.debounce(for: 5, scheduler: scheduler).subscribe(recorder)
        for frame in 1...50 { scheduler.schedule(at: frame) { subject.send(frame) } }
        scheduler.schedule(at: 100) { subject.send(100) }
        scheduler.run()
        #expect(recorder.log == ["50@55", "100@105"])
        #expect(!scheduler.hasPendingWork)
        #expect(scheduler.nextActionTime == nil)
        recorder.subscription?.cancel() // the subject never finishes: its conduit and the link hold each other
    }

    @Test func nextActionTimeSeesTheRestartedWait() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = FrameRecorder<Int, Never>(scheduler: scheduler)
        subject.debounce(for: 4, scheduler: scheduler).subscribe(recorder)
        scheduler.schedule(at: 1) { subject.send(1) }
        scheduler.schedule(at: 3) { subject.send(3) }
        scheduler.run(until: 3)
        #expect(scheduler.nextActionTime == 7)
        scheduler.run()
        #expect(recorder.log == ["3@7"])
        recorder.subscription?.cancel() // the subject never finishes: its conduit and the link hold each other
    }

    @Test func cancelWhileAWaitIsPendingAndAfterItWasRestarted() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = FrameRecorder<String, Never>(scheduler: scheduler)
        subject.debounce(for: 3, scheduler: scheduler).subscribe(recorder)
        scheduler.schedule(at: 1) { subject.send("a") }
        scheduler.schedule(at: 2) { subject.send("b") }
        scheduler.schedule(at: 3) { recorder.subscription?.cancel() }
        scheduler.schedule(at: 4) { subject.send("c") }
        scheduler.run()
        #expect(recorder.log.isEmpty)
        #expect(scheduler.nextActionTime == nil)
    }

    @Test func aLinkReleasedWhileAWaitIsPendingNeverFires() {
        // An upstream that sends one value at subscription and keeps nothing: once `subscribe`
        // returns nothing holds the link, and its pending wait must not run (the timer's action
        // does not keep the link alive; the link cancels it when it goes).
        let scheduler = VirtualTimeScheduler()
        let recorder = FrameRecorder<String, Never>(scheduler: scheduler, keepsSubscription: false)
        SendsOnceAndForgets(value: "a").debounce(for: 3, scheduler: scheduler).subscribe(recorder)
        #expect(scheduler.hasPendingWork)
        // Cancelled, so not reported as work due (the weak-self closure it replaces stayed live).
        #expect(scheduler.nextActionTime == nil)
        scheduler.run()
        #expect(recorder.log.isEmpty)
    }

    @Test func downstreamDroppingTheChainInsideReceiveIsSafe() {
        // The delivery cancels the subscription and forgets it: during the call the link is held
        // only by the running wait.
        let scheduler = VirtualTimeScheduler()
        let recorder = FrameRecorder<String, Never>(scheduler: scheduler)
        recorder.onValue = { recorder, _ in
            recorder.subscription?.cancel()
            recorder.subscription = nil
            return .max(5)
        }
        let subject = PassthroughSubject<String, Never>()
        subject.debounce(for: 2, scheduler: scheduler).subscribe(recorder)
        scheduler.schedule(at: 1) { subject.send("a") }
        scheduler.schedule(at: 4) { subject.send("b") }
        scheduler.run()
        #expect(recorder.log == ["a@3"])
    }

    @Test func limitedDemandCountsEveryEmission() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = FrameRecorder<Int, Never>(scheduler: scheduler, initialDemand: .max(2))
        subject.debounce(for: 1, scheduler: scheduler).subscribe(recorder)
        for frame in [1, 3, 5, 7] { scheduler.schedule(at: frame) { subject.send(frame) } }
        scheduler.schedule(at: 7) { recorder.subscription?.request(.max(1)) }
        scheduler.run()
        // 1 and 3 use the demand; 5 falls due with none and is dropped; 7 uses the late request.
        #expect(recorder.log == ["1@2", "3@4", "7@8"])
        recorder.subscription?.cancel() // the subject never finishes: its conduit and the link hold each other
    }
}
#endif
