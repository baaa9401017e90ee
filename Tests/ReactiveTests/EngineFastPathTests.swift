import Testing
@testable import Reactive

/// Behaviour pinned around the engine's per-event fast paths: merge's unlimited-demand path
/// (no slots touched), debounce's single re-armed timer (no allocation per value), and the
/// action queue moving payloads. These tests hold for the straightforward implementations too
/// (cancel-and-reschedule, optional slots); no timings here.

/// Records values and completions with their frames; keeps no subscription unless told to.
private final class Recorder<Input, Failure: Error>: Subscriber {
    let scheduler: VirtualTimeScheduler
    var log: [String] = []
    var subscription: (any Subscription)?
    private let keepsSubscription: Bool
    private let initialDemand: Subscribers.Demand
    /// Called for every value; returns the extra demand to give back.
    var onValue: (Recorder, Input) -> Subscribers.Demand = { _, _ in .none }

    init(scheduler: VirtualTimeScheduler, initialDemand: Subscribers.Demand = .unlimited, keepsSubscription: Bool = true) {
        self.scheduler = scheduler
        self.initialDemand = initialDemand
        self.keepsSubscription = keepsSubscription
    }

    func receive(subscription: any Subscription) {
        if keepsSubscription { self.subscription = subscription }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        log.append("\(input)@\(scheduler.currentFrame)")
        return onValue(self, input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: log.append("|@\(scheduler.currentFrame)")
        case .failure: log.append("#@\(scheduler.currentFrame)")
        }
    }
}

/// A publisher that breaks the contract: it finishes, then sends a value anyway.
private struct SendsAfterFinishing: Publisher {
    typealias Output = String
    typealias Failure = Never
    let scheduler: VirtualTimeScheduler
    let at: VirtualTime

    func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == Never {
        subscriber.receive(subscription: EmptySubscription())
        scheduler.schedule(at: at) {
            subscriber.receive(completion: .finished)
            _ = subscriber.receive("late")
        }
    }
}

/// A publisher that sends one value at subscription and keeps no reference to its subscriber.
private struct SendsOnceAndForgets: Publisher {
    typealias Output = String
    typealias Failure = Never
    let value: String

    func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == Never {
        subscriber.receive(subscription: EmptySubscription())
        _ = subscriber.receive(value)
    }
}

@Suite struct MergeFastPathTests {
    @Test func unlimitedThenLimitedRequestsChangeNothing() {
        // Once demand is unlimited it stays so: a later `.max(1)` is a no-op, values keep flowing
        // straight through and nothing waits in a slot.
        let bench = Bench()
        let pipeline = bench.hot("-a-c-e-|").merge(with: bench.hot("--b-d-f|"))
        #expect(bench.run(pipeline, requests: [(2, .max(1)), (4, .none)]) == "-abcdef|")
    }

    @Test func limitedThenUnlimitedSwitchesToTheFastPath() {
        // Slots in use while demand is limited; after the unlimited request the slots are flushed
        // in upstream order and every later value goes straight through.
        let bench = Bench()
        let pipeline = bench.hot("-a-c---e-g|").merge(with: bench.hot("--b--d--f-|"))
        #expect(bench.run(pipeline, initialDemand: .max(1), requests: [(4, .unlimited)]) == "-a--(cb)d-efg|")
    }

    @Test func unlimitedDemandDeliversManySourcesInArrivalOrder() {
        let scheduler = VirtualTimeScheduler()
        let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = Recorder<Int, Never>(scheduler: scheduler)
        Publishers.MergeMany(subjects).subscribe(recorder)
        var expected: [String] = []
        for value in 0..<64 {
            let frame = value / 3
            scheduler.schedule(at: frame) { subjects[(value * 5) % 8].send(value) }
            expected.append("\(value)@\(frame)")
        }
        scheduler.schedule(at: 30) { subjects.forEach { $0.send(completion: .finished) } }
        scheduler.run()
        #expect(recorder.log == expected + ["|@30"])
    }

    @Test func cancelFromInsideReceiveStopsTheFastPath() {
        let scheduler = VirtualTimeScheduler()
        let first = PassthroughSubject<String, Never>(), second = PassthroughSubject<String, Never>()
        let recorder = Recorder<String, Never>(scheduler: scheduler)
        recorder.onValue = { recorder, value in
            if value == "b" { recorder.subscription?.cancel() }
            return .none
        }
        first.merge(with: second).subscribe(recorder)
        scheduler.schedule(at: 1) {
            first.send("a")
            second.send("b")
            first.send("c")
            second.send("d")
        }
        scheduler.run()
        #expect(recorder.log == ["a@1", "b@1"])
    }

