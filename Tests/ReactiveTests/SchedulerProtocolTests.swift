import Testing
@testable import Reactive

/// Work queued through the generic `Scheduler` API, as app code written for Combine queues it.
private func scheduleThree<S: Scheduler>(on scheduler: S, log: @escaping (String) -> Void) -> any Cancellable {
    scheduler.schedule { log("now") }
    scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(2))) { log("after") }
    return scheduler.schedule(after: scheduler.now.advanced(by: 1), interval: 3) { log("tick") }
}

@Suite struct VirtualSchedulerProtocolTests {
    @Test func genericSchedulingRunsAtTheFramesAsked() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        let ticks = scheduleThree(on: scheduler) { log.append("\($0)@\(scheduler.now)") }
        scheduler.run(until: 7)
        ticks.cancel()
        scheduler.run()
        #expect(log == ["now@0", "tick@1", "after@2", "tick@4", "tick@7"])
        #expect(scheduler.currentFrame == 7)
    }

    @Test func timeInThePastRunsNowAfterQueuedWork() {
        let scheduler = VirtualTimeScheduler(now: 5)
        var log: [String] = []
        scheduler.schedule { log.append("first@\(scheduler.now)") }
        scheduler.schedule(after: .init(frame: 2)) { log.append("past@\(scheduler.now)") }
        scheduler.run()
        #expect(log == ["first@5", "past@5"])
    }

    @Test func stridesAreFramesAndDurationsCountAMillisecondAFrame() {
        typealias Stride = VirtualTimeScheduler.SchedulerTimeType.Stride
        #expect(Stride(integerLiteral: 3).frames == 3)
        #expect((2.5 as Stride).frames == 3)
        #expect(Stride.milliseconds(300).frames == 300)
        #expect(Stride.seconds(2).frames == 2_000)
        #expect(Stride.seconds(0.0015).frames == 2)
        #expect(Stride.microseconds(1_500).frames == 2)
        #expect(Stride.microseconds(-1_500).frames == -1)
        #expect(Stride.nanoseconds(1).frames == 1)
        #expect(Stride.nanoseconds(0).frames == 0)
        #expect(Stride.seconds(Int.max).frames == Int.max / 1_000_000 + 1)
        #expect((Stride(frames: .max) + 1).frames == .max)
        #expect((3 as Stride) * 4 == 12)
        #expect(-(3 as Stride) < 0)
    }

    @Test func timeIsStrideableInFrames() {
        let start = VirtualTimeScheduler.SchedulerTimeType(frame: 4)
        #expect(start.advanced(by: 6).frame == 10)
        #expect(start.distance(to: .init(frame: 1)) == -3)
        #expect(start < start.advanced(by: 1))
        #expect("\(start)" == "4")
        #expect(VirtualTimeScheduler().minimumTolerance == 0)
    }

    @Test func aRepeatingActionNeedsAtLeastOneFrame() {
        let scheduler = VirtualTimeScheduler()
        var ticks: [Int] = []
        let timer = scheduler.schedule(after: scheduler.now, interval: 0, tolerance: 0, options: nil) { ticks.append(scheduler.currentFrame) }
        scheduler.run(until: 3)
        timer.cancel()
        letGo(scheduler)
        #expect(ticks == [0, 1, 2, 3])
    }
}
