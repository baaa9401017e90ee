import MarbleTesting
import XCTest

/// The same expectations under XCTest: failures arrive through `XCTFail(_:file:line:)`.
/// `recordFailure` is overridden to catch them while `capturing` is set (and still fail the
/// test for anything unexpected), so the message and line can be checked.
final class XCTestReportingTests: XCTestCase {
    private var capturing = false
    private var captured: [(description: String, file: String, line: Int)] = []

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturing else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append((description, filePath, lineNumber))
    }

    private func capture(_ body: () -> Void) -> [(description: String, file: String, line: Int)] {
        capturing = true
        body()
        capturing = false
        defer { captured = [] }
        return captured
    }

    func testAPassingExpectationRecordsNothing() {
        let failures = capture {
            let scheduler = TestScheduler(frame: .milliseconds(100))
            let typing = scheduler.hot("-a-b-c-----d--e-|")
            scheduler.expect(typing.debounce(for: .milliseconds(300), scheduler: scheduler), "--------c-------|")
            scheduler.run()
        }
        XCTAssertEqual(failures.count, 0)
    }

    func testAFailingExpectationIsReportedWithTheDiffAtItsLine() {
        var line = 0
        let failures = capture {
            let scheduler = TestScheduler(frame: .milliseconds(100))
            let typing = scheduler.hot("-a-b-c-----d--e-|", name: "typing")
            line = #line + 1
            scheduler.expect(typing.debounce(for: .milliseconds(300), scheduler: scheduler), "--------c-------e|", name: "query")
            scheduler.run()
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.line, line)
        XCTAssertEqual(failures.first?.file, #filePath)
        XCTAssertEqual(failures.first?.description.contains("""
            query did not emit the expected marbles:

              typing     -a-b-c-----d--e-|
              expected   --------c-------e|
              actual     --------c-------|
                                         ^ frame 16: expected e, got finished
                                          ^ frame 17: expected finished, got nothing
                         (query had already finished at frame 16)
            """), true, failures.first?.description ?? "")
    }

    func testABrokenContractIsReportedAtTheCheck() {
        var line = 0
        let failures = capture {
            line = #line + 1
            PublisherContract.check("eager") { _ in Eager() }
        }
        XCTAssertEqual(failures.map(\.line), [line])
        // Eager sends two values on subscription: with demand .max(1), the second is one too many.
        XCTAssertEqual(failures.first?.description.components(separatedBy: "\n").prefix(2), [
            "failed - eager breaks the publisher contract:",
            "  frame 0: no value beyond demand — a value arrived beyond the demand (none was outstanding)",
        ])
    }

    func testAMistakeInTheMarblesIsReportedAtTheCallThatPassedIt() {
        var line = 0
        let failures = capture {
            let scheduler = TestScheduler()
            line = #line + 1
            _ = scheduler.hot("-a-(b-|")
            scheduler.run()
        }
        XCTAssertEqual(failures.map(\.line), [line])
        XCTAssertEqual(failures.first?.description, """
            failed - error in hot marbles: a group cannot contain '-'
              "-a-(b-|"
                    ^
                    a group occupies one frame; close it with ')' before '-'
            """)
    }
}

/// Sends 1 and 2 on subscription, whatever the demand.
private struct Eager: Publisher {
    typealias Output = Int
    typealias Failure = Never
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Subscriptions.empty)
        _ = subscriber.receive(1)
        _ = subscriber.receive(2)
        subscriber.receive(completion: .finished)
    }
}
