import MarbleTesting
import Testing
@testable import Reactive

/// Events as `value@frame` / `|@frame` / `#@frame`, for outputs the one-character dialect
/// cannot show (arrays, numbers, several events in one frame whose order matters).
func trace<Output, Failure>(_ events: [TimedEvent<Output, Failure>]) -> [String] {
    events.map { event in
        switch event.event {
        case .value(let value):
            if let array = value as? [String] { return array.joined() + "@\(event.time)" }
            if let array = value as? [Int] { return array.map(String.init).joined(separator: ",") + "@\(event.time)" }
            return "\(value)@\(event.time)"
        case .completion(.finished): return "|@\(event.time)"
        case .completion(.failure): return "#@\(event.time)"
        }
    }
}

extension Bench {
    /// Like `run`, but returns the subscriber, for `trace` and for checks on its bookkeeping.
    func subscriber<P: Publisher>(_ publisher: P, initialDemand: Subscribers.Demand = .unlimited, subscribeAt: Int = 0, cancelAt: Int? = nil, requests: [(Int, Subscribers.Demand)] = [], until deadline: Int? = nil) -> TestSubscriber<P.Output, P.Failure> {
        let subscriber = TestSubscriber<P.Output, P.Failure>(scheduler: scheduler, initialDemand: initialDemand)
        scheduler.schedule(at: subscribeAt) { publisher.subscribe(subscriber) }
        for (time, demand) in requests { scheduler.schedule(at: time) { subscriber.request(demand) } }
        if let cancelAt { scheduler.schedule(at: cancelAt) { subscriber.cancel() } }
        scheduler.run(until: deadline)
        return subscriber
    }
}

// MARK: - debounce

@Suite struct DebounceTests {
    // Written with MarbleTesting: a marble for the source, the output and the subscription.
    @Test func emitsAfterAQuietPeriod() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b----c---|")
        scheduler.expect(source.debounce(for: 3, scheduler: scheduler.clock), "------b----c|")
        scheduler.expect(source.subscriptions, "^-----------!")
        scheduler.run()
    }
    @Test func completionDropsThePendingValue() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("-a-b|").debounce(for: 3, scheduler: scheduler.clock), "----|")
        scheduler.run()
    }

    @Test func failureDropsThePendingValue() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b#", values: [Character: String](), error: TestFailure())
        scheduler.expect(source.debounce(for: 3, scheduler: scheduler.clock), "----#", error: TestFailure())
        scheduler.run()
    }

    @Test func completionAndZeroDueTimeGoByHop() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, TestFailure>()
        let subscriber = TestSubscriber<String, TestFailure>(scheduler: scheduler)
        subject.debounce(for: 0, scheduler: scheduler).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 2) {
            subject.send("a")
            subject.send(completion: .finished)
            seenInline = subscriber.events.count
        }
        scheduler.run()
        #expect(seenInline == 0)
        // The value was pending when the completion came: dropped.
        #expect(trace(subscriber.events) == ["|@2"])
    }

    @Test func aCancelAfterUpstreamCompletedDoesNotStopTheCompletionHop() {
        // OpenCombine: once upstream has completed, cancel is a no-op.
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        subject.debounce(for: 2, scheduler: scheduler).subscribe(subscriber)
        scheduler.schedule(at: 1) {
            subject.send(completion: .finished)
            subscriber.cancel()
        }
        scheduler.run()
        #expect(trace(subscriber.events) == ["|@1"])
    }

    @Test func zeroDueTimeStillHops() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        subject.debounce(for: 0, scheduler: scheduler).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 2) {
            subject.send("a")
            seenInline = subscriber.events.count
        }
        scheduler.run()
        #expect(seenInline == 0)
        #expect(trace(subscriber.events) == ["a@2"])
    }

    @Test func cancelDropsThePendingValue() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b-----|")
        scheduler.expect(source.debounce(for: 3, scheduler: scheduler.clock), "-", subscription: "^----!")
        scheduler.expect(source.subscriptions, "^----!")
        scheduler.run()
    }

    @Test func valuesDueWithoutDemandAreDropped() {
        let scheduler = TestScheduler()
        // `a` falls due at 3 with no demand: gone for good, the request at 6 does not bring it back.
        scheduler.expect(scheduler.hot("-a------b-----|").debounce(for: 2, scheduler: scheduler.clock), "----------b---|", demand: "------1")
        scheduler.run()
        let bench2 = Bench()
        let subscriber = bench2.subscriber(bench2.hot("-a---b---|").debounce(for: 2, scheduler: bench2.scheduler), initialDemand: .max(1))
        #expect(trace(subscriber.events) == ["a@3", "|@9"])
        #expect(subscriber.valuesWithoutDemand.isEmpty)
    }

    @Test func asksUpstreamForEverything() {
        let scheduler = TestScheduler()
        // A cold source sends only what is asked for: `c` (the third value) comes through with a
        // downstream demand of 2 because debounce asked for everything.
        let source = scheduler.cold("a--bc----|")
        scheduler.expect(source.debounce(for: 2, scheduler: scheduler.clock), "--a---c--|", demand: "2")
        scheduler.expect(source.requests, "*")
        scheduler.run()
    }
}

