import Foundation
import Testing

/// A one-shot and a repeating `Timer` on the current run loop, each fired and gone (the first
/// by itself, the second invalidated): Foundation keeps both.
@Test func runLoopTimers() {
    final class Count: @unchecked Sendable { var fired = 0 }
    let runLoop = RunLoop.current
    let count = Count()
    runLoop.add(Timer(timeInterval: 0.005, repeats: false) { _ in count.fired += 1 }, forMode: .default)
    let repeating = Timer(timeInterval: 0.005, repeats: true) { _ in count.fired += 1 }
    runLoop.add(repeating, forMode: .default)
    let deadline = Date().addingTimeInterval(5)
    while count.fired < 3, Date() < deadline {
        _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.01))
    }
    repeating.invalidate()
    #expect(count.fired >= 3)
}
