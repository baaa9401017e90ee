import Dispatch
import Foundation

/// An operation queue as a scheduler (Combine's `OperationQueue: Scheduler`): every action is
/// added to the queue as an operation; a delayed one waits on a Dispatch timer first.
extension OperationQueue: Scheduler {
    public typealias SchedulerTimeType = DateSchedulerTime<OperationQueue>
    public typealias SchedulerOptions = FoundationSchedulerOptions

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    /// No tolerance is required.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Adds `action` to the queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(run: action)
        addOperation { work.run() }
    }

    /// Adds `action` to the queue at `date`.
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(run: action)
        let queue = UncheckedQueue(queue: self)
        DispatchQueue.global().asyncAfter(deadline: .now() + Swift.max(0, date.date.timeIntervalSinceNow)) {
            queue.queue.addOperation { work.run() }
        }
    }

    /// Adds `action` to the queue at `date`, then every `interval`, until the handle cancels it.
    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) -> any Cancellable {
        let work = UncheckedAction(run: action)
        let queue = UncheckedQueue(queue: self)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { queue.queue.addOperation { work.run() } }
        timer.schedule(deadline: .now() + Swift.max(0, date.date.timeIntervalSinceNow), repeating: Swift.max(0, interval.timeInterval),
                       leeway: .nanoseconds(Int(Swift.max(0, tolerance.timeInterval) * 1e9)))
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}

/// An operation queue reached from a Dispatch closure (operation queues are thread-safe).
private struct UncheckedQueue: @unchecked Sendable {
    let queue: OperationQueue
}