// MARK: - throttle

@Suite struct ThrottleTests {
    /// heckj/swiftui-notes `DebounceAndThrottleTests`, measured on iOS 14.1–14.4: a `@Published`
    /// seeded with -1, throttled by 500 ms; one frame here is 100 ms.
    private func measuredRun(latest: Bool, sends: [(Int, Int)]) -> [String] {
        let scheduler = VirtualTimeScheduler()
        let published = CurrentValueSubject<Int, Never>(-1)
        let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
        published.throttle(for: 5, scheduler: scheduler, latest: latest).subscribe(subscriber)
        for (time, value) in sends { scheduler.schedule(at: time) { published.value = value } }
        scheduler.run()
        return trace(subscriber.events)
    }

    @Test func measuredIOS14LatestFalse() {
        #expect(measuredRun(latest: false, sends: [(1, 1), (2, 2), (6, 3), (7, 4), (9, 5), (13, 6)])
                == ["-1@0", "1@5", "3@10", "6@15"])
    }

    @Test func measuredIOS14LatestTrue() {
        #expect(measuredRun(latest: true, sends: [(1, 1), (2, 2), (6, 3), (7, 4), (9, 5), (12, 6)])
                == ["-1@0", "2@5", "5@10", "6@15"])
    }

    @Test func theLeadingValueGoesByHop() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        subject.throttle(for: 3, scheduler: scheduler, latest: true).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 1) {
            subject.send("a")
            seenInline = subscriber.events.count
        }
        scheduler.run()
        #expect(seenInline == 0)
        #expect(trace(subscriber.events) == ["a@1"])
    }

    @Test func sameInstantValuesCollapse() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-(abc)-|").throttle(for: 3, scheduler: bench.scheduler, latest: true)) == "-c-|")
        let bench2 = Bench()
        #expect(bench2.run(bench2.hot("-(abc)-|").throttle(for: 3, scheduler: bench2.scheduler, latest: false)) == "-a-|")
    }

    @Test func latestFalseStillSendsTheFirstValueAfterTheLastEmission() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-abc------|").throttle(for: 4, scheduler: bench.scheduler, latest: false)) == "-a---b----|")
        let bench2 = Bench()
        #expect(bench2.run(bench2.hot("-abc------|").throttle(for: 4, scheduler: bench2.scheduler, latest: true)) == "-a---c----|")
    }

    @Test func completionWaitsForThePendingValue() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-ab|").throttle(for: 4, scheduler: bench.scheduler, latest: true)) == "-a---(b|)")
    }

    @Test func failureWaitsForThePendingValue() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-ab#").throttle(for: 4, scheduler: bench.scheduler, latest: true)) == "-a---(b#)")
    }

    @Test func completionWithNothingPendingGoesByHop() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, TestFailure>()
        let subscriber = TestSubscriber<String, TestFailure>(scheduler: scheduler)
        subject.throttle(for: 3, scheduler: scheduler, latest: false).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 2) {
            subject.send(completion: .failure(TestFailure()))
            seenInline = subscriber.events.count
        }
        scheduler.run()
        #expect(seenInline == 0)
        #expect(trace(subscriber.events) == ["#@2"])
    }

    @Test func valuesWithoutDemandAreDropped() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b---c--|").throttle(for: 2, scheduler: bench.scheduler, latest: true),
                          initialDemand: .max(1), requests: [(6, .max(1))]) == "-a-----c--|")
    }

    @Test func theDemandCheckComesBeforeTheLatestReplacement() {
        let bench = Bench()
        // `b` takes the last unit of demand; `c` finds none, so it is dropped rather than replacing `b`.
        let subscriber = bench.subscriber(bench.hot("-abc-----|").throttle(for: 4, scheduler: bench.scheduler, latest: true), initialDemand: .max(2))
        #expect(trace(subscriber.events) == ["a@1", "b@5", "|@9"])
        #expect(subscriber.valuesWithoutDemand.isEmpty)
    }

    @Test func cancelDropsThePendingValue() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-ab-----|", log: log).throttle(for: 4, scheduler: bench.scheduler, latest: true), cancelAt: 3) == "-a")
        #expect(render(log) == ["^--!"])
    }

    @Test func cancelAfterUpstreamCompletedStillDropsThePendingEmission() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-ab|").throttle(for: 4, scheduler: bench.scheduler, latest: true), cancelAt: 4) == "-a")
    }
}

