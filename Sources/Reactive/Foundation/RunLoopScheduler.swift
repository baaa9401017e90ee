import Foundation

/// A run loop as a scheduler (Combine's `RunLoop: Scheduler`): work runs when the run loop
/// runs (`RunLoop.main` on the main thread, or a loop someone runs with `run(until:)`), in the
/// default mode.
extension RunLoop: Scheduler {
    public typealias SchedulerTimeType = DateSchedulerTime<RunLoop>
    public typealias SchedulerOptions = FoundationSchedulerOptions

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    /// No tolerance is required.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs `action` the next time the run loop runs.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(run: action)
        perform { work.run() }
    }

    /// Runs `action` on the run loop at `date` (a one-shot timer, with `tolerance`).
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(run: action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in work.run() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
    }

    /// Runs `action` on the run loop at `date`, then every `interval`, until the handle cancels
    /// the timer.
    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) -> any Cancellable {
        addTimer(at: date, interval: interval, tolerance: tolerance, mode: .default, action)
    }

    /// A repeating timer in `mode`; the handle invalidates it.
    func addTimer(at date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, mode: RunLoop.Mode, _ action: @escaping () -> Void) -> any Cancellable {
        let work = UncheckedAction(run: action)
        let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in work.run() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: mode)
        return AnyCancellable { timer.invalidate() }
    }
}
