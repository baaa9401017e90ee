import Testing
import Reactive

/// `Optional.publisher` (OpenCombine `OptionalPublisherTests.swift`): a value then `.finished`
/// on the first request, nothing but `.finished` at once for `nil`.
@Suite struct OptionalPublisherTests {
    @Test func aValueIsPublishedOnTheFirstRequestThenFinishes() {
        let bench = Bench()
        #expect(bench.run(Optional("a").publisher) == "(a|)")
        let late = Bench()
        #expect(late.run(Optional("a").publisher, initialDemand: .none, requests: [(2, .max(1))]) == "--(a|)")
    }

    @Test func nilFinishesAtSubscriptionWithoutDemand() {
        let bench = Bench()
        #expect(bench.run(Optional<String>.none.publisher, initialDemand: .none, subscribeAt: 1) == "-|")
        #expect(String?.none.publisher.output == nil)
        #expect(Optional.Publisher("b").output == "b")
    }

    @Test func cancellingBeforeTheRequestSendsNothing() {
        let bench = Bench()
        #expect(bench.run(Optional("a").publisher, initialDemand: .none, cancelAt: 1, requests: [(2, .max(1))]) == "")
    }

    @Test func itNeverFails() {
        let publisher: AnyPublisher<Int, Never> = Optional(1).publisher.eraseToAnyPublisher()
        var values: [Int] = []
        let cancellable = publisher.sink { values.append($0) }
        #expect(values == [1])
        cancellable.cancel()
    }
}
