import Testing
@testable import Reactive

@Suite struct RetryTests {
    @Test func resubscribesAtTheFailureInstantUpToNTimes() {
        let bench = Bench()
        let log = SubscriptionLog()
        let pipeline = bench.cold("-a#", log: log).retry(2)
        #expect(bench.run(pipeline) == "-a-a-a#")
        #expect(render(log) == ["^-!", "--^-!", "----^-!"])
    }

    @Test func zeroRetriesForwardsTheFirstFailure() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.cold("-a#", log: log).retry(0)) == "-a#")
        #expect(render(log) == ["^-!"])
    }

    @Test func stopsRetryingOnceUpstreamSucceeds() {
        let bench = Bench()
        let log = SubscriptionLog()
        var attempt = 0
        let pipeline = Deferred { () -> SubscriptionRecorder<ColdTimeline<String, TestFailure>> in
            attempt += 1
            return bench.cold(attempt < 3 ? "-#" : "-x|", log: log)
        }.retry(5)
        #expect(bench.run(pipeline) == "---x|")
        #expect(log.spans.count == 3)
    }

    @Test func outstandingDemandIsRequestedAgain() {
        let bench = Bench()
        let pipeline = bench.cold("a-#").retry(1)
        // One value used one of the two: the new subscription is asked for the one left.
        #expect(bench.run(pipeline, initialDemand: .max(2)) == "a-a-#")
        let bench2 = Bench()
        // Nothing left: the new subscription is asked for nothing until downstream asks again.
        #expect(bench2.run(bench2.cold("ab#").retry(1), initialDemand: .max(2), requests: [(5, .max(1))]) == "ab---a")
    }

    @Test func cancellationReachesTheCurrentSubscription() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.cold("-a#", log: log).retry(3), cancelAt: 4) == "-a-a")
        #expect(render(log) == ["^-!", "--^-!"])
    }

    @Test func synchronousFailuresLoopWithoutRecursion() {
        let bench = Bench()
        let log = SubscriptionLog()
        let failing = SubscriptionRecorder(Fail<String, TestFailure>(error: TestFailure()), log: log, scheduler: bench.scheduler)
        #expect(bench.run(failing.retry(3)) == "#")
        #expect(render(log) == ["(^!)", "(^!)", "(^!)", "(^!)"])
    }

    /// Without a scheduler, an unbounded retry of a source that fails during `subscribe` makes
    /// at most `maxSynchronousResubscriptions` resubscriptions in one burst, then fails.
    @Test func unboundedRetryWithoutSchedulerIsCapped() {
        let bench = Bench()
        let log = SubscriptionLog()
        let failing = SubscriptionRecorder(Fail<String, TestFailure>(error: TestFailure()), log: log, scheduler: bench.scheduler)
        #expect(bench.run(failing.retry()) == "#")
        #expect(log.spans.count == Publishers.Retry<Fail<String, TestFailure>>.maxSynchronousResubscriptions + 1)
        #expect(bench.scheduler.stopReason == nil)
    }

    @Test func unboundedRetryIsStoppedByTheRunsLimits() {
        let bench = Bench()
        bench.scheduler.limits = .init(maxActionsPerInstant: 50)
        let log = SubscriptionLog()
        let failing = SubscriptionRecorder(Fail<String, TestFailure>(error: TestFailure()), log: log, scheduler: bench.scheduler)
        #expect(bench.run(failing.retry(scheduler: bench.scheduler)) == "")
        #expect(bench.scheduler.stopReason == .instantActionLimit(limit: 50, at: 0))
        #expect(log.spans.count < 60)
    }

    @Test func unboundedRetryOfALaterFailureRunsIntoTheTimeLimit() {
        let bench = Bench()
        bench.scheduler.limits = .init(maxTime: 9)
        let log = SubscriptionLog()
        #expect(bench.run(bench.cold("-a#", log: log).retry(scheduler: bench.scheduler)) == "-a-a-a-a-a")
        #expect(bench.scheduler.stopReason == .timeLimit(limit: 9))
        #expect(log.spans.count == 5)
    }
}
