// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Testing
@testable import Reactive

@Suite struct CatchTests {
    @Test func switchesToTheReplacementAtTheFailure() {
        let scheduler = TestScheduler()
        let upstream = scheduler.failingCold("-a-#"), replacement = scheduler.cold("-x|")
        scheduler.expect(upstream.catch { _ in replacement }, "-a--x|")
        scheduler.expect(upstream.subscriptions, "^--!")
        scheduler.expect(replacement.subscriptions, "---^-!")
        scheduler.run()
    }

    @Test func aFinishPassesAndTheHandlerIsNeverCalled() {
        let scheduler = TestScheduler()
        var calls = 0
        scheduler.expect(scheduler.failingCold("-a|").catch { _ -> Just<String> in
            calls += 1
            return Just("x")
        }, "-a|")
        scheduler.run()
        #expect(calls == 0)
    }

    @Test func theReplacementsCompletionIsFinal() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.failingCold("-#").catch { _ in Fail<String, TestFailure>(error: TestFailure("again")) }, "-#{again}",
                         errors: ["again": TestFailure("again")])
        scheduler.run()
    }

    @Test func outstandingDemandCarriesOver() {
        let scheduler = TestScheduler()
        let replacement = scheduler.cold("xyz|")
        scheduler.expect(scheduler.failingCold("-a-#").catch { _ in replacement }, "-a-x--(yz|)", demand: "2-----5")
        scheduler.expect(replacement.requests, "---1--5")
        scheduler.run()
    }

    @Test func cancellationReachesWhicheverUpstreamIsActive() {
        let scheduler = TestScheduler()
        let upstream = scheduler.failingCold("-a---#"), replacement = scheduler.cold("-x|")
        scheduler.expect(upstream.catch { _ in replacement }, "-a", subscription: "^--!")
        scheduler.expect(upstream.subscriptions, "^--!")
        scheduler.expect(replacement.subscriptions)

        let upstream2 = scheduler.failingCold("-#"), replacement2 = scheduler.cold("-x--y|")
        scheduler.expect(upstream2.catch { _ in replacement2 }, "--x", subscription: "^---!")
        scheduler.expect(upstream2.subscriptions, "^!")
        scheduler.expect(replacement2.subscriptions, "-^--!")
        scheduler.run()
    }

    @Test func tryCatchReplacesOrFailsWithTheThrownError() {
        // `tryCatch` fails with `any Error`, which is not Equatable: read as text.
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
#endif
