import MarbleTesting
import SearchFeature
import Testing

/// A search service answering from marbles: one cold line per query (each request plays it
/// from the moment it is made).
final class FakeSearch {
    let scheduler: TestScheduler
    var answers: [String: TestPublisher<[String], SearchError>] = [:]
    init(_ scheduler: TestScheduler) { self.scheduler = scheduler }

    /// The answer to `query`: `marbles` over `values`, `#` failing with `SearchError("down")`.
    @discardableResult
    func answer(_ query: String, _ marbles: String, _ values: [Character: [String]] = [:]) -> TestPublisher<[String], SearchError> {
        let answer = scheduler.cold(marbles, values: values, error: SearchError("down"), name: "search(\"\(query)\")")
        answers[query] = answer
        return answer
    }

    func search(_ query: String) -> AnyPublisher<[String], SearchError> {
        (answers[query] ?? answer(query, "(e|)", ["e": []])).eraseToAnyPublisher()
    }
}

/// Frames of 100 ms: the debounce waits 3 frames.
@Suite struct SearchViewModelTests {
    let typed: [Character: String] = ["s": "s", "w": "sw", "f": "swift"]
    let shown: [Character: [String]] = ["e": [], "r": ["swift", "swiftui"], "o": SearchViewModel<TestScheduler>.offline]

    @Test func searchesOnceTheTypingPauses() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let api = FakeSearch(scheduler)
        api.answer("sw", "--r|", shown)
        let model = SearchViewModel(search: api.search, scheduler: scheduler)
        scheduler.send("-s-w", values: typed) { model.query = $0 }
        // [] at once; "" never reaches the search (typing restarts the wait at frame 1); "sw"
        // waits from 3 to 6, and its answer takes 2 frames.
        scheduler.expect(model.$results, "e-------r", values: shown)
        scheduler.run()
    }

    @Test func aLateAnswerToAnOldQueryIsDropped() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let api = FakeSearch(scheduler)
        let slow = api.answer("sw", "------r|", shown)
        api.answer("swift", "-r|", shown)
        let model = SearchViewModel(search: api.search, scheduler: scheduler)
        scheduler.send("-s-w---f", values: typed) { model.query = $0 }
        scheduler.expect(model.$results, "e----------r", values: shown)
        // "sw" was asked at frame 6 and cancelled when "swift" was asked at frame 10 (its answer
        // would have come at 12).
        scheduler.expect(slow.subscriptions, "------^---!")
        scheduler.run()
    }

    @Test func aFailedRequestIsTriedOnceMoreThenShowsOffline() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let api = FakeSearch(scheduler)
        let failing = api.answer("sw", "-#", shown)
        let model = SearchViewModel(search: api.search, scheduler: scheduler)
        scheduler.send("-s-w", values: typed) { model.query = $0 }
        scheduler.expect(model.$results, inOrder: "e o", values: shown)
        scheduler.expect(failing.subscriptions, "------^!", "-------^!")
        scheduler.run()
    }

    @Test func theSameQueryTwiceIsSearchedOnce() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let api = FakeSearch(scheduler)
        let answer = api.answer("sw", "-r|", shown)
        let model = SearchViewModel(search: api.search, scheduler: scheduler)
        // "sw", then "s" and back to "sw" within 300 ms: the debounced query is "sw" both times.
        scheduler.send("-w---s-w", values: typed) { model.query = $0 }
        scheduler.expect(answer.subscriptions, "----^-!")
        scheduler.run()
    }
}
