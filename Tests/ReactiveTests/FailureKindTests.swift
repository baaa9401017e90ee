import Testing
@testable import Reactive

/// An `X`/`TryX` pair written as one generic publisher (`DropWhileOrTry`, …) still tells its
/// twins apart where Combine does: `print` names the subscription after the operator called.
@Suite struct FailureKindTests {
    private static func subscriptionName<P: Publisher>(_ publisher: P) -> String? {
        let lines = SequenceLines()
        _ = publisher.print(to: lines.append).sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        return lines.lines.first
    }

    @Test func eachTwinIsNamedAfterItsOperator() {
        let numbers = [3, 1, 2].publisher
        let names = [
            Self.subscriptionName(numbers.drop(while: { $0 > 2 })),
            Self.subscriptionName(numbers.tryDrop(while: { $0 > 2 })),
            Self.subscriptionName(numbers.prefix(while: { $0 > 0 })),
            Self.subscriptionName(numbers.tryPrefix(while: { $0 > 0 })),
            Self.subscriptionName(numbers.removeDuplicates()),
            Self.subscriptionName(numbers.tryRemoveDuplicates(by: ==)),
            Self.subscriptionName(numbers.first(where: { $0 < 2 })),
            Self.subscriptionName(numbers.tryLast(where: { $0 < 2 })),
            Self.subscriptionName(numbers.reduce(0, +)),
            Self.subscriptionName(numbers.tryReduce(0, +)),
            Self.subscriptionName(numbers.allSatisfy { $0 > 0 }),
            Self.subscriptionName(numbers.tryContains { $0 > 2 }),
            Self.subscriptionName(numbers.min(by: <)),
            Self.subscriptionName(numbers.tryMax(by: <)),
            Self.subscriptionName(numbers.tryFilter { $0 > 0 }),
            Self.subscriptionName(numbers.tryMap { $0 }),
        ]
        #expect(names.map { $0 ?? "(none)" } == [
            "DropWhile", "TryDropWhile", "PrefixWhile", "TryPrefixWhile", "RemoveDuplicates", "TryRemoveDuplicates",
            "FirstWhere", "TryLastWhere", "Reduce", "TryReduce", "AllSatisfy", "TryContainsWhere",
            "Comparison", "TryComparison", "TryFilter", "TryMap",
        ].map { "receive subscription: (\($0))" })
    }

    /// Upstream failing with `any Error` makes `DropWhile` and `TryDropWhile` the same type;
    /// the method called still decides which twin it is.
    @Test func anErasedFailureUpstreamKeepsTheTwinsApart() {
        let erased = [1, 2].publisher.setFailureType(to: (any Error).self)
        #expect(Self.subscriptionName(erased.drop(while: { $0 < 2 })) == "receive subscription: (DropWhile)")
        #expect(Self.subscriptionName(erased.tryDrop(while: { $0 < 2 })) == "receive subscription: (TryDropWhile)")
        #expect(Self.subscriptionName(Publishers.DropWhile(upstream: erased, predicate: { $0 < 2 })) == "receive subscription: (DropWhile)")
    }

    /// A throw from the shared links' closures reaches downstream as the error thrown.
    @Test func aThrowFailsWithTheErrorThrown() {
        let bench = Bench()
        let dropping = bench.hot("-a-b-|").tryDrop { value in
            if value == "b" { throw TestFailure("drop") }
            return true
        }
        #expect(bench.run(dropping) == "---#{drop}")
        let reducing = Bench()
        let allSatisfy = reducing.hot("-a-b-|").tryAllSatisfy { value in
            if value == "b" { throw TestFailure("all") }
            return true
        }
        #expect(reducing.run(allSatisfy) == "---#{all}")
    }
}
