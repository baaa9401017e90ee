#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Dispatch
import Foundation
import VirtualClock

extension TestScheduler {
    /// This clock with the time and options types of another scheduler (`DispatchQueue`,
    /// `RunLoop`, `OperationQueue`), for app code that takes that scheduler's type, or a type
    /// eraser over it (`AnySchedulerOf<DispatchQueue>`, `any Scheduler<DispatchQueue.SchedulerTimeType>`):
    /// its times are `Base`'s on the virtual clock (frame 0 at a fixed instant), and work runs at
    /// the first frame not before its time, as with the `TestScheduler` itself. Options are
    /// accepted and ignored. It holds its `TestScheduler` weakly: a pipeline that outlives the
    /// test schedules nothing more.
    public struct Of<Base: Scheduler>: Scheduler {
        public typealias SchedulerTimeType = Base.SchedulerTimeType
        public typealias SchedulerOptions = Base.SchedulerOptions

        weak var scheduler: TestScheduler?
        /// The instant `nanoseconds` after frame 0, and back.
        let time: (Int) -> SchedulerTimeType
        let nanoseconds: (SchedulerTimeType) -> Int

        init(_ scheduler: TestScheduler, time: @escaping (Int) -> SchedulerTimeType, nanoseconds: @escaping (SchedulerTimeType) -> Int) {
            self.scheduler = scheduler
            self.time = time
            self.nanoseconds = nanoseconds
        }

        /// The current frame's start.
        public var now: SchedulerTimeType { time(scheduler?.now.nanoseconds ?? 0) }
        /// Work runs exactly at its frame.
        public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

        /// Runs `action` at the current frame, after the work already queued for it.
        public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
            scheduler?.schedule(action)
        }

        /// Runs `action` at the first frame not before `date`.
        public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                             _ action: @escaping () -> Void) {
            scheduler?.schedule(after: TestScheduler.SchedulerTimeType(nanoseconds: nanoseconds(date)), action)
        }

        /// Runs `action` at the first frame not before `date`, then every `interval` (in whole
        /// frames, at least one), until the handle is cancelled.
        public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
                             options: SchedulerOptions?, _ action: @escaping () -> Void) -> any Cancellable {
            guard let scheduler else { return AnyCancellable {} }
            let start = nanoseconds(date)
            let every = nanoseconds(date.advanced(by: interval)).subtractingReportingOverflow(start).partialValue
            return scheduler.schedule(after: TestScheduler.SchedulerTimeType(nanoseconds: start),
                                      interval: TestScheduler.Stride(nanoseconds: every.magnitude > Int.max ? .max : Int(every.magnitude)), action)
        }
    }

    /// Uptime of frame 0 as a `DispatchTime`: far enough from zero that frames before `^`
    /// (negative) are still valid, and a whole number of mach ticks on Apple platforms (whose
    /// `DispatchTime` keeps ticks of 125/3 ns on Apple silicon).
    static let dispatchBase: Int64 = 1_000_000_000_000
    /// Frame 0 as a `Date`, for `RunLoop` and `OperationQueue`: Foundation's reference date,
    /// where a `Date` (seconds since it, in a `Double`) is exact to well below a nanosecond for
    /// any test's span (from 1970 it would be a tenth of a microsecond: 0.1 s would run a frame late).
    static let dateBase = Date(timeIntervalSinceReferenceDate: 0)

    /// This clock as a `DispatchQueue` scheduler (`DispatchQueue.SchedulerTimeType`, frame 0 at
    /// an uptime of 1,000 s): for app code that takes `S: Scheduler` where the app passes
    /// `DispatchQueue.main`, or, through `.eraseToAnyScheduler()`, an `AnySchedulerOf<DispatchQueue>`.
    public var dispatchQueue: Of<DispatchQueue> {
        Of(self, time: { nanoseconds in
            DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: UInt64(clamping: Self.dispatchBase.addingReportingOverflow(Int64(nanoseconds)).partialValue)))
        }, nanoseconds: { time in
            Int(clamping: Int64(clamping: time.dispatchTime.uptimeNanoseconds) - Self.dispatchBase)
        })
    }

    /// This clock as a `RunLoop` scheduler (`RunLoop.SchedulerTimeType`, frame 0 at 2001-01-01).
    public var runLoop: Of<RunLoop> {
        Of(self, time: { RunLoop.SchedulerTimeType(Self.date($0)) }, nanoseconds: { Self.nanoseconds(since: $0.date) })
    }

    /// This clock as an `OperationQueue` scheduler (`OperationQueue.SchedulerTimeType`, frame 0 at 2001-01-01).
    public var operationQueue: Of<OperationQueue> {
        Of(self, time: { OperationQueue.SchedulerTimeType(Self.date($0)) }, nanoseconds: { Self.nanoseconds(since: $0.date) })
    }

    static func date(_ nanoseconds: Int) -> Date {
        dateBase.addingTimeInterval(Double(nanoseconds) / 1e9)
    }

    /// Whole nanoseconds from frame 0 to `date` (saturating for `.distantFuture` and the like).
    static func nanoseconds(since date: Date) -> Int {
        Stride(floatLiteral: date.timeIntervalSince(dateBase)).nanoseconds
    }
}
