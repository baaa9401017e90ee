import MarbleTesting
import SearchFeature
import XCTest

/// The same view model under XCTest: MarbleTesting reports to whichever library runs the test.
final class SearchViewModelXCTests: XCTestCase {
    func testSearchesOnceTheTypingPauses() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let api = FakeSearch(scheduler)
        api.answer("swift", "--r|", ["r": ["swift", "swiftui"]])
        let model = SearchViewModel(search: api.search, scheduler: scheduler)
        scheduler.send("-s-w-f", values: ["s": "s", "w": "sw", "f": "swift"]) { model.query = $0 }
        scheduler.expect(model.$results, "e---------r", values: ["e": [], "r": ["swift", "swiftui"]])
        scheduler.run()
    }
}
