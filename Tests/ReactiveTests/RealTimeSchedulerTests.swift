import Dispatch
import Foundation
import Testing
@testable import Reactive

/// The real-time schedulers with short real waits. Nothing here asserts how long anything took:
/// each test waits (at most a few seconds) for the work to be done, then checks what ran and in
/// which order.
@Suite struct RealTimeSchedulerTests {
    /// Waits for `semaphore` at most 5 s; false if it timed out.
    private func waited(_ semaphore: DispatchSemaphore) -> Bool {
        semaphore.wait(timeout: .now() + 5) == .success
    }

    @Test func dispatchQueueRunsImmediateDelayedAndRepeatingWork() {
        let queue = DispatchQueue(label: "RealTimeSchedulerTests")
        let done = DispatchSemaphore(value: 0)
        let log = Locked<[String]>([])
        queue.schedule { log.mutate { $0.append("now") } }
        queue.schedule(after: queue.now.advanced(by: .milliseconds(20))) { log.mutate { $0.append("later") }; done.signal() }
        #expect(waited(done))
        let ticks = DispatchSemaphore(value: 0)
        let count = Locked(0)
        let timer = queue.schedule(after: queue.now, interval: .milliseconds(5)) {
            count.mutate { $0 += 1 }
            ticks.signal()
        }
        #expect(waited(ticks) && waited(ticks) && waited(ticks))
        timer.cancel()
        #expect(log.value == ["now", "later"])
        #expect(count.value >= 3)
    }

    @Test func dispatchStridesAreNanosecondsAndLiteralsSeconds() {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        #expect(Stride(integerLiteral: 2).magnitude == 2_000_000_000)
        #expect((0.5 as Stride).magnitude == 500_000_000)
        #expect(Stride.milliseconds(3).timeInterval == .nanoseconds(3_000_000))
        #expect(Stride(.seconds(1)) == .seconds(1))
        #expect(Stride.seconds(Int.max).magnitude == .max)
        let start = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_000))
        #expect(start.advanced(by: .nanoseconds(500)).dispatchTime.uptimeNanoseconds == 1_500)
        #expect(start.distance(to: DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 400))) == .nanoseconds(-600))
    }

    @Test func debounceOnADispatchQueueEmitsTheLastValue() {
        let queue = DispatchQueue(label: "RealTimeSchedulerTests.debounce")
        let subject = PassthroughSubject<Int, Never>()
        let done = DispatchSemaphore(value: 0)
        let values = Locked<[Int]>([])
        let cancellable = subject.debounce(for: .milliseconds(30), scheduler: queue).sink { value in
            values.mutate { $0.append(value) }
            done.signal()
        }
        queue.sync {
            subject.send(1)
            subject.send(2)
            subject.send(3)
        }
        #expect(waited(done))
        #expect(queue.sync { values.value } == [3])
        cancellable.cancel()
    }

    @Test func operationQueueRunsWorkAsOperations() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let done = DispatchSemaphore(value: 0)
        let log = Locked<[String]>([])
        queue.schedule { log.mutate { $0.append("now") } }
        queue.schedule(after: queue.now.advanced(by: .milliseconds(10))) { log.mutate { $0.append("later") }; done.signal() }
        #expect(waited(done))
        let ticks = DispatchSemaphore(value: 0)
        let timer = queue.schedule(after: queue.now, interval: .milliseconds(5)) { ticks.signal() }
        #expect(waited(ticks) && waited(ticks))
        timer.cancel()
        #expect(log.value == ["now", "later"])
        #expect((1.5 as OperationQueue.SchedulerTimeType.Stride).timeInterval == 1.5)
        #expect(OperationQueue.SchedulerTimeType.Stride.milliseconds(250).timeInterval == 0.25)
    }

    @Test func runLoopAndTimerPublishRunWhileTheLoopRuns() {
        let runLoop = RunLoop.current
        var log: [String] = []
        runLoop.schedule { log.append("now") }
        runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(10))) { log.append("later") }
        var ticks = 0
        let timer = Timer.publish(every: 0.005, on: runLoop, in: .default).autoconnect().sink { _ in ticks += 1 }
        let deadline = Date().addingTimeInterval(5)
        while (ticks < 3 || log.count < 2), Date() < deadline {
            _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.01))
        }
        timer.cancel()
        #expect(log == ["now", "later"])
        #expect(ticks >= 3)
    }

    @Test func runLoopTimersLetGoOfTheirWorkOnceFiredOrCancelled() {
        final class Probe {}
        let runLoop = RunLoop.current
        weak var once: Probe?
        weak var repeating: Probe?
        var fired = (once: false, repeating: 0)
        do {
            let (first, second) = (Probe(), Probe())
            (once, repeating) = (first, second)
            runLoop.schedule(after: runLoop.now) { _ = first; fired.once = true }
            let timer = runLoop.schedule(after: runLoop.now, interval: .milliseconds(5)) { _ = second; fired.repeating += 1 }
            let deadline = Date().addingTimeInterval(5)
            while !fired.once || fired.repeating < 2, Date() < deadline {
                _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.01))
            }
            timer.cancel()
        }
        #expect(fired.once && fired.repeating >= 2)
        // Foundation keeps every Timer and its block: the work must not be in the block.
        #expect(once == nil)
        #expect(repeating == nil)
    }

    @Test func runLoopAndOperationQueueTimesAreDistinctTypesAsInCombine() {
        // Overloads on the two time types (and their strides) resolve as they do with Combine.
        #expect(scheduler(of: RunLoop.current.now) == "RunLoop")
        #expect(scheduler(of: OperationQueue().now) == "OperationQueue")
        #expect(scheduler(of: RunLoop.SchedulerTimeType.Stride.seconds(1)) == "RunLoop")
        #expect(scheduler(of: OperationQueue.SchedulerTimeType.Stride.milliseconds(1500)) == "OperationQueue")
        // Same shape: a date and seconds.
        let start = RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 10))
        #expect(start.advanced(by: .milliseconds(1500)).date == Date(timeIntervalSince1970: 11.5))
        #expect(OperationQueue.SchedulerTimeType(Date(timeIntervalSince1970: 10)).distance(to: .init(Date(timeIntervalSince1970: 12))).timeInterval == 2)
    }

    private func scheduler(of time: RunLoop.SchedulerTimeType) -> String { "RunLoop" }
    private func scheduler(of time: OperationQueue.SchedulerTimeType) -> String { "OperationQueue" }
    private func scheduler(of stride: RunLoop.SchedulerTimeType.Stride) -> String { "RunLoop" }
    private func scheduler(of stride: OperationQueue.SchedulerTimeType.Stride) -> String { "OperationQueue" }
}

/// A value shared with work on other threads.
final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
