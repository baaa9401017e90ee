import Empty
import Testing
import XCTest

final class TrivialXCTests: XCTestCase {
    func testNothing() { XCTAssertEqual(answer, 42) }
}

@Test func nothing() { #expect(answer == 42) }
