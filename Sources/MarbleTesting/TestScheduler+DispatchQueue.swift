import Dispatch
import Reactive

extension TestScheduler {
    /// Uptime of frame 0 in the `DispatchQueue` stand-in: far enough from zero that frames
    /// before `^` (negative) are still valid `DispatchTime`s.
    static let dispatchBase: UInt64 = 1_000_000_000_000

    /// This clock as an `AnySchedulerOf<DispatchQueue>`, for app code that takes an injected
    /// `DispatchQueue` scheduler (`scheduler: AnySchedulerOf<DispatchQueue> = .main`): its times
    /// are `DispatchTime`s on the virtual clock (frame 0 at `dispatchBase`), and work runs at the
    /// first frame not before its time, as with the `TestScheduler` itself.
    public var dispatchQueue: AnySchedulerOf<DispatchQueue> {
        let base = Int64(Self.dispatchBase)
        func time(_ date: DispatchQueue.SchedulerTimeType) -> SchedulerTimeType {
            SchedulerTimeType(nanoseconds: Int(clamping: Int64(clamping: date.dispatchTime.uptimeNanoseconds) - base))
        }
        return AnyScheduler(
            minimumTolerance: { .nanoseconds(0) },
            // Weak: a pipeline that outlives its test scheduler schedules nothing more.
            now: { [weak self] in
                DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: UInt64(clamping: base + Int64(self?.now.nanoseconds ?? 0))))
            },
            scheduleImmediately: { [weak self] _, action in self?.schedule(action) },
            delayed: { [weak self] date, _, _, action in self?.schedule(after: time(date), action) },
            interval: { [weak self] date, interval, _, _, action in
                self?.schedule(after: time(date), interval: Stride(nanoseconds: interval.magnitude), action) ?? AnyCancellable {}
            }
        )
    }
}
