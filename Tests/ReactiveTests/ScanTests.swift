import Testing
@testable import Reactive

@Suite struct ScanTests {
    private func counting<P: Publisher>(_ p: P) -> Publishers.Scan<P, Int> { p.scan(0) { count, _ in count + 1 } }

    @Test func emitsEveryPartialResultSynchronously() {
        let bench = Bench()
        #expect(bench.run(counting(bench.hot("-a-b-c-|"))) == "-1-2-3-|")
        let letters = Bench()
        #expect(letters.run(letters.hot("-a-b-|").scan("") { $0 + $1 }.map { $0.uppercased() }) == "-A-{AB}-|")
    }

    @Test func failurePassesThrough() {
        let bench = Bench()
        #expect(bench.run(counting(bench.hot("-a-#"))) == "-1-#")
    }

    @Test func cancelReachesUpstream() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(counting(bench.hot("-a-b-c-|", log: log)), cancelAt: 4) == "-1-2")
        #expect(render(log) == ["^---!"])
    }

    @Test func demandPassesThrough() {
        let bench = Bench()
        #expect(bench.run(counting(bench.cold("abc|")), initialDemand: .max(1), requests: [(5, .max(2))]) == "1----(23|)")
    }

    @Test func tryScanThrowCancelsUpstreamAndFails() {
        let bench = Bench()
        let log = SubscriptionLog()
        let pipeline = bench.hot("-a-b-c-|", log: log).tryScan(0) { count, value -> Int in
            if value == "b" { throw TestFailure("boom") }
            return count + 1
        }
        #expect(bench.run(pipeline) == "-1-#{boom}")
        #expect(render(log) == ["^--!"])
    }

    @Test func tryScanPassesUpstreamFailure() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-#").tryScan(0) { count, _ in count + 1 }) == "-1-#")
    }
}
