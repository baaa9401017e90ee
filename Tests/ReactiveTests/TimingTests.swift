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
        let scheduler2 = TestScheduler()
        let recording = scheduler2.expect(scheduler2.hot("-a---b---|").debounce(for: 2, scheduler: scheduler2.clock), "---a-----|", demand: "1")
        scheduler2.run()
        #expect(recording.valuesWithoutDemand.isEmpty)
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
        let scheduler = TestScheduler()
        let source = scheduler.hot("-(abc)-|")
        scheduler.expect(source.throttle(for: 3, scheduler: scheduler.clock, latest: true), "-c-|")
        scheduler.expect(source.throttle(for: 3, scheduler: scheduler.clock, latest: false), "-a-|")
        scheduler.run()
    }

    @Test func latestFalseStillSendsTheFirstValueAfterTheLastEmission() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-abc------|")
        scheduler.expect(source.throttle(for: 4, scheduler: scheduler.clock, latest: false), "-a---b----|")
        scheduler.expect(source.throttle(for: 4, scheduler: scheduler.clock, latest: true), "-a---c----|")
        scheduler.run()
    }

    @Test func completionWaitsForThePendingValue() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("-ab|").throttle(for: 4, scheduler: scheduler.clock, latest: true), "-a---(b|)")
        scheduler.run()
    }

    @Test func failureWaitsForThePendingValue() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.failingHot("-ab#").throttle(for: 4, scheduler: scheduler.clock, latest: true), "-a---(b#)", error: TestFailure())
        scheduler.run()
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
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("-a-b---c--|").throttle(for: 2, scheduler: scheduler.clock, latest: true), "-a-----c--|", demand: "1-----1")
        scheduler.run()
    }

    @Test func theDemandCheckComesBeforeTheLatestReplacement() {
        let scheduler = TestScheduler()
        // `b` takes the last unit of demand; `c` finds none, so it is dropped rather than replacing `b`.
        let recording = scheduler.expect(scheduler.hot("-abc-----|").throttle(for: 4, scheduler: scheduler.clock, latest: true), "-a---b---|", demand: "2")
        scheduler.run()
        #expect(recording.valuesWithoutDemand.isEmpty)
    }

    @Test func cancelDropsThePendingValue() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-ab-----|")
        scheduler.expect(source.throttle(for: 4, scheduler: scheduler.clock, latest: true), "-a", subscription: "^--!")
        scheduler.expect(source.subscriptions, "^--!")
        scheduler.run()
    }

    @Test func cancelAfterUpstreamCompletedStillDropsThePendingEmission() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("-ab|").throttle(for: 4, scheduler: scheduler.clock, latest: true), "-a", subscription: "^---!")
        scheduler.run()
    }
}

// MARK: - delay

