import Testing
@testable import Reactive

@Suite struct ShareTests {
    @Test func oneUpstreamSubscriptionForEverySubscriber() {
        let bench = Bench()
        let log = SubscriptionLog()
        let shared = bench.cold("-a-b-c|", log: log).share()
        let first = bench.attachTestSubscriber(shared)
        let second = bench.attachTestSubscriber(shared, at: 2)
        bench.scheduler.run()
        #expect(render(first.events) == "-a-b-c|")
        #expect(render(second.events) == "---b-c|")
        #expect(render(log) == ["^-----!"])
    }

    @Test func aSynchronousUpstreamReachesTheFirstSubscriberOnly() {
        let bench = Bench()
        let shared = Just("x").share()
        let first = bench.attachTestSubscriber(shared)
        let second = bench.attachTestSubscriber(shared)
        bench.scheduler.run()
        #expect(render(first.events) == "(x|)")
        #expect(render(second.events) == "|")
    }

    @Test func aLateSubscriberGetsTheCompletionAtOnceWithoutResubscribing() {
        let bench = Bench()
        let log = SubscriptionLog()
        let shared = bench.cold("-a|", log: log).share()
        let first = bench.attachTestSubscriber(shared)
        let late = bench.attachTestSubscriber(shared, at: 5)
        bench.scheduler.run()
        #expect(render(first.events) == "-a|")
        #expect(render(late.events) == "-----|")
        #expect(render(log) == ["^-!"])
    }

    @Test func aSubscriberWithoutDemandMissesValues() {
        let bench = Bench()
        let shared = bench.cold("-a-b-c-|").share()
        let eager = bench.attachTestSubscriber(shared)
        let lazy = bench.attachTestSubscriber(shared, initialDemand: .none, requests: [(4, .max(1))])
        bench.scheduler.run()
        #expect(render(eager.events) == "-a-b-c-|")
        #expect(render(lazy.events) == "-----c-|")
    }

    @Test func theLastCancelDisconnectsAndTheNextSubscriberReconnects() {
        let bench = Bench()
        let log = SubscriptionLog()
        let shared = bench.cold("-a-b-c|", log: log).share()
        let first = bench.attachTestSubscriber(shared, cancelAt: 2)
        let second = bench.attachTestSubscriber(shared, at: 1, cancelAt: 4)
        let third = bench.attachTestSubscriber(shared, at: 6)
        bench.scheduler.run()
        #expect(render(first.events) == "-a")
        #expect(render(second.events) == "-a-b")
        #expect(render(third.events) == "-------a-b-c|")
        #expect(render(log) == ["^---!", "------^-----!"])
    }

    @Test func aFailureReachesEverySubscriber() {
        let bench = Bench()
        let shared = bench.hot("-a-#").share()
        let first = bench.attachTestSubscriber(shared)
        let second = bench.attachTestSubscriber(shared, at: 2)
        bench.scheduler.run()
        #expect(render(first.events) == "-a-#")
        #expect(render(second.events) == "---#")
    }

    @Test func shareIsAClass() {
        let shared = Just(1).share()
        #expect(shared == shared)
        #expect(shared != Just(1).share())
    }
}

@Suite struct MulticastTests {
    @Test func nothingFlowsUntilConnect() {
        let bench = Bench()
        let log = SubscriptionLog()
        let multicast = bench.cold("-a-b|", log: log).multicast(subject: PassthroughSubject<String, TestFailure>())
        let first = bench.attachTestSubscriber(multicast)
        let second = bench.attachTestSubscriber(multicast, at: 1)
        var connection: (any Cancellable)?
        bench.scheduler.schedule(at: 3) { connection = multicast.connect() }
        bench.scheduler.run()
        #expect(render(first.events) == "----a-b|")
        #expect(render(second.events) == "----a-b|")
        #expect(render(log) == ["---^---!"])
        #expect(connection != nil)
    }

    @Test func cancellingTheConnectionDisconnects() {
        let bench = Bench()
        let log = SubscriptionLog()
        let multicast = bench.cold("-a-b-c|", log: log).multicast { PassthroughSubject<String, TestFailure>() }
        let subscriber = bench.attachTestSubscriber(multicast)
        var connection: (any Cancellable)?
        bench.scheduler.schedule(at: 0) { connection = multicast.connect() }
        bench.scheduler.schedule(at: 4) { connection?.cancel() }
        bench.scheduler.run()
        #expect(render(subscriber.events) == "-a-b")
        #expect(render(log) == ["^---!"])
    }

    @Test func theSubjectIsCreatedOnceAndLazily() {
        var created = 0
        let multicast = Just("x").multicast { () -> PassthroughSubject<String, Never> in
            created += 1
            return PassthroughSubject()
        }
        #expect(created == 0)
        let bench = Bench()
        let subscriber = bench.attachTestSubscriber(multicast)
        bench.scheduler.schedule(at: 1) { _ = multicast.connect() }
        bench.scheduler.run()
        #expect(created == 1)
        #expect(render(subscriber.events) == "-(x|)")
    }

    @Test func cancellingASubscriberLeavesTheOthers() {
        let bench = Bench()
        let multicast = bench.hot("-a-b-|").multicast(subject: PassthroughSubject())
        let first = bench.attachTestSubscriber(multicast, cancelAt: 2)
        let second = bench.attachTestSubscriber(multicast)
        bench.scheduler.schedule(at: 0) { _ = multicast.connect() }
        bench.scheduler.run()
        #expect(render(first.events) == "-a")
        #expect(render(second.events) == "-a-b-|")
    }
}

@Suite struct ConnectableTests {
    @Test func makeConnectableWaitsForConnect() {
        let bench = Bench()
        let log = SubscriptionLog()
        let connectable = bench.cold("-a|", log: log).replaceError(with: "?").makeConnectable()
        let subscriber = bench.attachTestSubscriber(connectable)
        bench.scheduler.schedule(at: 2) { _ = connectable.connect() }
        bench.scheduler.run()
        #expect(render(subscriber.events) == "---a|")
        #expect(render(log) == ["--^-!"])
    }

    @Test func autoconnectConnectsOnTheFirstSubscriberAndCountsOnlyCancels() {
        let bench = Bench()
        let log = SubscriptionLog()
        let auto = bench.cold("-a-b|", log: log).replaceError(with: "?").makeConnectable().autoconnect()
        let first = bench.attachTestSubscriber(auto, at: 1)
        let second = bench.attachTestSubscriber(auto, at: 3)
        // The completions did not count down: still connected, so no new upstream subscription.
        let late = bench.attachTestSubscriber(auto, at: 7)
        bench.scheduler.run()
        #expect(render(first.events) == "--a-b|")
        #expect(render(second.events) == "----b|")
        #expect(render(late.events) == "-------|")
        #expect(render(log) == ["-^---!"])
    }

    @Test func autoconnectDisconnectsWhenTheLastSubscriberCancels() {
        let bench = Bench()
        let log = SubscriptionLog()
        let auto = bench.cold("-a-b-c|", log: log).multicast(subject: PassthroughSubject()).autoconnect()
        let subscriber = bench.attachTestSubscriber(auto, cancelAt: 3)
        bench.scheduler.run()
        #expect(render(subscriber.events) == "-a")
        #expect(render(log) == ["^--!"])
    }
}
