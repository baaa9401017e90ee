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
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { TimerActions.runOnce($0) }
        TimerActions.add(action, for: timer)
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
        let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { TimerActions.run($0) }
        TimerActions.add(action, for: timer)
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: mode)
        return AnyCancellable {
            timer.invalidate()
            TimerActions.remove(timer)
        }
    }
}

/// What each `Timer` made here runs, kept apart from the timer. swift-corelibs-foundation
/// (Swift 6.3.1) never frees a `Timer` or its block, fired or invalidated (.ci/lsan-repro,
/// `RunLoopTimer.swift`), so a block holding the action would keep it, and the pipeline behind
/// it, for good. The blocks capture nothing; a one-shot's action goes when it fires, a
/// repeating one's when its handle invalidates the timer.
private enum TimerActions {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var actions: [ObjectIdentifier: () -> Void] = [:]

    static func add(_ action: @escaping () -> Void, for timer: Timer) {
        lock.withLock { actions[ObjectIdentifier(timer)] = action }
    }

    static func remove(_ timer: Timer) {
        _ = lock.withLock { actions.removeValue(forKey: ObjectIdentifier(timer)) }
    }

    static func run(_ timer: Timer) {
        lock.withLock { actions[ObjectIdentifier(timer)] }?()
    }

    static func runOnce(_ timer: Timer) {
        lock.withLock { actions.removeValue(forKey: ObjectIdentifier(timer)) }?()
    }
}
