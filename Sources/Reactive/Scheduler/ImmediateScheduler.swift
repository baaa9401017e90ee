import Foundation

/// Runs every action at once, synchronously, whatever time it is asked for (Combine's
/// `ImmediateScheduler`): for code that takes a scheduler but should not hop in a test, and for
/// `subscribe(on:)`/`receive(on:)` that should change nothing. A repeating action runs once.
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The only instant of an immediate scheduler: every time is now.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        init() {}

        /// Always zero: all instants are the same.
        public func distance(to other: SchedulerTimeType) -> Stride { 0 }
        /// Always the same instant.
        public func advanced(by stride: Stride) -> SchedulerTimeType { self }

        /// An interval that the immediate scheduler ignores; it keeps the number it was made
        /// from so that arithmetic on it stays well defined. The unit factories make zero.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral, Hashable, Codable, Sendable {
            public typealias IntegerLiteralType = Int
            public typealias FloatLiteralType = Double
            public typealias Magnitude = Int

            /// The number the stride was made from.
            public var magnitude: Int

            public init(_ value: Int) { magnitude = value }
            public init(integerLiteral value: Int) { magnitude = value }
            /// The value, truncated to a whole number.
            public init(floatLiteral value: Double) { magnitude = Int(exactly: value.rounded(.towardZero)) ?? 0 }
            public init?<Source: BinaryInteger>(exactly source: Source) {
                guard let value = Int(exactly: source) else { return nil }
                magnitude = value
            }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude.addingClamped(rhs.magnitude)) }
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude.subtractingClamped(rhs.magnitude)) }
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude.multipliedClamped(by: rhs.magnitude)) }
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            public static func seconds(_ s: Int) -> Stride { 0 }
            public static func seconds(_ s: Double) -> Stride { 0 }
            public static func milliseconds(_ ms: Int) -> Stride { 0 }
            public static func microseconds(_ us: Int) -> Stride { 0 }
            public static func nanoseconds(_ ns: Int) -> Stride { 0 }
        }
    }

    /// The immediate scheduler has no options.
    public typealias SchedulerOptions = Never

    /// The one immediate scheduler.
    public static let shared = ImmediateScheduler()

    public var now: SchedulerTimeType { SchedulerTimeType() }
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs `action` now.
    public func schedule(options: Never?, _ action: @escaping () -> Void) { action() }

    /// Runs `action` now, whatever `date` says.
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs `action` once, now; the handle has nothing left to cancel.
    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) -> any Cancellable {
        action()
        return Subscriptions.empty
    }
}

/// An immediate scheduler with the time and options types of `Base` (combine-schedulers'
/// `ImmediateSchedulerOf<DispatchQueue>`, made by `DispatchQueue.immediate`): for code that takes
/// a `DispatchQueue`, `RunLoop` or `OperationQueue` scheduler and should not hop in a test. Every
/// action runs at once; `now` never moves; a repeating action runs once.
public struct ImmediateSchedulerOf<Base: Scheduler>: Scheduler {
    public typealias SchedulerTimeType = Base.SchedulerTimeType
    public typealias SchedulerOptions = Base.SchedulerOptions

    /// The one instant of this scheduler.
    public let now: SchedulerTimeType
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    public init(now: SchedulerTimeType) { self.now = now }

    /// Runs `action` now.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) { action() }

    /// Runs `action` now, whatever `date` says.
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs `action` once, now; the handle has nothing left to cancel.
    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                         _ action: @escaping () -> Void) -> any Cancellable {
        action()
        return Subscriptions.empty
    }
}

extension DispatchQueue {
    /// An immediate scheduler that stands in for a dispatch queue (its time is an uptime of 1 ns).
    public static var immediate: ImmediateSchedulerOf<DispatchQueue> { ImmediateSchedulerOf(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1))) }
}

extension RunLoop {
    /// An immediate scheduler that stands in for a run loop (its time is 1970-01-01).
    public static var immediate: ImmediateSchedulerOf<RunLoop> { ImmediateSchedulerOf(now: SchedulerTimeType(Date(timeIntervalSince1970: 0))) }
}

extension OperationQueue {
    /// An immediate scheduler that stands in for an operation queue (its time is 1970-01-01).
    public static var immediate: ImmediateSchedulerOf<OperationQueue> { ImmediateSchedulerOf(now: SchedulerTimeType(Date(timeIntervalSince1970: 0))) }
}
