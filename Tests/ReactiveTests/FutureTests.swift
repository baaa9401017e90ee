import Testing
@testable import Reactive

@Suite struct FutureTests {
    @Test func runsEagerlyOnceAndSharesTheResult() {
        var calls = 0
        let future = Future<String, Never> { promise in
            calls += 1
            promise(.success("a"))
            promise(.success("b"))
        }
        #expect(calls == 1)
        let bench = Bench()
        #expect(bench.run(future) == "(a|)")
        let again = Bench()
        #expect(again.run(future, subscribeAt: 3) == "---(a|)")
        #expect(calls == 1)
    }

    @Test func deliversWhenThePromiseIsCalled() {
        let bench = Bench()
        let future = Future<String, TestFailure> { promise in
            bench.scheduler.schedule(at: 3) { promise(.success("a")) }
        }
        #expect(bench.run(future) == "---(a|)")
    }

    @Test func everyWaitingSubscriberGetsTheValue() {
        let scheduler = VirtualTimeScheduler()
        let future = Future<String, TestFailure> { promise in
            scheduler.schedule(at: 3) { promise(.success("a")) }
        }
        let first = TestSubscriber<String, TestFailure>(scheduler: scheduler)
        let second = TestSubscriber<String, TestFailure>(scheduler: scheduler)
        scheduler.schedule(at: 0) { future.subscribe(first) }
        scheduler.schedule(at: 1) { future.subscribe(second) }
        scheduler.run()
        #expect(render(first.events) == "---(a|)")
        #expect(render(second.events) == "---(a|)")
    }

    @Test func aValueWaitsForDemand() {
        let bench = Bench()
        let future = Future<String, TestFailure> { promise in
            bench.scheduler.schedule(at: 3) { promise(.success("a")) }
        }
        let (events, subscriber) = bench.runKeepingSubscriber(future, initialDemand: .none, requests: [(6, .max(1))])
        #expect(events == "------(a|)")
        #expect(subscriber.valuesWithoutDemand.isEmpty)
        let resolved = Future<String, TestFailure> { $0(.success("b")) }
        let early = Bench()
        #expect(early.run(resolved, initialDemand: .none, requests: [(2, .max(1))]) == "--(b|)")
    }

    @Test func aFailureGoesWithoutDemand() {
        let bench = Bench()
        let future = Future<String, TestFailure> { promise in
            bench.scheduler.schedule(at: 3) { promise(.failure(TestFailure())) }
        }
        #expect(bench.run(future, initialDemand: .none) == "---#")
        let failed = Future<String, TestFailure> { $0(.failure(TestFailure())) }
        let late = Bench()
        #expect(late.run(failed, initialDemand: .none, subscribeAt: 2) == "--#")
    }

    @Test func aCancelledSubscriberGetsNothing() {
        let bench = Bench()
        let future = Future<String, TestFailure> { promise in
            bench.scheduler.schedule(at: 3) { promise(.success("a")) }
        }
        #expect(bench.run(future, cancelAt: 2) == "")
    }
}
