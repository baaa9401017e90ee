import Testing
@testable import Reactive

@Suite struct DemandTests {
    @Test func unlimitedAbsorbsEverything() {
        #expect(Subscribers.Demand.unlimited + .max(3) == .unlimited)
        #expect(Subscribers.Demand.max(3) + .unlimited == .unlimited)
        #expect(Subscribers.Demand.unlimited - .max(3) == .unlimited)
        #expect(Subscribers.Demand.unlimited * 2 == .unlimited)
    }

    @Test func boundedArithmetic() {
        #expect(Subscribers.Demand.max(2) + .max(3) == .max(5))
        #expect(Subscribers.Demand.max(2) + 1 == .max(3))
        #expect(Subscribers.Demand.max(5) - .max(3) == .max(2))
        #expect(Subscribers.Demand.max(3) * 4 == .max(12))
    }

    @Test func subtractionClampsAtNone() {
        #expect(Subscribers.Demand.max(1) - .max(3) == .none)
        #expect(Subscribers.Demand.max(1) - .unlimited == .none)
        #expect(Subscribers.Demand.max(-4) == .none)
    }

    @Test func overflowBecomesUnlimited() {
        #expect(Subscribers.Demand.max(Int.max) + .max(1) == .unlimited)
        #expect(Subscribers.Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
    }

    @Test func ordering() {
        #expect(Subscribers.Demand.none < .max(1))
        #expect(Subscribers.Demand.max(1_000_000) < .unlimited)
        #expect(!(Subscribers.Demand.unlimited < .unlimited))
        #expect(Subscribers.Demand.max(2) > 1)
        #expect(Subscribers.Demand.unlimited > 1_000)
        #expect(Subscribers.Demand.none == 0)
        #expect(Subscribers.Demand.unlimited.description == "unlimited")
        #expect(Subscribers.Demand.max(3).description == "max(3)")
    }
}
