import Foundation

extension Timer {
    /// A connectable publisher of the date of each tick, every `interval` seconds on `runLoop`
    /// (Foundation's `Timer.publish(every:tolerance:on:in:options:)`). Start it with `connect()`
    /// or `autoconnect()`. Ticks happen only while the run loop runs. In tests, use the scheduler's
    /// `timerPublisher(every:)` on the virtual clock instead.
    public static func publish(every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop, in mode: RunLoop.Mode, options: RunLoop.SchedulerOptions? = nil) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode, options: options)
    }

    /// The publisher of `Timer.publish(every:on:in:)`: ticks from `connect()`, the first one
    /// `interval` after it, to the subscribers with demand at that moment; never finishes.
    public final class TimerPublisher: ConnectablePublisher {
        public typealias Output = Date
        public typealias Failure = Never

        /// Seconds between ticks.
        public let interval: TimeInterval
        /// How late a tick may be.
        public let tolerance: TimeInterval?
        /// The run loop the timer runs on.
        public let runLoop: RunLoop
        /// The run loop mode of the timer.
        public let mode: RunLoop.Mode
        /// Not used (Combine's run loop has no options either).
        public let options: RunLoop.SchedulerOptions?
        private let ticks: Publishers.Timer<RunLoopInMode>

        public init(interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode, options: RunLoop.SchedulerOptions? = nil) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
            ticks = Publishers.Timer(every: .init(interval), tolerance: tolerance.map { .init($0) }, scheduler: RunLoopInMode(runLoop: runLoop, mode: mode), options: options)
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            ticks.map(\.date).receive(subscriber: subscriber)
        }

        public func connect() -> any Cancellable { ticks.connect() }
    }
}

/// A run loop scheduling its timers in one mode (the `in:` of `Timer.publish`).
struct RunLoopInMode: Scheduler {
    let runLoop: RunLoop
    let mode: RunLoop.Mode

    var now: RunLoop.SchedulerTimeType { runLoop.now }
    var minimumTolerance: RunLoop.SchedulerTimeType.Stride { runLoop.minimumTolerance }

    func schedule(options: FoundationSchedulerOptions?, _ action: @escaping () -> Void) {
        runLoop.schedule(options: options, action)
    }

    func schedule(after date: RunLoop.SchedulerTimeType, tolerance: RunLoop.SchedulerTimeType.Stride, options: FoundationSchedulerOptions?, _ action: @escaping () -> Void) {
        runLoop.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    func schedule(after date: RunLoop.SchedulerTimeType, interval: RunLoop.SchedulerTimeType.Stride, tolerance: RunLoop.SchedulerTimeType.Stride, options: FoundationSchedulerOptions?, _ action: @escaping () -> Void) -> any Cancellable {
        runLoop.addTimer(at: date, interval: interval, tolerance: tolerance, mode: mode, action)
    }
}
