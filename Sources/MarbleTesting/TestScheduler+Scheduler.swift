#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import VirtualClock

/// `TestScheduler` as a Combine-shaped `Scheduler`, for the code under test: its time is real
/// time (nanoseconds since frame 0), so `.milliseconds(300)` means 300 ms whatever the frame
/// length, and work runs on the virtual clock at the first frame not before its time (it never
/// runs early). Integer and float literals are seconds, as for `DispatchQueue` and `RunLoop`,
/// whose place this scheduler takes in tests.
extension TestScheduler: Scheduler {
    /// An instant: nanoseconds since frame 0 (negative before it).
    public struct SchedulerTimeType: Strideable, Hashable, Sendable, CustomStringConvertible {
        public var nanoseconds: Int

        public init(nanoseconds: Int) { self.nanoseconds = nanoseconds }

        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(nanoseconds: other.nanoseconds.subtractingReportingOverflow(nanoseconds).partialValue)
        }

        public func advanced(by stride: Stride) -> SchedulerTimeType {
            let (sum, overflow) = nanoseconds.addingReportingOverflow(stride.nanoseconds)
            return SchedulerTimeType(nanoseconds: overflow ? (stride.nanoseconds > 0 ? .max : .min) : sum)
        }

        public var description: String { "\(nanoseconds)ns" }

        /// An interval in nanoseconds; literals are seconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral, Hashable, Sendable,
            CustomStringConvertible {
            public typealias IntegerLiteralType = Int
            public typealias FloatLiteralType = Double
            public typealias Magnitude = Int

            public var nanoseconds: Int

            public init(nanoseconds: Int) { self.nanoseconds = nanoseconds }
            /// `seconds` seconds.
            public init(integerLiteral seconds: Int) { nanoseconds = Self.clamped(Double(seconds) * 1e9) }
            /// `seconds` seconds.
            public init(floatLiteral seconds: Double) { nanoseconds = Self.clamped(seconds * 1e9) }
            public init?<Source: BinaryInteger>(exactly source: Source) {
                guard let seconds = Int(exactly: source) else { return nil }
                self.init(integerLiteral: seconds)
            }

            public var magnitude: Int { nanoseconds == .min ? .max : abs(nanoseconds) }
            public var description: String { "\(nanoseconds)ns" }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: clamped(Double(lhs.nanoseconds) + Double(rhs.nanoseconds))) }
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: clamped(Double(lhs.nanoseconds) - Double(rhs.nanoseconds))) }
            /// Scales by `rhs` read as a plain number of nanoseconds (`SignedNumeric`'s `*`).
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: clamped(Double(lhs.nanoseconds) * Double(rhs.nanoseconds))) }
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            public static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: clamped(Double(s) * 1e9)) }
            public static func seconds(_ s: Double) -> Stride { Stride(nanoseconds: clamped(s * 1e9)) }
            public static func milliseconds(_ ms: Int) -> Stride { Stride(nanoseconds: ms.multipliedReportingOverflow(by: 1_000_000).overflow ? (ms > 0 ? .max : .min) : ms * 1_000_000) }
            public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: us.multipliedReportingOverflow(by: 1_000).overflow ? (us > 0 ? .max : .min) : us * 1_000) }
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }

            private static func clamped(_ value: Double) -> Int {
                guard value.isFinite else { return value.isNaN ? 0 : (value > 0 ? .max : .min) }
                if value >= Double(Int.max) { return .max }
                if value <= Double(Int.min) { return .min }
                return Int(value.rounded())
            }
        }
    }

    /// The test scheduler has no options.
    public typealias SchedulerOptions = Never

    /// The current frame's start.
    public var now: SchedulerTimeType {
        SchedulerTimeType(nanoseconds: Int(clamping: Int64(currentFrame).multipliedReportingOverflow(by: frameNanoseconds).partialValue))
    }

    /// Work runs exactly at its frame.
    public var minimumTolerance: SchedulerTimeType.Stride { Stride(nanoseconds: 0) }

    public typealias Stride = SchedulerTimeType.Stride

    /// Runs `action` at the current frame, after the work already queued for it.
    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        clock.schedule(action)
    }

    /// Runs `action` at the first frame not before `date`; the tolerance is ignored.
    public func schedule(after date: SchedulerTimeType, tolerance: Stride, options: Never?, _ action: @escaping () -> Void) {
        clock.schedule(at: frame(notBefore: date), action)
    }

    /// Runs `action` at the first frame not before `date`, then every `interval` (in whole
    /// frames, at least one), until the handle is cancelled.
    public func schedule(after date: SchedulerTimeType, interval: Stride, tolerance: Stride, options: Never?,
                         _ action: @escaping () -> Void) -> any Cancellable {
        ClockHandle(clock.schedule(at: frame(notBefore: date), interval: frames(notLessThan: interval), action))
    }

    /// The first frame whose start is not before `date`.
    func frame(notBefore date: SchedulerTimeType) -> VirtualTime {
        let (quotient, remainder) = Int64(date.nanoseconds).quotientAndRemainder(dividingBy: frameNanoseconds)
        return Int(quotient) + (remainder > 0 ? 1 : 0)
    }

    /// Whole frames covering `interval`.
    func frames(notLessThan interval: Stride) -> Int {
        let (quotient, remainder) = Int64(interval.nanoseconds).quotientAndRemainder(dividingBy: frameNanoseconds)
        return Int(quotient) + (remainder > 0 ? 1 : 0)
    }
}

/// The clock's handle on repeating work, as the engine's `Cancellable`. Like the clock's handle
/// (and a run loop's timer) it does not cancel when released: only `cancel()` stops the work.
final class ClockHandle: Cancellable {
    private let action: ScheduledAction
    init(_ action: ScheduledAction) { self.action = action }
    func cancel() { action.cancel() }
}
