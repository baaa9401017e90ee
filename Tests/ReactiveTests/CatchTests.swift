import Testing
@testable import Reactive

@Suite struct CatchTests {
    @Test func switchesToTheReplacementAtTheFailure() {
        let bench = Bench()
        let upstreamLog = SubscriptionLog(), replacementLog = SubscriptionLog()
        let pipeline = bench.cold("-a-#", log: upstreamLog).catch { _ in bench.cold("-x|", log: replacementLog) }
        #expect(bench.run(pipeline) == "-a--x|")
        #expect(render(upstreamLog) == ["^--!"])
        #expect(render(replacementLog) == ["---^-!"])
    }

    @Test func aFinishPassesAndTheHandlerIsNeverCalled() {
        let bench = Bench()
        var calls = 0
        let pipeline = bench.cold("-a|").catch { _ -> Just<String> in
            calls += 1
            return Just("x")
        }
        #expect(bench.run(pipeline) == "-a|")
        #expect(calls == 0)
    }

    @Test func theReplacementsCompletionIsFinal() {
        let bench = Bench()
        let pipeline = bench.cold("-#").catch { _ in Fail<String, TestFailure>(error: TestFailure("again")) }
        #expect(bench.run(pipeline) == "-#{again}")
    }

    @Test func outstandingDemandCarriesOver() {
        let bench = Bench()
        let pipeline = bench.cold("-a-#").catch { _ in bench.cold("xyz|") }
        #expect(bench.run(pipeline, initialDemand: .max(2), requests: [(6, .max(5))]) == "-a-x--(yz|)")
    }

    @Test func cancellationReachesWhicheverUpstreamIsActive() {
        let bench = Bench()
        let upstreamLog = SubscriptionLog(), replacementLog = SubscriptionLog()
        let before = bench.cold("-a---#", log: upstreamLog).catch { _ in bench.cold("-x|", log: replacementLog) }
        #expect(bench.run(before, cancelAt: 3) == "-a")
        #expect(render(upstreamLog) == ["^--!"])
        #expect(render(replacementLog) == [])

        let bench2 = Bench()
        let upstreamLog2 = SubscriptionLog(), replacementLog2 = SubscriptionLog()
        let after = bench2.cold("-#", log: upstreamLog2).catch { _ in bench2.cold("-x--y|", log: replacementLog2) }
        #expect(bench2.run(after, cancelAt: 4) == "--x")
        #expect(render(upstreamLog2) == ["^!"])
        #expect(render(replacementLog2) == ["-^--!"])
    }

    @Test func tryCatchReplacesOrFailsWithTheThrownError() {
        let bench = Bench()
        let replaced = bench.cold("-#").tryCatch { _ in bench.cold("-x|") }
        #expect(bench.run(replaced) == "--x|")
        let bench2 = Bench()
        let thrown = bench2.cold("-a-#").tryCatch { _ -> Just<String> in throw TestFailure("thrown") }
        #expect(bench2.run(thrown) == "-a-#{thrown}")
        let bench3 = Bench()
        let replacementFails = bench3.cold("-#").tryCatch { _ in bench3.cold("-#") }
        #expect(bench3.run(replacementFails) == "--#")
    }
}
