import Testing
@testable import Reactive

/// The subject's single-subscriber fast path, a path `make bench` optimised.
@Suite struct SubjectFastPathTests {
    @Test func singleSubscriberRespectsBoundedDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let scheduler = VirtualTimeScheduler()
        let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler, initialDemand: .max(2))
        defer { letGo(scheduler, subscriber) }
        subject.subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        subscriber.request(.max(1))
        subject.send(6)
        subject.send(7)
        #expect(subscriber.events.compactMap { if case .value(let v) = $0.event { v } else { nil } } == [1, 2, 6])
        #expect(subscriber.valuesWithoutDemand.isEmpty)
    }

    @Test func demandReturnedFromReceiveIsAdded() {
        let subject = PassthroughSubject<Int, Never>()
        var got: [Int] = []
        subject.subscribe(AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { value in got.append(value); return value.isMultiple(of: 2) ? .max(1) : .none }))
        for value in [2, 4, 5, 6] { subject.send(value) }
        #expect(got == [2, 4, 5])
    }

    @Test func manySubscribersEachGetEveryValueInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        var cancellables: [AnyCancellable] = []
        for name in ["a", "b", "c"] {
            subject.sink { log.append("\(name)\($0)") }.store(in: &cancellables)
        }
        subject.send(1)
        cancellables[1].cancel()
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
        #expect(log == ["a1", "b1", "c1", "a2", "c2"])
    }
}

@Suite struct SubjectTests {
    @Test func passthroughDropsValuesWithoutDemand() {
        let bench = Bench()
        let subject = PassthroughSubject<String, TestFailure>()
        bench.scheduler.play(timeline("-a-b-c-d-|")) { event in
            if case .value(let v) = event { subject.send(v) } else if case .completion(let c) = event { subject.send(completion: c) }
        }
        #expect(bench.run(subject, initialDemand: .max(1), requests: [(4, .max(1))]) == "-a---c---|")
    }

    @Test func passthroughIgnoresSendsAfterCompletionAndFinishesLateSubscribers() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [String] = []
        subject.send(completion: .finished)
        subject.send(1)
        _ = subject.sink(receiveCompletion: { _ in received.append("finished") }, receiveValue: { received.append("\($0)") })
        #expect(received == ["finished"])
    }

    @Test func currentValueDeliversTheLatestOnRequest() {
        let bench = Bench()
        let subject = CurrentValueSubject<String, TestFailure>("i")
        bench.scheduler.schedule(at: 1) { subject.send("a") }
        bench.scheduler.schedule(at: 2) { subject.send("b") }
        bench.scheduler.schedule(at: 5) { subject.send(completion: .finished) }
        #expect(bench.run(subject, initialDemand: .none, requests: [(3, .max(1)), (4, .max(1))]) == "---b-|")
        #expect(subject.value == "b")
    }

    @Test func currentValueDoesNotReplayAfterCompletion() {
        let subject = CurrentValueSubject<Int, Never>(1)
        subject.send(completion: .finished)
        var received: [String] = []
        _ = subject.sink(receiveCompletion: { _ in received.append("finished") }, receiveValue: { received.append("\($0)") })
        #expect(received == ["finished"])
    }

    @Test func passthroughAsksItsUpstreamOnlyOnceASubscriberAsks() {
        let bench = Bench()
        let subject = PassthroughSubject<String, TestFailure>()
        let log = SubscriptionLog()
        var connection: AnyCancellable?
        bench.scheduler.schedule(at: 0) { connection = bench.cold("-a-b-c|", log: log).subscribe(subject) }
        defer { connection?.cancel() }
        #expect(bench.run(subject, initialDemand: .none, subscribeAt: 0, requests: [(4, .max(1)), (5, .unlimited)]) == "----ac|")
    }

    /// OpenCombine `PublisherTests.testSubscribeSubject` (run against Combine): cancelling
    /// `publisher.subscribe(subject)` makes the subject's subscriber forget the subject, so what
    /// the upstream still delivers (a delay whose upstream had completed) reaches no one.
    @Test func aCancelledSubscribeSubjectFeedsTheSubjectNothingMore() {
        let bench = Bench()
        let subject = PassthroughSubject<String, TestFailure>()
        var connection: AnyCancellable?
        bench.scheduler.schedule(at: 0) {
            connection = bench.hot("(a|)").delay(for: 2, scheduler: bench.scheduler).subscribe(subject)
        }
        bench.scheduler.schedule(at: 1) { connection?.cancel() }
        #expect(bench.run(subject, initialDemand: .unlimited) == "")
        // Not cancelled, the same upstream delivers.
        let other = Bench()
        let fed = PassthroughSubject<String, TestFailure>()
        var kept: AnyCancellable?
        other.scheduler.schedule(at: 0) { kept = other.hot("(a|)").delay(for: 2, scheduler: other.scheduler).subscribe(fed) }
        #expect(other.run(fed, initialDemand: .unlimited) == "--(a|)")
        _ = kept
    }

    /// A cancelled connection's late deliveries reach neither the multicast's subscribers nor
    /// those of a later connection through the same subject.
    @Test func aCancelledMulticastConnectionDoesNotFeedALaterConnectionsSubscribers() {
        let bench = Bench()
        let multicast = bench.hot("(a|)").delay(for: 2, scheduler: bench.scheduler).multicast(subject: PassthroughSubject())
        var first: (any Cancellable)?
        var second: (any Cancellable)?
        bench.scheduler.schedule(at: 0) { first = multicast.connect(); first?.cancel() }
        bench.scheduler.schedule(at: 1) { second = multicast.connect() }
        #expect(bench.run(multicast, initialDemand: .unlimited) == "---|")
        second?.cancel()
    }

    /// OpenCombine `PublisherTests.testSubjectSubscriber` (run against Combine): the subscriber
    /// that feeds a subject holds it weakly, so a subject nobody else holds goes away though its
    /// connection is still open. No marble test can see it (a `.marble` test holds its subjects
    /// to the end); the mutant `subject-subscriber-holds-subject` is pinned here.
    @Test func theSubscriberFeedingASubjectDoesNotKeepItAlive() {
        let upstream = PassthroughSubject<Int, Never>()
        weak var released: PassthroughSubject<Int, Never>?
        var connection: AnyCancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            released = subject
            connection = upstream.subscribe(subject)
        }
        #expect(released == nil)
        connection?.cancel()
    }

    /// A value sent into a subject while it delivers another is delivered at once, depth first:
    /// the subscriber that sent it sees it before the subject's other subscribers see the first
    /// (OpenCombine `PassthroughSubject.swift`: each conduit delivers under a recursive lock). A
    /// `.marble` file cannot send from inside a delivery, so the mutant
    /// `subject-send-during-delivery-queued` is pinned here.
    @Test func aSendDuringDeliveryIsDeliveredAtOnceDepthFirst() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let a = subject.sink { value in
            log.append("a\(value)")
            if value == 1 { subject.send(2) }
        }
        let b = subject.sink { log.append("b\($0)") }
        subject.send(1)
        #expect(log == ["a1", "a2", "b2", "b1"])
        a.cancel()
        b.cancel()
    }

    @Test func subscribersReceiveInSubscriptionOrder() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let a = subject.sink { log.append("a\($0)") }
        let b = subject.sink { log.append("b\($0)") }
        subject.send(1)
        a.cancel()
        subject.send(2)
        #expect(log == ["a1", "b1", "b2"])
        _ = b
    }
}
