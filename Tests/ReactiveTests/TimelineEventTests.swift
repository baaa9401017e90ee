import Testing
@testable import Reactive

/// Correctness of the paths `make bench` optimised: the key-only action heap, timeline playback
/// with one reused closure and token, and the subject's single-subscriber fast path.
/// (No timings here: docs/performance.md and `make bench` hold the figures.)
@Suite struct SchedulerQueueTests {
    /// A small deterministic generator, so the test needs no seed from outside.
    struct Lcg {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test func manyActionsRunInTimeThenSchedulingOrder() {
        let scheduler = VirtualTimeScheduler()
        var ran: [(time: Int, order: Int)] = []
        var random = Lcg(state: 42)
        var expected: [(time: Int, order: Int)] = []
        for order in 0..<2_000 {
            let time = random.next(300)
            expected.append((time, order))
            scheduler.schedule(at: time) { ran.append((scheduler.currentFrame, order)) }
        }
        scheduler.run()
        expected.sort { ($0.time, $0.order) < ($1.time, $1.order) }
        #expect(ran.map(\.time) == expected.map(\.time))
        #expect(ran.map(\.order) == expected.map(\.order))
    }

    @Test func actionsQueuedWhileRunningInterleaveCorrectly() {
        // Work queued from inside an action, for now and for later, with cancellations: slots
        // are reused while the heap is non-empty.
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        var cancelled: [ScheduledAction] = []
        for step in 0..<50 {
            scheduler.schedule(at: step) {
                log.append("a\(step)@\(scheduler.currentFrame)")
                scheduler.schedule { log.append("now\(step)@\(scheduler.currentFrame)") }
                cancelled.append(scheduler.schedule(afterFrames: 3) { log.append("never\(step)") })
                scheduler.schedule(afterFrames: 2) { log.append("later\(step)@\(scheduler.currentFrame)") }
                if step >= 1 { cancelled[step - 1].cancel() }
            }
        }
        scheduler.run()
        var expected: [String] = []
        // At each frame: that frame's action (queued first), the work queued two frames earlier,
        // then the work its action queued for "now".
        for frame in 0..<52 {
            if frame < 50 { expected.append("a\(frame)@\(frame)") }
            if frame >= 2 { expected.append("later\(frame - 2)@\(frame)") }
            if frame < 50 { expected.append("now\(frame)@\(frame)") }
        }
        // The last action's "never" (scheduled at frame 49 for 52) is the only one not cancelled.
        expected.append("never49")
        #expect(log == expected)
    }

    @Test func repeatingActionKeepsItsPlaceAndStopsWhenCancelled() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        var ticks = 0
        var timer: ScheduledAction?
        timer = scheduler.schedule(at: 2, interval: 3) {
            ticks += 1
            log.append("tick@\(scheduler.currentFrame)")
            if ticks == 3 { timer?.cancel() }
        }
        scheduler.schedule(at: 5) { log.append("once@\(scheduler.currentFrame)") }
        scheduler.run()
        #expect(log == ["tick@2", "tick@5", "once@5", "tick@8"])
        #expect(!scheduler.hasPendingWork)
        #expect(scheduler.nextActionTime == nil)
    }

    @Test func deadlineAndTimeLimitStillApply() {
        let scheduler = VirtualTimeScheduler(limits: .init(maxTime: 100))
        var log: [Int] = []
        for time in [10, 50, 150] { scheduler.schedule(at: time) { log.append(time) } }
        #expect(scheduler.run(until: 20) == nil)
        #expect(log == [10] && scheduler.currentFrame == 20 && scheduler.nextActionTime == 50)
        #expect(scheduler.run() == .timeLimit(limit: 100))
        #expect(log == [10, 50])
    }
}