// MARK: - delay

@Suite struct DelayTests {
    @Test func shiftsValuesAndCompletion() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b--|", log: log).delay(for: 2, scheduler: bench.scheduler)) == "---a-b--|")
        #expect(render(log) == ["^-----!"])
    }

    @Test func failureIsDelayedToo() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a#").delay(for: 3, scheduler: bench.scheduler)) == "----a#")
    }

    @Test func equalDueTimesKeepArrivalOrder() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-(ab)|").delay(for: 2, scheduler: bench.scheduler)) == "---(ab)|")
    }

    @Test func zeroDelayHops() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        subject.delay(for: 0, scheduler: scheduler).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 1) {
            subject.send("a")
            seenInline = subscriber.events.count
        }
        scheduler.run()
        #expect(seenInline == 0)
        #expect(trace(subscriber.events) == ["a@1"])
    }

    @Test func cancelDropsUndeliveredValues() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b---|", log: log).delay(for: 3, scheduler: bench.scheduler), cancelAt: 5) == "----a")
        #expect(render(log) == ["^----!"])
    }

    @Test func cancelAfterUpstreamCompletedIsANoOp() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a|", log: log).delay(for: 3, scheduler: bench.scheduler), cancelAt: 3) == "----a|")
        #expect(render(log) == ["^-!"])
    }

    @Test func demandPassesThrough() {
        let bench = Bench()
        // The cold source holds `b` and its completion until the request at 5.
        #expect(bench.run(bench.cold("ab|").delay(for: 2, scheduler: bench.scheduler),
                          initialDemand: .max(1), requests: [(5, .max(1))]) == "--a----(b|)")
    }

    @Test func demandReturnedByDownstreamIsAskedOfUpstreamAfterDelivery() {
        let scheduler = VirtualTimeScheduler()
        var received: [String] = []
        let subscriber = AnySubscriber<String, TestFailure>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { value in
                received.append("\(value)@\(scheduler.currentFrame)")
                return .max(1)
            })
        ColdTimeline(timeline("abc|"), scheduler: scheduler).delay(for: 2, scheduler: scheduler).subscribe(subscriber)
        scheduler.run()
        // Each value unlocks the next one only when it is delivered, 2 frames after it left.
        #expect(received == ["a@2", "b@4", "c@6"])
    }
}

// MARK: - timeout

