import Foundation

/// A point in wall-clock time, the time of `RunLoop` and `OperationQueue` as schedulers:
/// `RunLoop.SchedulerTimeType` is `DateSchedulerTime<RunLoop>`, `OperationQueue.SchedulerTimeType`
/// is `DateSchedulerTime<OperationQueue>`. Combine declares one struct per scheduler, of the same
/// shape; `Clock` keeps them (and their strides) distinct types here too, so that code can
/// overload on them.
public struct DateSchedulerTime<Clock>: Strideable, Hashable, Codable, Sendable {
    /// The date.
    public var date: Date

    public init(_ date: Date) { self.date = date }

    public func distance(to other: DateSchedulerTime) -> Stride { Stride(other.date.timeIntervalSince(date)) }
    public func advanced(by stride: Stride) -> DateSchedulerTime { DateSchedulerTime(date.addingTimeInterval(stride.timeInterval)) }

    /// An interval in seconds (`TimeInterval`); integer and float literals are seconds.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral, Hashable, Codable, Sendable {
        public typealias IntegerLiteralType = TimeInterval
        public typealias FloatLiteralType = TimeInterval
        public typealias Magnitude = TimeInterval

        /// The interval in seconds.
        public var magnitude: TimeInterval
        /// The interval in seconds.
        public var timeInterval: TimeInterval { magnitude }

        public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
        public init(integerLiteral value: TimeInterval) { magnitude = value }
        public init(floatLiteral value: TimeInterval) { magnitude = value }
        public init?<Source: BinaryInteger>(exactly source: Source) {
            guard let value = TimeInterval(exactly: source) else { return nil }
            magnitude = value
        }

        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
        public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
        public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
        public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
        public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude *= rhs.magnitude }

        public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
        public static func seconds(_ s: Double) -> Stride { Stride(s) }
        public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1e3) }
        public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1e6) }
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1e9) }
    }
}

/// The options of `RunLoop` and `OperationQueue` as schedulers: none yet (as in Combine).
public struct FoundationSchedulerOptions: Sendable {
    public init() {}
}
