import MarbleReport
import VirtualClock

extension TestScheduler {
    /// Moves time forward by `duration` and runs the work due by then, as combine-schedulers'
    /// `TestScheduler.advance(by:)` does, for tests written step by step rather than with
    /// `expect` lines. Work runs in whole frames (at the first frame not before its time), so
    /// `now` stays at the last frame reached; advances shorter than a frame add up. Sources start
    /// playing at the first `advance` as at `run()`; expectations are still checked by `run()`.
    /// A run that a limit stops is recorded as a failure at this call.
    public func advance(by duration: Stride = Stride(nanoseconds: 0),
                        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        let reached = max(advancedNanoseconds, now.nanoseconds)
        let (target, overflow) = reached.addingReportingOverflow(duration.nanoseconds)
        advance(to: SchedulerTimeType(nanoseconds: overflow ? (duration.nanoseconds > 0 ? .max : .min) : target),
                fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Moves time forward to `time` and runs the work due by then (see `advance(by:)`); a time
    /// already passed runs only the work due now.
    public func advance(to time: SchedulerTimeType,
                        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        let target = max(time.nanoseconds, now.nanoseconds)
        advancedNanoseconds = target
        let location = MarbleSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        if let stop = play(until: Int(Int64(target) / frameNanoseconds), at: location) { TestLibrary.record(stop) }
    }
}
