import Foundation
import MarbleTesting
import Testing

/// A scheduler allowing 50 actions an instant, with work that schedules itself again at the
/// same instant, forever.
func neverSettlingScheduler() -> TestScheduler {
    let scheduler = TestScheduler(limits: .init(maxActionsPerInstant: 50))
    let clock = scheduler.clock
    func spin() { clock.schedule(spin) }
    spin()
    return scheduler
}

/// The issues `body` records, each one expected (so the test itself does not fail on them).
/// A test using this must still check what it returns: an empty list means nothing failed.
func recordedIssues(_ body: () -> Void) -> [Issue] {
    let box = IssueBox()
    withKnownIssue(isIntermittent: true) {
        body()
    } matching: { issue in
        box.append(issue)
        return true
    }
    return box.issues
}

/// The same for an asynchronous body (its child tasks record into it too).
func recordedIssues(_ body: @Sendable () async -> Void) async -> [Issue] {
    let box = IssueBox()
    await withKnownIssue(isIntermittent: true) {
        await body()
    } matching: { issue in
        box.append(issue)
        return true
    }
    return box.issues
}

private final class IssueBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Issue] = []
    func append(_ issue: Issue) { lock.withLock { stored.append(issue) } }
    var issues: [Issue] { lock.withLock { stored } }
}

extension Issue {
    /// The recorded text.
    var message: String { comments.map(\.rawValue).joined(separator: "\n") }
}