@Suite struct TimeoutTests {
    @Test func finishesNormallyWhenUpstreamStaysSilent() {
        let bench = Bench()
        let log = SubscriptionLog()
        // OpenCombine `testBasicBehavior`: values at 10 and 11 with an interval of 13 → timeout at 24.
        #expect(bench.run(bench.hot("----------ab---------------|", log: log).timeout(13, scheduler: bench.scheduler))
                == "----------ab------------|")
        #expect(render(log) == ["^" + String(repeating: "-", count: 23) + "!"])
    }

    @Test func failsWithTheCustomError() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a------|").timeout(3, scheduler: bench.scheduler, customError: { TestFailure("timeout") })) == "-a--#{timeout}")
    }

    @Test func valuesGoByHop() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        subject.timeout(5, scheduler: scheduler).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 1) {
            subject.send("a")
            seenInline = subscriber.events.count
        }
        scheduler.schedule(at: 2) { subject.send(completion: .finished) }
        scheduler.run()
        #expect(seenInline == 0)
        #expect(trace(subscriber.events) == ["a@1", "|@2"])
    }

    @Test func upstreamCompletionPassesAndStopsTheClock() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a|", log: log).timeout(5, scheduler: bench.scheduler)) == "-a|")
        #expect(render(log) == ["^-!"])
        #expect(!bench.scheduler.hasPendingWork)
        let bench2 = Bench()
        #expect(bench2.run(bench2.hot("-a#").timeout(5, scheduler: bench2.scheduler, customError: { TestFailure("timeout") })) == "-a#")
    }

    @Test func theClockRestartsAtTheFirstRequest() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("---------|", log: log).timeout(3, scheduler: bench.scheduler), initialDemand: .none, requests: [(2, .max(1))]) == "-----|")
        #expect(render(log) == ["^----!"])
        let bench2 = Bench()
        // Only the first request restarts it.
        #expect(bench2.run(bench2.hot("---------|").timeout(3, scheduler: bench2.scheduler), initialDemand: .none,
                           requests: [(2, .max(1)), (4, .max(1))]) == "-----|")
    }

    @Test func cancelStopsEverything() {
        let bench = Bench()
        let log = SubscriptionLog()
        let subscriber = bench.subscriber(bench.hot("-a---|", log: log).timeout(3, scheduler: bench.scheduler), cancelAt: 2)
        #expect(trace(subscriber.events) == ["a@1"])
        #expect(render(log) == ["^-!"])
        #expect(!bench.scheduler.hasPendingWork)
    }

    @Test func cancelBeforeTheCompletionHopDropsIt() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        subject.timeout(5, scheduler: scheduler).subscribe(subscriber)
        scheduler.schedule(at: 1) {
            subject.send(completion: .finished)
            subscriber.cancel()
        }
        scheduler.run()
        #expect(subscriber.events.isEmpty)
    }

    @Test func demandPassesThrough() {
        let bench = Bench()
        let log = SubscriptionLog()
        // Only `a` is asked for; the cold source holds the rest, and the silence ends the stream.
        #expect(bench.run(bench.cold("abc|", log: log).timeout(10, scheduler: bench.scheduler), initialDemand: .max(1)) == "a---------|")
        #expect(render(log) == ["^---------!"])
    }
}

// MARK: - measureInterval

@Suite struct MeasureIntervalTests {
    @Test func measuresFromTheSubscriptionThenBetweenValues() {
        let bench = Bench()
        #expect(bench.run(bench.hot("---a--b-|").measureInterval(using: bench.scheduler).map { String($0.frames) }, subscribeAt: 1) == "---2--3-|")
    }

    @Test func sameFrameValuesMeasureZeroAndFailurePasses() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-(ab)#").measureInterval(using: bench.scheduler).map { String($0.frames) }) == "-(10)#")
    }

    @Test func isSynchronous() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<Int, Never>(scheduler: scheduler)
        subject.measureInterval(using: scheduler).map(\.frames).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 4) {
            subject.send("a")
            seenInline = subscriber.events.count
        }
        scheduler.run()
        #expect(seenInline == 1)
        #expect(trace(subscriber.events) == ["4@4"])
    }

    @Test func demandPassesThrough() {
        let bench = Bench()
        #expect(bench.run(bench.cold("ab|").measureInterval(using: bench.scheduler).map { String($0.frames) },
                          initialDemand: .max(1), requests: [(4, .max(1))]) == "0---(4|)")
    }

    @Test func cancelReachesUpstream() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a--b|", log: log).measureInterval(using: bench.scheduler).map { String($0.frames) }, cancelAt: 3) == "-1")
        #expect(render(log) == ["^--!"])
    }
}

// MARK: - receive(on:) / subscribe(on:)

