import Testing
@testable import Reactive

@Suite struct BufferTests {
    @Test func asksUpstreamBeforeDownstreamGetsItsSubscription() {
        let lines = SequenceLines()
        let source = SequenceTestSource<Int, Never>()
        source.handleEvents(receiveRequest: { lines.append("upstream request \($0)") })
            .buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest)
            .subscribe(SequenceLogSubscriber<Int, Never>(initialDemand: .none, log: lines.append))
        #expect(lines.lines == ["upstream request max(3)", "downstream subscription"])

        let byRequest = SequenceTestSource<Int, Never>()
        byRequest.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest)
            .subscribe(SequenceLogSubscriber<Int, Never>(initialDemand: .max(1), log: { _ in }))
        #expect(byRequest.subscription.requests == [.unlimited])
        // Never finished, each chain would hold itself (every link holds the next, and is its subscription).
        source.send(completion: .finished)
        byRequest.send(completion: .finished)
    }

    @Test func passesThroughWhenDemandKeepsUp() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b-c-|").buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest)) == "-a-b-c-|")
    }

    @Test func dropNewestKeepsTheFirstValues() {
        let bench = Bench()
        let pipeline = bench.hot("-abcdef|").buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest)
        #expect(bench.run(pipeline, initialDemand: .none, requests: [(10, .max(3)), (12, .max(1))]) == "----------(abc)-|")
    }

    @Test func dropOldestKeepsTheLastValues() {
        let bench = Bench()
        let pipeline = bench.hot("-abcdef|").buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest)
        #expect(bench.run(pipeline, initialDemand: .none, requests: [(10, .max(3)), (12, .max(1))]) == "----------(def)-|")
    }

    @Test func customErrorCancelsUpstreamAndFailsOnTheNextRequest() {
        let bench = Bench()
        let log = SubscriptionLog()
        let pipeline = bench.hot("-abcdef|", log: log).buffer(size: 3, prefetch: .byRequest, whenFull: .customError { TestFailure("full") })
        // The request covers two values: they go, then the failure, and "c" is dropped.
        #expect(bench.run(pipeline, initialDemand: .none, requests: [(10, .max(2))]) == "----------(ab#{full})")
        #expect(render(log) == ["^---!"])
        let generous = Bench()
        let all = generous.hot("-abcdef|").buffer(size: 3, prefetch: .byRequest, whenFull: .customError { TestFailure("full") })
        #expect(generous.run(all, initialDemand: .none, requests: [(10, .max(5))]) == "----------(abc#{full})")
    }

    /// Apple never delivers the `.customError` failure unless downstream requests again
    /// (CombineX `SuspiciousBufferSpec`: 5 demand, 100 sends → 5 values, no error).
    @Test func customErrorWithoutAFurtherRequestIsNeverDelivered() {
        let source = SequenceTestSource<Int, TestFailure>()
        let lines = SequenceLines()
        source.buffer(size: 5, prefetch: .byRequest, whenFull: .customError { TestFailure("full") })
            .subscribe(SequenceLogSubscriber<Int, TestFailure>(initialDemand: .max(5), log: lines.append))
        for value in 0..<100 { source.offer(value) }
        #expect(lines.lines == ["downstream subscription"] + (0..<5).map { "downstream \($0)" })
        #expect(source.subscription.isCancelled)
    }

    @Test func upstreamFailureWithoutDemandGoesAtOnceDroppingTheBuffer() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-abc#").buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest), initialDemand: .none) == "----#")
    }

    @Test func finishedWaitsForTheBufferToDrainAndForDemand() {
        let bench = Bench()
        let pipeline = bench.hot("-abc|").buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest)
        let (events, subscriber) = bench.runKeepingSubscriber(pipeline, initialDemand: .none, requests: [(6, .max(1)), (8, .max(5))])
        #expect(events == "------a-(bc|)")
        #expect(subscriber.valuesWithoutDemand.isEmpty)
        // An empty buffer still holds `.finished` back while demand is zero.
        let empty = Bench()
        #expect(empty.run(empty.hot("-a-|").buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest), initialDemand: .max(1), requests: [(6, .max(1))]) == "-a----|")
    }

    @Test func cancellationDropsTheBufferAndReachesUpstream() {
        let bench = Bench()
        let log = SubscriptionLog()
        let pipeline = bench.hot("-abc-|", log: log).buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest)
        #expect(bench.run(pipeline, initialDemand: .none, cancelAt: 4, requests: [(6, .max(5))]) == "")
        #expect(render(log) == ["^---!"])
    }

    @Test func keepFullAsksForOneMoreForEachDeliveredValue() {
        let bench = Bench()
        var requests: [Subscribers.Demand] = []
        let pipeline = bench.hot("-ab--cd--|")
            .handleEvents(receiveRequest: { requests.append($0) })
            .buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest)
        // "d" is dropped by the subject itself: the buffer asked only for one more after "a" went.
        #expect(bench.run(pipeline, initialDemand: .none, requests: [(3, .max(1)), (10, .max(5))]) == "---a------(bc|)")
        #expect(requests == [.max(2), .max(1)])
    }

    /// CombineX `FailingBufferSpec` records Apple's requests: `.keepFull` asks for `size`, then for
    /// what one drain delivered; the values it delivers directly return `.max(1)` each.
    @Test func keepFullRequestPatternMatchesApple() {
        let source = SequenceTestSource<Int, Never>()
        let subscriber = SequenceLogSubscriber<Int, Never>(initialDemand: .max(5), log: { _ in }, demandFor: { [5, 10].contains($0) ? .max(5) : .none })
        source.buffer(size: 10, prefetch: .keepFull, whenFull: .dropOldest).subscribe(subscriber)
        for value in 0..<100 { source.offer(value) }
        subscriber.subscription?.request(.max(9))
        subscriber.subscription?.request(.max(5))
        #expect(source.subscription.requests == [.max(10), .max(10)])
        #expect(source.syncDemands == Array(repeating: .max(1), count: 5) + Array(repeating: .none, count: 10))
    }

    @Test func byRequestNeverAsksAgain() {
        let source = SequenceTestSource<Int, Never>()
        let subscriber = SequenceLogSubscriber<Int, Never>(initialDemand: .max(2), log: { _ in }, demandFor: { $0 == 5 ? .max(5) : .none })
        source.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        for value in 0..<100 { source.offer(value) }
        subscriber.subscription?.request(.max(2))
        #expect(source.subscription.requests == [.unlimited])
        #expect(source.syncDemands == Array(repeating: .none, count: 100))
    }

    @Test func requestsFromInsideDeliveryKeepTheOrder() {
        let source = SequenceTestSource<Int, Never>()
        let lines = SequenceLines()
        // Weak: the subscriber holds this closure.
        weak var current: SequenceLogSubscriber<Int, Never>?
        let subscriber = SequenceLogSubscriber<Int, Never>(initialDemand: .none, log: lines.append, demandFor: { _ in
            current?.subscription?.request(.max(1))
            return .none
        })
        current = subscriber
        source.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 0..<4 { source.send(value) }
        source.send(completion: .finished)
        subscriber.subscription?.request(.max(1))
        #expect(lines.lines == ["downstream subscription", "downstream 0", "downstream 1", "downstream 2", "downstream 3", "downstream finished"])
    }
}
