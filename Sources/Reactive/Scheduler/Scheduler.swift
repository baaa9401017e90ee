/// A relative time that can be written in seconds, milliseconds, microseconds or nanoseconds
/// (Combine's `SchedulerTimeIntervalConvertible`): `.milliseconds(300)`, `.seconds(1.5)`.
public protocol SchedulerTimeIntervalConvertible {
    /// The interval `s` whole seconds long.
    static func seconds(_ s: Int) -> Self
    /// The interval `s` seconds long.
    static func seconds(_ s: Double) -> Self
    /// The interval `ms` milliseconds long.
    static func milliseconds(_ ms: Int) -> Self
    /// The interval `us` microseconds long.
    static func microseconds(_ us: Int) -> Self
    /// The interval `ns` nanoseconds long.
    static func nanoseconds(_ ns: Int) -> Self
}

/// Decides when and where work runs (Combine's `Scheduler`): at once, after a point in time,
/// or repeatedly. Time operators (`debounce`, `delay`, `receive(on:)`, …) are generic over it,
/// so the same pipeline runs on the virtual clock in tests and on a `DispatchQueue`, `RunLoop`
/// or `OperationQueue` in an app.
public protocol Scheduler<SchedulerTimeType> {
    /// A point in this scheduler's time; its `Stride` is the type of intervals.
    associatedtype SchedulerTimeType: Strideable where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible
    /// Scheduler-specific options (`Never` when there are none).
    associatedtype SchedulerOptions

    /// The time as this scheduler sees it now.
    var now: SchedulerTimeType { get }
    /// The smallest tolerance this scheduler honours.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Runs `action` as soon as possible.
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)
    /// Runs `action` once, at `date` or later (within `tolerance`).
    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void)
    /// Runs `action` at `date`, then every `interval`, until the returned handle is cancelled.
    func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) -> any Cancellable
}

extension Scheduler {
    /// Runs `action` as soon as possible, without options.
    @inlinable
    public func schedule(_ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    /// Runs `action` once, at `date` or later, with the minimum tolerance.
    @inlinable
    public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, action)
    }

    /// Runs `action` once, at `date` or later (within `tolerance`), without options.
    @inlinable
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` at `date`, then every `interval`, with the minimum tolerance.
    @inlinable
    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, _ action: @escaping () -> Void) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, action)
    }

    /// Runs `action` at `date`, then every `interval` (within `tolerance`), without options.
    @inlinable
    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }
}