@Suite struct ReceiveOnTests {
    @Test func sameFramesInOrder() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-(bc)#", log: log).receive(on: bench.scheduler)) == "-a-(bc)#")
        #expect(render(log) == ["^---!"])
    }

    @Test func subscriptionIsSynchronousEventsHopBehindQueuedWork() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        var log: [String] = []
        let subscriber = AnySubscriber<String, Never>(
            receiveSubscription: { log.append("subscription"); $0.request(.unlimited) },
            receiveValue: { log.append("value \($0)"); return .none },
            receiveCompletion: { _ in log.append("finished") })
        subject.receive(on: scheduler).subscribe(subscriber)
        #expect(log == ["subscription"])
        scheduler.schedule(at: 1) {
            scheduler.schedule { log.append("queued earlier") }
            subject.send("a")
            subject.send(completion: .finished)
            log.append("sent")
        }
        scheduler.run()
        #expect(log == ["subscription", "sent", "queued earlier", "value a", "finished"])
    }

    @Test func cancelDropsQueuedValues() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        subject.receive(on: scheduler).subscribe(subscriber)
        scheduler.schedule(at: 1) {
            subject.send("a")
            subscriber.cancel()
        }
        scheduler.run()
        #expect(subscriber.events.isEmpty)
    }

    @Test func cancelAfterUpstreamCompletedIsANoOp() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        subject.receive(on: scheduler).subscribe(subscriber)
        scheduler.schedule(at: 1) {
            subject.send("a")
            subject.send(completion: .finished)
            subscriber.cancel()
        }
        scheduler.run()
        #expect(trace(subscriber.events) == ["a@1", "|@1"])
    }

    @Test func demandPassesThroughAndCancelReachesUpstream() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.cold("abc|", log: log).receive(on: bench.scheduler), initialDemand: .max(1), cancelAt: 5, requests: [(3, .max(1))]) == "a--b")
        #expect(render(log) == ["^----!"])
    }
}

@Suite struct SubscribeOnTests {
    @Test func subscribesByHop() {
        let scheduler = VirtualTimeScheduler()
        let log = SubscriptionLog()
        let source = SubscriptionRecorder(PassthroughSubject<String, Never>(), log: log, scheduler: scheduler)
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        var seenInline: (Bool, Int) = (true, -1)
        scheduler.schedule(at: 2) {
            source.subscribe(on: scheduler).subscribe(subscriber)
            seenInline = (subscriber.subscribedAt != nil, log.spans.count)
        }
        scheduler.run()
        #expect(seenInline == (false, 0))
        #expect(subscriber.subscribedAt == 2)
        #expect(render(log) == ["--^"])
    }

    @Test func valuesAndCompletionAreSynchronous() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b|").subscribe(on: bench.scheduler)) == "-a-b|")
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        subject.subscribe(on: scheduler).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 1) {
            subject.send("a")
            seenInline = subscriber.events.count
        }
        scheduler.run()
        #expect(seenInline == 1)
    }

    @Test func requestsHop() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler, initialDemand: .none)
        subject.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.schedule(at: 1) {
            subscriber.request(.max(2))
            subject.send("a") // the request has not reached the subject yet: dropped
        }
        scheduler.schedule(at: 2) { subject.send("b") }
        scheduler.run()
        #expect(trace(subscriber.events) == ["b@2"])
    }

    @Test func cancelHopsAndDropsValuesInBetween() {
        let scheduler = VirtualTimeScheduler()
        let log = SubscriptionLog()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        SubscriptionRecorder(subject, log: log, scheduler: scheduler).subscribe(on: scheduler).subscribe(subscriber)
        var openInline = false
        scheduler.schedule(at: 3) {
            subscriber.cancel()
            subject.send("a") // still subscribed upstream, but dropped
            openInline = log.spans.first?.end == nil
        }
        scheduler.run()
        #expect(openInline)
        #expect(subscriber.events.isEmpty)
        #expect(render(log) == ["^--!"])
    }
}

// MARK: - collect(.byTime / .byTimeOrCount)

@Suite struct CollectByTimeTests {
    @Test func emitsEachNonEmptyWindow() {
        let bench = Bench()
        let log = SubscriptionLog()
        let subscriber = bench.subscriber(bench.hot("-ab-c------d|", log: log).collect(.byTime(bench.scheduler, 3)))
        // Windows end at 3, 6, 9, 12; the ones at 6 and 9 are empty and emit nothing.
        #expect(trace(subscriber.events) == ["ab@3", "c@6", "d@12", "|@12"])
        #expect(render(log) == ["^-----------!"])
    }

