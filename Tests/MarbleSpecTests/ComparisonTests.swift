import Testing
import Reactive
@testable import MarbleSpec

/// `Comparison.same` replaces `Array.==` on the hot path of every passing check: it must say
/// "different" for every kind of difference.
@Suite struct ComparisonTests {
    typealias Events = [TimedEvent<Value, StreamError>]
    let base: Events = [TimedEvent(1, .value(.int(1))), TimedEvent(2, .value(.string("a"))), TimedEvent(3, .completion(.finished))]

    @Test func equalTimelinesAreTheSame() {
        #expect(Comparison.same(base, base))
        #expect(Comparison.same([], []))
    }

    @Test func everyKindOfDifferenceIsSeen() {
        var later = base; later[0] = TimedEvent(2, .value(.int(1)))
        var otherValue = base; otherValue[1] = TimedEvent(2, .value(.string("b")))
        var otherType = base; otherType[0] = TimedEvent(1, .value(.string("1")))
        var failed = base; failed[2] = TimedEvent(3, .completion(.failure(StreamError.default)))
        var failedOtherwise = failed; failedOtherwise[2] = TimedEvent(3, .completion(.failure(StreamError(.string("boom")))))
        for other in [later, otherValue, otherType, failed, Array(base.dropLast()), base + [TimedEvent(4, .value(.int(9)))]] {
            #expect(!Comparison.same(base, other))
            #expect(!Comparison.same(other, base))
        }
        #expect(!Comparison.same(failed, failedOtherwise))
        #expect(Comparison.same(failed, failed))
    }
}