@Suite struct DelayTests {
    @Test func shiftsValuesAndCompletion() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b--|")
        scheduler.expect(source.delay(for: 2, scheduler: scheduler.clock), "---a-b--|")
        scheduler.expect(source.subscriptions, "^-----!")
        scheduler.run()
    }

    @Test func failureIsDelayedToo() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.failingHot("-a#").delay(for: 3, scheduler: scheduler.clock), "----a#", error: TestFailure())
        scheduler.run()
    }

    @Test func equalDueTimesKeepArrivalOrder() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("-(ab)|").delay(for: 2, scheduler: scheduler.clock), "---(ab)|")
        scheduler.run()
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
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b---|")
        scheduler.expect(source.delay(for: 3, scheduler: scheduler.clock), "----a", subscription: "^----!")
        scheduler.expect(source.subscriptions, "^----!")
        scheduler.run()
    }

    @Test func cancelAfterUpstreamCompletedIsANoOp() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a|")
        scheduler.expect(source.delay(for: 3, scheduler: scheduler.clock), "----a|", subscription: "^--!")
        scheduler.expect(source.subscriptions, "^-!")
        scheduler.run()
    }

    @Test func demandPassesThrough() {
        let scheduler = TestScheduler()
        // The cold source holds `b` and its completion until the request at 5.
        let source = scheduler.cold("ab|")
        scheduler.expect(source.delay(for: 2, scheduler: scheduler.clock), "--a----(b|)", demand: "1----1")
        scheduler.expect(source.requests, "1----1")
        scheduler.run()
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
        let scheduler = TestScheduler()
        // OpenCombine `testBasicBehavior`: values at 10 and 11 with an interval of 13 → timeout at 24.
        let source = scheduler.hot("----------ab---------------|")
        scheduler.expect(source.timeout(13, scheduler: scheduler.clock), "----------ab------------|")
        scheduler.expect(source.subscriptions, "^" + String(repeating: "-", count: 23) + "!")
        scheduler.run()
    }

    @Test func failsWithTheCustomError() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.failingHot("-a------|").timeout(3, scheduler: scheduler.clock, customError: { TestFailure("timeout") }),
                         "-a--#{timeout}", errors: ["timeout": TestFailure("timeout")])
        scheduler.run()
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
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a|")
        scheduler.expect(source.timeout(5, scheduler: scheduler.clock), "-a|")
        scheduler.expect(source.subscriptions, "^-!")
        scheduler.expect(scheduler.failingHot("-a#").timeout(5, scheduler: scheduler.clock, customError: { TestFailure("timeout") }), "-a#", error: TestFailure())
        scheduler.run(until: 2)
        #expect(scheduler.clock.nextActionTime == nil)
    }

    @Test func theClockRestartsAtTheFirstRequest() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("---------|")
        scheduler.expect(source.timeout(3, scheduler: scheduler.clock), "-----|", demand: "--1")
        scheduler.expect(source.subscriptions, "^----!")
        // Only the first request restarts it.
        scheduler.expect(scheduler.hot("---------|").timeout(3, scheduler: scheduler.clock), "-----|", demand: "--1-1")
        scheduler.run()
    }

    @Test func cancelStopsEverything() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a---|")
        scheduler.expect(source.timeout(3, scheduler: scheduler.clock), "-a", subscription: "^-!")
        scheduler.expect(source.subscriptions, "^-!")
        scheduler.run(until: 2)
        // Only the source's own `|` at 5 is left: the timeout due at 4 went with the cancel.
        #expect(scheduler.clock.nextActionTime == 5)
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
        let scheduler = TestScheduler()
        // Only `a` is asked for; the cold source holds the rest, and the silence ends the stream.
        let source = scheduler.cold("abc|")
        scheduler.expect(source.timeout(10, scheduler: scheduler.clock), "a---------|", demand: "1")
        scheduler.expect(source.subscriptions, "^---------!")
        scheduler.expect(source.requests, "1")
        scheduler.run()
    }
}

// MARK: - measureInterval

@Suite struct MeasureIntervalTests {
    @Test func measuresFromTheSubscriptionThenBetweenValues() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("---a--b-|").measureInterval(using: scheduler.clock).map { String($0.frames) }, "---2--3-|", subscription: "-^")
        scheduler.run()
    }

    @Test func sameFrameValuesMeasureZeroAndFailurePasses() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.failingHot("-(ab)#").measureInterval(using: scheduler.clock).map { String($0.frames) }, "-(10)#", error: TestFailure())
        scheduler.run()
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
        let scheduler = TestScheduler()
        let source = scheduler.cold("ab|")
        scheduler.expect(source.measureInterval(using: scheduler.clock).map { String($0.frames) }, "0---(4|)", demand: "1---1")
        scheduler.expect(source.requests, "1---1")
        scheduler.run()
    }

    @Test func cancelReachesUpstream() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a--b|")
        scheduler.expect(source.measureInterval(using: scheduler.clock).map { String($0.frames) }, "-1", subscription: "^--!")
        scheduler.expect(source.subscriptions, "^--!")
        scheduler.run()
    }
}

// MARK: - receive(on:) / subscribe(on:)

