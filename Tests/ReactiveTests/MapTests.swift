import Testing
@testable import Reactive

@Suite struct MapTests {
    @Test func mapFilterCompactMap() {
        let bench = Bench()
        let pipeline = bench.hot("-a-b-c-|").map { $0.uppercased() }.filter { $0 != "B" }
        #expect(bench.run(pipeline) == "-A---C-|")
    }

    @Test func tryMapFailsAndCancelsUpstream() {
        let bench = Bench()
        let log = SubscriptionLog()
        let pipeline = bench.hot("-a-b-c-|", log: log).tryMap { value -> String in
            if value == "b" { throw TestFailure("boom") }
            return value
        }
        #expect(bench.run(pipeline) == "-a-#{boom}")
        #expect(render(log) == ["^--!"])
    }
}
