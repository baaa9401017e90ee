import Foundation
import Testing

/// Runs `/bin/true` twenty times and waits for each: now and then Foundation's `Process.run()`
/// leaves a weak reference's side table behind.
@Test func processRun() throws {
    for _ in 0..<20 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