    @Test func aFailureStopsLaterValuesOnTheFastPath() {
        let scheduler = VirtualTimeScheduler()
        let first = PassthroughSubject<String, TestFailure>(), second = PassthroughSubject<String, TestFailure>()
        let recorder = Recorder<String, TestFailure>(scheduler: scheduler)
        first.merge(with: second).subscribe(recorder)
        scheduler.schedule(at: 1) {
            first.send("a")
            second.send(completion: .failure(TestFailure("x")))
            first.send("b")
        }
        scheduler.run()
        #expect(recorder.log == ["a@1", "#@1"])
    }

    @Test func aValueAfterItsUpstreamFinishedIsDropped() {
        let scheduler = VirtualTimeScheduler()
        let other = PassthroughSubject<String, Never>()
        let recorder = Recorder<String, Never>(scheduler: scheduler)
        SendsAfterFinishing(scheduler: scheduler, at: 1).merge(with: other).subscribe(recorder)
        scheduler.schedule(at: 2) { other.send("x") }
        scheduler.schedule(at: 3) { other.send(completion: .finished) }
        scheduler.run()
        #expect(recorder.log == ["x@2", "|@3"])
    }

    @Test func demandReturnedWhileLimitedIsHonoured() {
        // Limited path: each value's returned demand is added (here one more per value), so
        // nothing is dropped although the initial demand was 1.
        let scheduler = VirtualTimeScheduler()
        let first = PassthroughSubject<String, Never>(), second = PassthroughSubject<String, Never>()
        let recorder = Recorder<String, Never>(scheduler: scheduler, initialDemand: .max(1))
        recorder.onValue = { _, _ in .max(1) }
        first.merge(with: second).subscribe(recorder)
        for (frame, value) in [(1, "a"), (2, "b"), (3, "c"), (4, "d")] {
            scheduler.schedule(at: frame) { (frame.isMultiple(of: 2) ? second : first).send(value) }
        }
        scheduler.run()
        #expect(recorder.log == ["a@1", "b@2", "c@3", "d@4"])
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
        let recorder = Recorder<String, Never>(scheduler: scheduler)
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
        let recorder = Recorder<String, Never>(scheduler: scheduler)
        subject.debounce(for: 2, scheduler: scheduler).subscribe(recorder)
        scheduler.schedule(at: 1) {
            subject.send("a")
            scheduler.schedule(at: 3) { subject.send("c") }
        }
        scheduler.run()
        #expect(recorder.log == ["a@3", "c@5"])
    }

    @Test func manyValuesInOneFrameAndAZeroWait() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = Recorder<String, Never>(scheduler: scheduler)
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
    }

    @Test func aWaitRestartedManyTimesFiresOnceAtTheEnd() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(scheduler: scheduler)
        subject.debounce(for: 5, scheduler: scheduler).subscribe(recorder)
        for frame in 1...50 { scheduler.schedule(at: frame) { subject.send(frame) } }
        scheduler.schedule(at: 100) { subject.send(100) }
        scheduler.run()
        #expect(recorder.log == ["50@55", "100@105"])
        #expect(!scheduler.hasPendingWork)
        #expect(scheduler.nextActionTime == nil)
    }

    @Test func nextActionTimeSeesTheRestartedWait() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(scheduler: scheduler)
        subject.debounce(for: 4, scheduler: scheduler).subscribe(recorder)
        scheduler.schedule(at: 1) { subject.send(1) }
        scheduler.schedule(at: 3) { subject.send(3) }
        scheduler.run(until: 3)
        #expect(scheduler.nextActionTime == 7)
        scheduler.run()
        #expect(recorder.log == ["3@7"])
    }

    @Test func cancelWhileAWaitIsPendingAndAfterItWasRestarted() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = Recorder<String, Never>(scheduler: scheduler)
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
        let recorder = Recorder<String, Never>(scheduler: scheduler, keepsSubscription: false)
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
        let recorder = Recorder<String, Never>(scheduler: scheduler)
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
        let recorder = Recorder<Int, Never>(scheduler: scheduler, initialDemand: .max(2))
        subject.debounce(for: 1, scheduler: scheduler).subscribe(recorder)
        for frame in [1, 3, 5, 7] { scheduler.schedule(at: frame) { subject.send(frame) } }
        scheduler.schedule(at: 7) { recorder.subscription?.request(.max(1)) }
        scheduler.run()
        // 1 and 3 use the demand; 5 falls due with none and is dropped; 7 uses the late request.
        #expect(recorder.log == ["1@2", "3@4", "7@8"])
    }
}