    /// CombineX `CollectByTimeSpec` 1.1 and 1.2 (interval 2 s = 2 frames).
    @Test func combineXByTime() {
        for finishes in [false, true] {
            let scheduler = VirtualTimeScheduler()
            let subject = PassthroughSubject<Int, TestFailure>()
            let subscriber = TestSubscriber<[Int], TestFailure>(scheduler: scheduler)
            subject.collect(.byTime(scheduler, 2)).subscribe(subscriber)
            subject.send(1)
            subject.send(2)
            scheduler.schedule(at: 2) { for value in 3...5 { subject.send(value) } }
            scheduler.schedule(at: 3) { subject.send(completion: finishes ? .finished : .failure(TestFailure())) }
            scheduler.run()
            #expect(trace(subscriber.events) == (finishes ? ["1,2@2", "3,4,5@3", "|@3"] : ["1,2@2", "#@3"]))
        }
    }

    /// CombineX `CollectByTimeSpec` 1.3 (interval 2 frames, count 2).
    @Test func combineXByTimeOrCount() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, TestFailure>()
        let subscriber = TestSubscriber<[Int], TestFailure>(scheduler: scheduler)
        subject.collect(.byTimeOrCount(scheduler, 2, 2)).subscribe(subscriber)
        for value in 1...3 { subject.send(value) }
        scheduler.schedule(at: 2) { for value in 4...8 { subject.send(value) } }
        scheduler.schedule(at: 4) { subject.send(completion: .finished) }
        scheduler.run()
        #expect(trace(subscriber.events) == ["1,2@0", "3@2", "4,5@2", "6,7@2", "8@4", "|@4"])
    }

    @Test func failureDiscardsTheBuffer() {
        let bench = Bench()
        let subscriber = bench.subscriber(bench.hot("-ab-c#").collect(.byTime(bench.scheduler, 3)))
        #expect(trace(subscriber.events) == ["ab@3", "#@5"])
        let bench2 = Bench()
        let subscriber2 = bench2.subscriber(bench2.hot("-abc#").collect(.byTimeOrCount(bench2.scheduler, 9, 2)))
        #expect(trace(subscriber2.events) == ["ab@2", "#@4"])
    }

    @Test func valuesAndCompletionGoByHop() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, TestFailure>()
        let subscriber = TestSubscriber<[String], TestFailure>(scheduler: scheduler)
        subject.collect(.byTimeOrCount(scheduler, 10, 2)).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 1) {
            subject.send("a")
            subject.send("b")
            subject.send("c")
            subject.send(completion: .finished)
            seenInline = subscriber.events.count
        }
        scheduler.run()
        #expect(seenInline == 0)
        #expect(trace(subscriber.events) == ["ab@1", "c@1", "|@1"])
    }

    @Test func byTimeTicksNeedDemandAndTheBufferCarriesOver() {
        let bench = Bench()
        let subscriber = bench.subscriber(bench.hot("-a--b--c--|").collect(.byTime(bench.scheduler, 3)), initialDemand: .max(1))
        // No demand at 6 or 9: `b` and `c` wait; the final flush ignores demand.
        #expect(trace(subscriber.events) == ["a@3", "bc@10", "|@10"])
        let bench2 = Bench()
        let subscriber2 = bench2.subscriber(bench2.hot("-a--b--c--|").collect(.byTime(bench2.scheduler, 3)), initialDemand: .max(1), requests: [(8, .max(1))])
        #expect(trace(subscriber2.events) == ["a@3", "bc@9", "|@10"])
    }

    @Test func byTimeAsksUpstreamForOneAtATime() {
        let bench = Bench()
        // A cold source only sends what is asked: one per request plus one per value, i.e. everything.
        let subscriber = bench.subscriber(bench.cold("abc|").collect(.byTime(bench.scheduler, 2)), initialDemand: .max(1))
        #expect(trace(subscriber.events) == ["ab@2", "c@3", "|@3"])
    }

    @Test func byTimeOrCountAsksUpstreamForDemandTimesCount() {
        let bench = Bench()
        let subscriber = bench.subscriber(bench.cold("abcde|").collect(.byTimeOrCount(bench.scheduler, 10, 2)),
                                          initialDemand: .max(1), requests: [(5, .max(1))], until: 30)
        // 2 values asked at first, 2 more at 5; `e` is never asked for.
        #expect(trace(subscriber.events) == ["ab@1", "cd@5"])
    }

    /// Subscribes to `publisher` asking for one array, and one more after each array received.
    private func oneMorePerArray<P: Publisher>(_ publisher: P, scheduler: VirtualTimeScheduler, until deadline: Int) -> [String] where P.Output == [String] {
        var received: [String] = []
        publisher.subscribe(AnySubscriber<[String], P.Failure>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { array in
                received.append(array.joined() + "@\(scheduler.currentFrame)")
                return .max(1)
            },
            receiveCompletion: { _ in received.append("|@\(scheduler.currentFrame)") }))
        scheduler.run(until: deadline)
        return received
    }

    @Test func byTimeOrCountPassesDemandFromAFullArrayTimesCount() {
        let scheduler = VirtualTimeScheduler()
        let source = ColdTimeline(timeline("abcdef|"), scheduler: scheduler)
        #expect(oneMorePerArray(source.collect(.byTimeOrCount(scheduler, 10, 2)), scheduler: scheduler, until: 30)
                == ["ab@1", "cd@3", "ef@5", "|@6"])
    }

    @Test func byTimeOrCountIgnoresDemandFromATickArray() {
        // CombineX `VersioningCollectByTimeSpec` (iOS 13.3+ records `[max(4), max(2)]`): the
        // `.max(1)` returned for `a` and for `b` (tick arrays) never reaches upstream, so `c` and
        // `d` stay in the cold source.
        let scheduler = VirtualTimeScheduler()
        let source = ColdTimeline(timeline("a---bcd|"), scheduler: scheduler)
        #expect(oneMorePerArray(source.collect(.byTimeOrCount(scheduler, 2, 2)), scheduler: scheduler, until: 20)
                == ["a@2", "b@6"])
    }

    @Test func aFullArrayLeavingEarlyKeepsTheWindowPhase() {
        let bench = Bench()
        // heckj `ReducingOperatorTests.testCollectByTimeOrCount` (measured on Apple's Combine):
        // count reached at 2 → the next tick is still at 4, the one due from the subscription.
        let subscriber = bench.subscriber(bench.hot("-ab-c---|").collect(.byTimeOrCount(bench.scheduler, 4, 2)))
        #expect(trace(subscriber.events) == ["ab@2", "c@4", "|@8"])
    }

    @Test func cancelStopsTheWindowsAndDropsAQueuedArray() {
        let bench = Bench()
        let log = SubscriptionLog()
        let subscriber = bench.subscriber(bench.hot("-a-b---", log: log).collect(.byTime(bench.scheduler, 5)), cancelAt: 4)
        #expect(subscriber.events.isEmpty)
        #expect(render(log) == ["^---!"])
        #expect(!bench.scheduler.hasPendingWork)

        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber2 = TestSubscriber<[String], Never>(scheduler: scheduler)
        subject.collect(.byTimeOrCount(scheduler, 5, 2)).subscribe(subscriber2)
        scheduler.schedule(at: 1) {
            subject.send("a")
            subject.send("b")
            subscriber2.cancel()
        }
        scheduler.run()
        #expect(subscriber2.events.isEmpty)
    }

    @Test func aTickComesBeforeSameFrameWorkQueuedAfterTheSubscription() {
        // Open point §11.3, pinned: the window timer keeps its place in the queue. A cold source's
        // events are queued after the subscription, so `a` at frame 3 misses the tick at 3.
        let bench = Bench()
        let cold = bench.subscriber(bench.cold("---a--|").collect(.byTime(bench.scheduler, 3)))
        #expect(trace(cold.events) == ["a@6", "|@6"])
        // A hot source's events were queued before the subscription: `a` makes the tick at 3.
        let bench2 = Bench()
        let hot = bench2.subscriber(bench2.hot("---a--|").collect(.byTime(bench2.scheduler, 3)))
        #expect(trace(hot.events) == ["a@3", "|@6"])
    }
}
