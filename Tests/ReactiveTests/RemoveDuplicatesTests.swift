import Testing
@testable import Reactive

@Suite struct RemoveDuplicatesTests {
    @Test func dropsConsecutiveEqualValues() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-a-b-b-a-|").removeDuplicates()) == "-a---b---a-|")
    }

    @Test func failureAndCancellation() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-a-#").removeDuplicates()) == "-a---#")
        let cancelled = Bench()
        let log = SubscriptionLog()
        #expect(cancelled.run(cancelled.hot("-a-b-c-|", log: log).removeDuplicates(), cancelAt: 2) == "-a")
        #expect(render(log) == ["^-!"])
    }

    @Test func droppedValuesAreAskedForAgain() {
        let bench = Bench()
        #expect(bench.run(bench.cold("aab|").removeDuplicates(), initialDemand: .max(2)) == "a-b|")
    }

    @Test func predicateGetsPreviousThenNew() {
        let bench = Bench()
        // "a" is dropped because "b" >= "a"; were the arguments swapped, "a" would pass.
        #expect(bench.run(bench.cold("bac|").removeDuplicates(by: { $0 >= $1 })) == "b-c|")
    }

    /// Disputed point: compare with the last *received* value (OpenCombine), not the last emitted
    /// (CombineX). With "neighbouring letters are duplicates", "c" follows the dropped "b".
    @Test func comparesWithTheLastReceivedValue() {
        let bench = Bench()
        let neighbours: (String, String) -> Bool = { lhs, rhs in
            guard let l = lhs.unicodeScalars.first?.value, let r = rhs.unicodeScalars.first?.value else { return false }
            return Swift.max(l, r) - Swift.min(l, r) <= 1
        }
        #expect(bench.run(bench.cold("abc|").removeDuplicates(by: neighbours)) == "a--|")
    }

    @Test func tryRemoveDuplicatesThrowCancelsUpstreamAndFails() {
        let bench = Bench()
        let log = SubscriptionLog()
        let pipeline = bench.hot("-a-a-b-|", log: log).tryRemoveDuplicates { (_: String, _: String) throws -> Bool in
            throw TestFailure("boom")
        }
        // The first value is never compared, so it passes; the throw comes with the second.
        #expect(bench.run(pipeline) == "-a-#{boom}")
        #expect(render(log) == ["^--!"])
        let plain = Bench()
        #expect(plain.run(plain.hot("-a-a-b-#").tryRemoveDuplicates(by: ==)) == "-a---b-#")
    }
}
