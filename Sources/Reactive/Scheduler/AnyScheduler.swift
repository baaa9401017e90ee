import Foundation

/// A scheduler whose concrete type is hidden, so that code can take an injected scheduler:
/// `DispatchQueue.main` in the app, the virtual clock (or an immediate scheduler) in tests. The
/// shape of combine-schedulers' `AnyScheduler`: two generic parameters, the time and the
/// options, and an initialiser from closures for schedulers built by hand.
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    private let minimumToleranceBody: () -> SchedulerTimeType.Stride
    private let nowBody: () -> SchedulerTimeType
    private let immediateBody: (SchedulerOptions?, @escaping () -> Void) -> Void
    private let delayedBody: (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void
    private let intervalBody: (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> any Cancellable

    /// A scheduler made of closures, one per requirement of `Scheduler`.
    public init(
        minimumTolerance: @escaping () -> SchedulerTimeType.Stride,
        now: @escaping () -> SchedulerTimeType,
        scheduleImmediately: @escaping (SchedulerOptions?, @escaping () -> Void) -> Void,
        delayed: @escaping (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void,
        interval: @escaping (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> any Cancellable
    ) {
        minimumToleranceBody = minimumTolerance
        nowBody = now
        immediateBody = scheduleImmediately
        delayedBody = delayed
        intervalBody = interval
    }

    /// Wraps `scheduler`; every call goes to it.
    public init<S: Scheduler>(_ scheduler: S) where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
        if let erased = scheduler as? AnyScheduler<SchedulerTimeType, SchedulerOptions> {
            self = erased
            return
        }
        minimumToleranceBody = { scheduler.minimumTolerance }
        nowBody = { scheduler.now }
        immediateBody = { scheduler.schedule(options: $0, $1) }
        delayedBody = { scheduler.schedule(after: $0, tolerance: $1, options: $2, $3) }
        intervalBody = { scheduler.schedule(after: $0, interval: $1, tolerance: $2, options: $3, $4) }
    }

    public var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceBody() }
    public var now: SchedulerTimeType { nowBody() }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        immediateBody(options, action)
    }

    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        delayedBody(date, tolerance, options, action)
    }

    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) -> any Cancellable {
        intervalBody(date, interval, tolerance, options, action)
    }
}

/// The type-erased scheduler with the time and options of `S`: `AnySchedulerOf<DispatchQueue>`.
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension Scheduler {
    /// This scheduler with its type hidden.
    public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
        AnyScheduler(self)
    }
}

// combine-schedulers' spellings for the schedulers an app injects: `scheduler: .main` in the
// app, `scheduler: .immediate` in a test (its AnyScheduler.swift and ImmediateScheduler.swift).
// On Apple platforms they come from combine-schedulers itself; Reactive declares them for the
// same code on Linux.

extension AnyScheduler where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
    /// The main dispatch queue, type-erased.
    public static var main: Self { DispatchQueue.main.eraseToAnyScheduler() }
    /// A global dispatch queue of the given quality of service, type-erased.
    public static func global(qos: DispatchQoS.QoSClass = .default) -> Self { DispatchQueue.global(qos: qos).eraseToAnyScheduler() }
    /// An immediate scheduler with a dispatch queue's time, type-erased (`DispatchQueue.immediate`).
    public static var immediate: Self { DispatchQueue.immediate.eraseToAnyScheduler() }
}

extension AnyScheduler where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
    /// The main run loop, type-erased.
    public static var main: Self { RunLoop.main.eraseToAnyScheduler() }
    /// An immediate scheduler with a run loop's time, type-erased (`RunLoop.immediate`).
    public static var immediate: Self { RunLoop.immediate.eraseToAnyScheduler() }
}

extension AnyScheduler where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
    /// The main operation queue, type-erased.
    public static var main: Self { OperationQueue.main.eraseToAnyScheduler() }
    /// An immediate scheduler with an operation queue's time, type-erased (`OperationQueue.immediate`).
    public static var immediate: Self { OperationQueue.immediate.eraseToAnyScheduler() }
}
