import Dispatch

/// A closure handed to Dispatch, which wants `@Sendable` ones. Combine's schedulers take plain
/// closures and run them on their queue; the caller keeps what the closure touches confined to
/// that queue, as it would with Combine.
struct UncheckedAction: @unchecked Sendable {
    let run: () -> Void
}

extension DispatchQueue: Scheduler {
    /// A point in Dispatch's uptime clock (Combine's `DispatchQueue.SchedulerTimeType`).
    public struct SchedulerTimeType: Strideable, Hashable, Codable, Sendable {
        /// The Dispatch time.
        public var dispatchTime: DispatchTime

        public init(_ time: DispatchTime) { dispatchTime = time }

        public func distance(to other: SchedulerTimeType) -> Stride {
            let start = dispatchTime.uptimeNanoseconds, end = other.dispatchTime.uptimeNanoseconds
            let magnitude = end >= start ? end - start : start - end
            let nanoseconds = magnitude > UInt64(Int.max) ? Int.max : Int(magnitude)
            return .nanoseconds(end >= start ? nanoseconds : -nanoseconds)
        }

        public func advanced(by stride: Stride) -> SchedulerTimeType {
            let uptime = Int64(clamping: dispatchTime.uptimeNanoseconds)
            let (sum, overflow) = uptime.addingReportingOverflow(Int64(stride.magnitude))
            if overflow { return SchedulerTimeType(stride.magnitude > 0 ? .distantFuture : DispatchTime(uptimeNanoseconds: 0)) }
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: UInt64(Swift.max(0, sum))))
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(dispatchTime.uptimeNanoseconds) }
        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
        }

        public init(from decoder: any Decoder) throws {
            dispatchTime = DispatchTime(uptimeNanoseconds: try decoder.singleValueContainer().decode(UInt64.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// An interval in nanoseconds; integer and float literals are seconds, as in Combine.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral, Hashable, Codable, Sendable {
            public typealias IntegerLiteralType = Int
            public typealias FloatLiteralType = Double
            public typealias Magnitude = Int

            /// The interval in nanoseconds.
            public var magnitude: Int

            /// The interval as a `DispatchTimeInterval` (nanoseconds).
            public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

            private init(nanoseconds: Int) { magnitude = nanoseconds }

            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): self = .seconds(s)
                case .milliseconds(let ms): self = .milliseconds(ms)
                case .microseconds(let us): self = .microseconds(us)
                case .nanoseconds(let ns): self = .nanoseconds(ns)
                case .never: self = .nanoseconds(.max)
                @unknown default: self = .nanoseconds(.max)
                }
            }
            /// `timeInterval` seconds.
            public init(_ timeInterval: Double) { self = .seconds(timeInterval) }
            /// `timeInterval` seconds.
            public init(_ timeInterval: Int) { self = .seconds(timeInterval) }
            public init(floatLiteral value: Double) { self = .seconds(value) }
            public init(integerLiteral value: Int) { self = .seconds(value) }
            public init?<Source: BinaryInteger>(exactly source: Source) {
                guard let value = Int(exactly: source) else { return nil }
                self = .seconds(value)
            }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude.addingClamped(rhs.magnitude)) }
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude.subtractingClamped(rhs.magnitude)) }
            /// The product of the nanosecond counts.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: lhs.magnitude.multipliedClamped(by: rhs.magnitude)) }
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            public static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: s.multipliedClamped(by: 1_000_000_000)) }
            public static func seconds(_ s: Double) -> Stride {
                let nanoseconds = (s * 1e9).rounded(.towardZero)
                guard nanoseconds.isFinite else { return Stride(nanoseconds: nanoseconds.isNaN ? 0 : (nanoseconds > 0 ? .max : .min)) }
                return Stride(nanoseconds: nanoseconds >= Double(Int.max) ? .max : nanoseconds <= Double(Int.min) ? .min : Int(nanoseconds))
            }
            public static func milliseconds(_ ms: Int) -> Stride { Stride(nanoseconds: ms.multipliedClamped(by: 1_000_000)) }
            public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: us.multipliedClamped(by: 1_000)) }
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }
        }
    }

    /// How work is submitted to the queue (Combine's `DispatchQueue.SchedulerOptions`).
    public struct SchedulerOptions {
        /// The quality of service of the submitted work.
        public var qos: DispatchQoS
        /// The work item's flags (barrier, …).
        public var flags: DispatchWorkItemFlags
        /// A group the immediate work joins.
        public var group: DispatchGroup?

        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// Dispatch's uptime now.
    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }
    /// No tolerance is required.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// Runs `action` asynchronously on the queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let options = options ?? SchedulerOptions()
        let work = UncheckedAction(run: action)
        async(group: options.group, qos: options.qos, flags: options.flags) { work.run() }
    }

    /// Runs `action` on the queue at `date` (the tolerance is not passed to Dispatch).
    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let options = options ?? SchedulerOptions()
        let work = UncheckedAction(run: action)
        asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) { work.run() }
    }

    /// Runs `action` on the queue at `date`, then every `interval`, through a Dispatch timer
    /// that the handle cancels.
    public func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) -> any Cancellable {
        let options = options ?? SchedulerOptions()
        let timer = DispatchSource.makeTimerSource(queue: self)
        let work = UncheckedAction(run: action)
        timer.setEventHandler(qos: options.qos, flags: options.flags) { work.run() }
        timer.schedule(deadline: date.dispatchTime, repeating: interval.timeInterval, leeway: tolerance.timeInterval)
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}
