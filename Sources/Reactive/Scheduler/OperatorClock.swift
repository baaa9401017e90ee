/// How the time operators use their scheduler. Combine's `Scheduler` has no cancellable one-shot
/// work, so elsewhere a cancelled one-shot still runs and returns at once; on the virtual clock
/// the operators use its own handles (a cancelled entry is skipped: it counts against no limit
/// and is not reported as pending work) and its re-armable timers. The check is made once, when
/// an operator's link is built, not per event.
struct OperatorClock<Context: Scheduler> {
    typealias Time = Context.SchedulerTimeType
    typealias Interval = Context.SchedulerTimeType.Stride

    let scheduler: Context
    let options: Context.SchedulerOptions?
    /// The scheduler itself when it is the virtual clock.
    let virtual: VirtualTimeScheduler?

    init(_ scheduler: Context, options: Context.SchedulerOptions?) {
        self.scheduler = scheduler
        self.options = options
        virtual = scheduler as? VirtualTimeScheduler
    }

    var now: Time { scheduler.now }

    /// The frames `interval` spans when the scheduler is the virtual clock.
    func frames(_ interval: Interval) -> Int? {
        guard virtual != nil else { return nil }
        return (interval as? VirtualTimeScheduler.SchedulerTimeType.Stride)?.frames
    }

    /// Runs `action` as soon as the scheduler can (on the virtual clock: this frame, after the
    /// work already queued for it).
    func hop(_ action: @escaping () -> Void) {
        scheduler.schedule(options: options, action)
    }

    /// Runs `action` once at `date` (or later, within `tolerance`).
    func once(at date: Time, tolerance: Interval? = nil, _ action: @escaping () -> Void) {
        scheduler.schedule(after: date, tolerance: tolerance ?? scheduler.minimumTolerance, options: options, action)
    }

    /// Runs `action` once, `interval` from now, unless the returned handle is cancelled first.
    /// `frames` is `frames(interval)`, computed once by the caller.
    func cancellable(after interval: Interval, frames: Int?, _ action: @escaping () -> Void) -> any Cancellable {
        if let virtual, let frames { return virtual.schedule(afterFrames: frames, action) }
        return cancellable(at: now.advanced(by: interval), action)
    }

    /// Runs `action` once at `date`, unless the returned handle is cancelled first.
    func cancellable(at date: Time, _ action: @escaping () -> Void) -> any Cancellable {
        if let virtual, let date = date as? VirtualTimeScheduler.SchedulerTimeType { return virtual.schedule(at: date.frame, action) }
        let token = CancelFlag()
        once(at: date) { if !token.isCancelled { action() } }
        return token
    }

    /// Runs `action` every `interval`, the first time `interval` from now.
    func repeating(every interval: Interval, _ action: @escaping () -> Void) -> any Cancellable {
        scheduler.schedule(after: now.advanced(by: interval), interval: interval, tolerance: scheduler.minimumTolerance, options: options, action)
    }
}

/// A cancel handle for one-shot work on a scheduler that cannot take work back.
final class CancelFlag: Cancellable {
    private(set) var isCancelled = false
    func cancel() { isCancelled = true }
}