@Suite struct ReceiveOnTests {
    @Test func sameFramesInOrder() {
        let scheduler = TestScheduler()
        let source = scheduler.failingHot("-a-(bc)#")
        scheduler.expect(source.receive(on: scheduler.clock), "-a-(bc)#", error: TestFailure())
        scheduler.expect(source.subscriptions, "^---!")
        scheduler.run()
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
        let scheduler = TestScheduler()
        let source = scheduler.cold("abc|")
        scheduler.expect(source.receive(on: scheduler.clock), "a--b", subscription: "^----!", demand: "1--1")
        scheduler.expect(source.subscriptions, "^----!")
        scheduler.expect(source.requests, "1--1")
        scheduler.run()
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
        let testScheduler = TestScheduler()
        testScheduler.expect(testScheduler.hot("-a-b|").subscribe(on: testScheduler.clock), "-a-b|")
        testScheduler.run()
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
        let scheduler = TestScheduler()
        let source = scheduler.hot("-ab-c------d|")
        // Windows end at 3, 6, 9, 12; the one at 9 is empty and emits nothing.
        scheduler.expect(source.collect(.byTime(scheduler.clock, 3)), "---x--y-----(z|)", values: ["x": ["a", "b"], "y": ["c"], "z": ["d"]])
        scheduler.expect(source.subscriptions, "^-----------!")
        scheduler.run()
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
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.failingHot("-ab-c#").collect(.byTime(scheduler.clock, 3)), "---x-#", values: ["x": ["a", "b"]], error: TestFailure())
        scheduler.expect(scheduler.failingHot("-abc#").collect(.byTimeOrCount(scheduler.clock, 9, 2)), "--x-#", values: ["x": ["a", "b"]], error: TestFailure())
        scheduler.run()
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
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a--b--c--|")
        let arrays: [Character: [String]] = ["x": ["a"], "y": ["b", "c"]]
        // No demand at 6 or 9: `b` and `c` wait; the final flush ignores demand.
        scheduler.expect(source.collect(.byTime(scheduler.clock, 3)), "---x------(y|)", values: arrays, demand: "1")
        scheduler.expect(source.collect(.byTime(scheduler.clock, 3)), "---x-----y|", values: arrays, demand: "1-------1")
        scheduler.run()
    }

    @Test func byTimeAsksUpstreamForOneAtATime() {
        let scheduler = TestScheduler()
        // A cold source only sends what is asked: one per request plus one per value, i.e. everything.
        scheduler.expect(scheduler.cold("abc|").collect(.byTime(scheduler.clock, 2)), "--x(y|)", values: ["x": ["a", "b"], "y": ["c"]], demand: "1")
        scheduler.run()
    }

    @Test func byTimeOrCountAsksUpstreamForDemandTimesCount() {
        let scheduler = TestScheduler()
        let source = scheduler.cold("abcde|")
        scheduler.expect(source.collect(.byTimeOrCount(scheduler.clock, 10, 2)), "-x---y", values: ["x": ["a", "b"], "y": ["c", "d"]], demand: "1----1")
        // 2 values asked at first, 2 more at 5; `e` is never asked for.
        scheduler.expect(source.requests, "2----2")
        scheduler.run(until: 30)
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
        let scheduler = TestScheduler()
        // heckj `ReducingOperatorTests.testCollectByTimeOrCount` (measured on Apple's Combine):
        // count reached at 2 → the next tick is still at 4, the one due from the subscription.
        scheduler.expect(scheduler.hot("-ab-c---|").collect(.byTimeOrCount(scheduler.clock, 4, 2)), "--x-y---|", values: ["x": ["a", "b"], "y": ["c"]])
        scheduler.run()
    }

    @Test func cancelStopsTheWindowsAndDropsAQueuedArray() {
        let testScheduler = TestScheduler()
        let source = testScheduler.hot("-a-b---")
        testScheduler.expect(source.collect(.byTime(testScheduler.clock, 5)), "-", subscription: "^---!")
        testScheduler.expect(source.subscriptions, "^---!")
        // Stopped at the cancel: the window due at 5 must be gone already.
        testScheduler.run(until: 4)
        #expect(testScheduler.clock.nextActionTime == nil)

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
