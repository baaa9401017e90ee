import Testing
@testable import Reactive

/// The virtual clock's key-only action heap, a path `make bench` optimised. (No timings here:
/// docs/performance.md and `make bench` hold the figures.)
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

@Suite struct SchedulerTests {
    @Test func sameInstantRunsInSchedulingOrder() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        scheduler.schedule(at: 5) { log.append("a") }
        scheduler.schedule(at: 3) { log.append("b") }
        scheduler.schedule(at: 5) { log.append("c") }
        scheduler.schedule(at: 3) {
            log.append("d")
            scheduler.schedule { log.append("d-now") }
        }
        scheduler.run()
        #expect(log == ["b", "d", "d-now", "a", "c"])
        #expect(scheduler.currentFrame == 5)
    }

    @Test func thePastRunsNowAndTheClockNeverGoesBack() {
        let scheduler = VirtualTimeScheduler()
        var times: [Int] = []
        scheduler.schedule(at: 10) {
            scheduler.schedule(at: 2) { times.append(scheduler.currentFrame) }
        }
        scheduler.run()
        #expect(times == [10])
    }

    /// A driver's teardown (TestSession.tearDown) lets a cancel queued by a hop reach upstream:
    /// the work due now runs, later work is dropped, and nothing runs after a stopped run.
    @Test func finishingDueWorkRunsWhatIsDueNowAndDropsTheRest() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        scheduler.schedule(at: 3) { log.append("run") }
        scheduler.run(until: 3)
        scheduler.schedule { log.append("hop") }
        scheduler.schedule(at: 7) { log.append("later") }
        scheduler.finishDueWork()
        #expect(log == ["run", "hop"])
        #expect(!scheduler.hasPendingWork)

        let stopped = VirtualTimeScheduler()
        stopped.abort("a fault")
        stopped.schedule { log.append("after the stop") }
        stopped.finishDueWork()
        #expect(log == ["run", "hop"])
        #expect(!stopped.hasPendingWork)
    }

    @Test func cancelledActionsNeverRun() {
        let scheduler = VirtualTimeScheduler()
        var ran = false
        let token = scheduler.schedule(at: 4) { ran = true }
        scheduler.schedule(at: 2) { token.cancel() }
        scheduler.run()
        #expect(!ran)
    }

    @Test func repeatingActionsKeepTheirPlaceAndStopWhenCancelled() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        var timer: ScheduledAction?
        timer = scheduler.schedule(at: 2, interval: 2) { log.append("tick@\(scheduler.currentFrame)") }
        scheduler.schedule(at: 4) { log.append("one-shot@4") }
        scheduler.schedule(at: 7) { timer?.cancel() }
        scheduler.run()
        #expect(log == ["tick@2", "tick@4", "one-shot@4", "tick@6"])
    }

    @Test func idleStretchesCostNothing() {
        let scheduler = VirtualTimeScheduler()
        var count = 0
        scheduler.schedule(at: 1) { count += 1 }
        scheduler.schedule(at: 1_000_000_000) { count += 1 }
        #expect(scheduler.run() == nil)
        #expect(count == 2)
        #expect(scheduler.currentFrame == 1_000_000_000)
    }

    @Test func timeLimitStopsTheRun() {
        let scheduler = VirtualTimeScheduler(limits: .init(maxTime: 100))
        var ran = false
        scheduler.schedule(at: 101) { ran = true }
        #expect(scheduler.run() == .timeLimit(limit: 100))
        #expect(!ran)
    }

    @Test func actionsPerInstantLimitStopsARunThatNeverSettles() {
        let scheduler = VirtualTimeScheduler(limits: .init(maxActionsPerInstant: 50))
        func again() { scheduler.schedule(again) }
        scheduler.schedule(at: 3, again)
        #expect(scheduler.run() == .instantActionLimit(limit: 50, at: 3))
    }

    @Test func deadlineLeavesLaterWorkQueued() {
        let scheduler = VirtualTimeScheduler()
        var ran = false
        scheduler.schedule(at: 20) { ran = true }
        scheduler.run(until: 10)
        #expect(!ran)
        #expect(scheduler.currentFrame == 10)
        #expect(scheduler.hasPendingWork)
    }

    @Test func reservedSequencesOrderLikeUpfrontScheduling() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        let first = scheduler.reserveSequence(count: 2)
        scheduler.schedule(at: 5) { log.append("dynamic") }
        scheduler.schedule(at: 5, sequence: first + 1) { log.append("reserved") }
        scheduler.run()
        #expect(log == ["reserved", "dynamic"])
    }

    @Test func playbackKeepsTheQueueSmall() {
        let scheduler = VirtualTimeScheduler()
        let events = (0..<10_000).map { TimedEvent<Int, Never>($0, .value($0)) }
        var received = 0
        scheduler.play(events) { _ in received += 1 }
        scheduler.run()
        #expect(received == 10_000)
    }
}
