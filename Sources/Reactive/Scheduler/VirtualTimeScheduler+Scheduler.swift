/// The virtual clock as a Combine `Scheduler`: its time is a frame count, its intervals are
/// frames. Integer and float literals are frames (`debounce(for: 2, scheduler: virtual)` waits
/// two frames, as `2` means in a `.marble` file); `.seconds`, `.milliseconds`, `.microseconds`
/// and `.nanoseconds` count a frame as 1 ms (the `.marble` default `frame 1ms`) and round a
/// part-frame up to a whole one (work never runs before its time). A scheduler with another frame
/// length (MarbleTesting's `TestScheduler(frame:)`) converts durations to frames itself and
/// drives this clock by frame.
extension VirtualTimeScheduler: Scheduler {
    /// An instant on the virtual clock: a whole frame.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable, CustomStringConvertible {
        /// Frames since frame 0 (negative before it).
        public var frame: VirtualTime

        @inlinable
        public init(frame: VirtualTime) { self.frame = frame }

        @inlinable
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(frames: other.frame.subtractingClamped(frame))
        }

        @inlinable
        public func advanced(by stride: Stride) -> SchedulerTimeType {
            SchedulerTimeType(frame: frame.addingClamped(stride.frames))
        }

        /// The frame number, so that logs read as frames.
        public var description: String { String(frame) }

        /// An interval on the virtual clock, in whole frames.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral, Hashable, Sendable, CustomStringConvertible {
            public typealias IntegerLiteralType = Int
            public typealias FloatLiteralType = Double
            public typealias Magnitude = Int

            /// The number of frames.
            public var frames: Int

            /// The length of a frame for `.seconds`, `.milliseconds`, … (1 ms, the `.marble` default).
            public static let nanosecondsPerFrame = 1_000_000

            @inlinable
            public init(frames: Int) { self.frames = frames }

            /// `frames` frames (an integer literal is a frame count).
            @inlinable
            public init(integerLiteral frames: Int) { self.frames = frames }

            /// A frame count, rounded up to a whole frame.
            public init(floatLiteral frames: Double) { self.frames = Stride.roundedUp(frames) }

            public init?<Source: BinaryInteger>(exactly source: Source) {
                guard let frames = Int(exactly: source) else { return nil }
                self.frames = frames
            }

            public var magnitude: Int { frames.magnitude > UInt(Int.max) ? .max : Int(frames.magnitude) }

            public var description: String { "\(frames) frames" }

            @inlinable public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.frames < rhs.frames }
            @inlinable public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(frames: lhs.frames.addingClamped(rhs.frames)) }
            @inlinable public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(frames: lhs.frames.subtractingClamped(rhs.frames)) }
            @inlinable public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(frames: lhs.frames.multipliedClamped(by: rhs.frames)) }
            @inlinable public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            @inlinable public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            @inlinable public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            public static func seconds(_ s: Int) -> Stride { nanoseconds(s.multipliedClamped(by: 1_000_000_000)) }
            public static func seconds(_ s: Double) -> Stride { Stride(frames: roundedUp(s * 1e9 / Double(nanosecondsPerFrame))) }
            public static func milliseconds(_ ms: Int) -> Stride { nanoseconds(ms.multipliedClamped(by: 1_000_000)) }
            public static func microseconds(_ us: Int) -> Stride { nanoseconds(us.multipliedClamped(by: 1_000)) }
            public static func nanoseconds(_ ns: Int) -> Stride {
                let (whole, part) = ns.quotientAndRemainder(dividingBy: nanosecondsPerFrame)
                return Stride(frames: part > 0 ? whole + 1 : whole)
            }

            /// `frames` rounded up to a whole number, saturating at the ends of `Int`.
            static func roundedUp(_ frames: Double) -> Int {
                let rounded = frames.rounded(.up)
                guard rounded.isFinite else { return rounded.isNaN ? 0 : (rounded > 0 ? .max : .min) }
                if rounded >= Double(Int.max) { return .max }
                if rounded <= Double(Int.min) { return .min }
                return Int(rounded)
            }
        }
    }

    /// The virtual clock has no options.
    public typealias SchedulerOptions = Never

    /// The current frame.
    public var now: SchedulerTimeType { SchedulerTimeType(frame: currentFrame) }

    /// Work runs exactly at its frame: no tolerance.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs `action` at the current frame, after the work already queued for it.
    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        schedule(action)
    }

    /// Runs `action` at `date`'s frame (or now, if that is past); the tolerance is ignored.
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) {
        enqueue(at: Swift.max(date.frame, currentFrame), sequence: reserveSequence(count: 1), interval: 0, action: action, token: nil)
    }

    /// Runs `action` at `date`'s frame, then every `interval` frames (at least 1), keeping its
    /// first place in each frame's order; the handle cancels it.
    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) -> any Cancellable {
        schedule(at: date.frame, interval: interval.frames, action)
    }
}

extension Int {
    /// Subtraction that saturates instead of trapping.
    @inlinable
    func subtractingClamped(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    /// Multiplication that saturates instead of trapping.
    @inlinable
    func multipliedClamped(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}