@Suite struct PlaybackTests {
    @Test func playbackOrdersAsIfEveryEventWereQueuedUpFront() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        let first: [TimedEvent<String, Never>] = [TimedEvent(1, .value("a")), TimedEvent(1, .value("b")), TimedEvent(3, .value("c")), TimedEvent(4, .completion(.finished))]
        let second: [TimedEvent<String, Never>] = [TimedEvent(1, .value("x")), TimedEvent(3, .value("y"))]
        scheduler.play(first) { event in
            if case .value(let value) = event {
                log.append("\(value)@\(scheduler.currentFrame)")
                // Work the delivery queues for the same instant runs after everything already queued for it.
                scheduler.schedule { log.append("after-\(value)@\(scheduler.currentFrame)") }
            } else {
                log.append("|@\(scheduler.currentFrame)")
            }
        }
        scheduler.play(second, offset: 1) { event in
            if case .value(let value) = event { log.append("\(value)@\(scheduler.currentFrame)") }
        }
        scheduler.run()
        #expect(log == ["a@1", "b@1", "after-a@1", "after-b@1", "x@2", "c@3", "after-c@3", "|@4", "y@4"])
    }

    @Test func cancellingStopsThePlaybackMidway() {
        let scheduler = VirtualTimeScheduler()
        var seen: [Int] = []
        let events = (1...10).map { TimedEvent<Int, Never>($0, .value($0)) }
        var playback: (any Cancellable)?
        playback = scheduler.play(events) { event in
            guard case .value(let value) = event else { return }
            seen.append(value)
            if value == 4 { playback?.cancel() }
        }
        scheduler.schedule(at: 7) { playback?.cancel() }
        scheduler.run()
        #expect(seen == [1, 2, 3, 4])
        #expect(!scheduler.hasPendingWork)
    }

    @Test func playbackIsReleasedWhenItEnds() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        let scheduler = VirtualTimeScheduler()
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            scheduler.play([TimedEvent<Int, Never>(1, .value(1)), TimedEvent(2, .value(2))]) { event in
                if case .value(let value) = event { subject.send(value) }
            }
            scheduler.run()
        }
        #expect(weakSubject == nil)
    }

    @Test func emptyTimelineAndPastEventsAreHandled() {
        let scheduler = VirtualTimeScheduler(now: 5)
        var log: [String] = []
        scheduler.play([TimedEvent<Int, Never>]()) { _ in log.append("never") }
        scheduler.play([TimedEvent<Int, Never>(2, .value(1)), TimedEvent(6, .value(2))]) { event in
            if case .value(let value) = event { log.append("\(value)@\(scheduler.currentFrame)") }
        }
        scheduler.run()
        #expect(log == ["1@5", "2@6"])
    }

    @Test func aPlaybackStartedDuringAnothersDeliveryInterleavesByTime() {
        // Each delivery re-queues the playback's own entry after it returns; a playback started
        // inside a delivery queues a fresh one. Both keep the order of queueing everything up front.
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        let outer: [TimedEvent<String, Never>] = [TimedEvent(1, .value("a")), TimedEvent(2, .value("b")), TimedEvent(3, .value("c"))]
        scheduler.play(outer) { event in
            guard case .value(let value) = event else { return }
            log.append("\(value)@\(scheduler.currentFrame)")
            if value == "a" {
                let inner: [TimedEvent<String, Never>] = [TimedEvent(0, .value("x")), TimedEvent(1, .value("y")), TimedEvent(2, .value("z"))]
                scheduler.play(inner, offset: scheduler.currentFrame) { event in
                    if case .value(let value) = event { log.append("\(value)@\(scheduler.currentFrame)") }
                }
            }
        }
        scheduler.run()
        // At frame 1 the inner "x" was queued after the outer "b" was reserved, but "b" is at
        // frame 2; at frames 2 and 3 the outer events were reserved first and so come first.
        #expect(log == ["a@1", "x@1", "b@2", "y@2", "c@3", "z@3"])
    }

    @Test func aCancelledPlaybackIsReleasedWhenItsEntrySurfaces() {
        weak var weakPlayback: AnyObject?
        let scheduler = VirtualTimeScheduler()
        var seen: [Int] = []
        do {
            let playback = scheduler.play([TimedEvent<Int, Never>(1, .value(1)), TimedEvent(1_000, .value(2))]) { event in
                if case .value(let value) = event { seen.append(value) }
            }
            weakPlayback = playback as AnyObject
            scheduler.run(until: 1)
            playback.cancel()
        }
        #expect(weakPlayback != nil, "its queued entry still holds it")
        scheduler.run()
        #expect(weakPlayback == nil)
        #expect(seen == [1])
        #expect(!scheduler.hasPendingWork)
    }

    @Test func longTimelinesKeepOneQueueEntry() {
        let scheduler = VirtualTimeScheduler()
        var count = 0
        var sum = 0
        let events = (1...5_000).map { TimedEvent<Int, Never>($0 * 1_000_000, .value($0)) }
        scheduler.play(events) { event in
            if case .value(let value) = event { count += 1; sum += value }
        }
        scheduler.run(until: 3)
        #expect(scheduler.hasPendingWork)
        scheduler.run()
        #expect(count == 5_000 && sum == 5_000 * 5_001 / 2)
        #expect(scheduler.currentFrame == 5_000_000_000)
    }
}

@Suite struct SubjectFastPathTests {
    @Test func singleSubscriberRespectsBoundedDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let scheduler = VirtualTimeScheduler()
        let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler, initialDemand: .max(2))
        subject.subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        subscriber.request(.max(1))
        subject.send(6)
        subject.send(7)
        #expect(subscriber.events.compactMap { if case .value(let v) = $0.event { v } else { nil } } == [1, 2, 6])
        #expect(subscriber.valuesWithoutDemand.isEmpty)
    }

    @Test func demandReturnedFromReceiveIsAdded() {
        let subject = PassthroughSubject<Int, Never>()
        var got: [Int] = []
        subject.subscribe(AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { value in got.append(value); return value.isMultiple(of: 2) ? .max(1) : .none }))
        for value in [2, 4, 5, 6] { subject.send(value) }
        #expect(got == [2, 4, 5])
    }

    @Test func manySubscribersEachGetEveryValueInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        var cancellables: [AnyCancellable] = []
        for name in ["a", "b", "c"] {
            subject.sink { log.append("\(name)\($0)") }.store(in: &cancellables)
        }
        subject.send(1)
        cancellables[1].cancel()
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
        #expect(log == ["a1", "b1", "c1", "a2", "c2"])
    }
}
