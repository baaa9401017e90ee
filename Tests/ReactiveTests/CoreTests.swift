import Testing
@testable import Reactive

@Suite struct DemandTests {
    @Test func unlimitedAbsorbsEverything() {
        #expect(Subscribers.Demand.unlimited + .max(3) == .unlimited)
        #expect(Subscribers.Demand.max(3) + .unlimited == .unlimited)
        #expect(Subscribers.Demand.unlimited - .max(3) == .unlimited)
        #expect(Subscribers.Demand.unlimited * 2 == .unlimited)
    }

    @Test func boundedArithmetic() {
        #expect(Subscribers.Demand.max(2) + .max(3) == .max(5))
        #expect(Subscribers.Demand.max(2) + 1 == .max(3))
        #expect(Subscribers.Demand.max(5) - .max(3) == .max(2))
        #expect(Subscribers.Demand.max(3) * 4 == .max(12))
    }

    @Test func subtractionClampsAtNone() {
        #expect(Subscribers.Demand.max(1) - .max(3) == .none)
        #expect(Subscribers.Demand.max(1) - .unlimited == .none)
        #expect(Subscribers.Demand.max(-4) == .none)
    }

    @Test func overflowBecomesUnlimited() {
        #expect(Subscribers.Demand.max(Int.max) + .max(1) == .unlimited)
        #expect(Subscribers.Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
    }

    @Test func ordering() {
        #expect(Subscribers.Demand.none < .max(1))
        #expect(Subscribers.Demand.max(1_000_000) < .unlimited)
        #expect(!(Subscribers.Demand.unlimited < .unlimited))
        #expect(Subscribers.Demand.max(2) > 1)
        #expect(Subscribers.Demand.unlimited > 1_000)
        #expect(Subscribers.Demand.none == 0)
        #expect(Subscribers.Demand.unlimited.description == "unlimited")
        #expect(Subscribers.Demand.max(3).description == "max(3)")
    }
}

@Suite struct SchedulerTests {
    @Test func sameInstantRunsInSchedulingOrder() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        scheduler.schedule(at: 5) { log.append("a") }
        scheduler.schedule(at: 3) { log.append("b") }
        scheduler.schedule(at: 5) { log.append("c") }
        scheduler.schedule(at: 3) {
            log.append("d")
            scheduler.schedule { log.append("d-now") }
        }
        scheduler.run()
        #expect(log == ["b", "d", "d-now", "a", "c"])
        #expect(scheduler.currentFrame == 5)
    }

    @Test func thePastRunsNowAndTheClockNeverGoesBack() {
        let scheduler = VirtualTimeScheduler()
        var times: [Int] = []
        scheduler.schedule(at: 10) {
            scheduler.schedule(at: 2) { times.append(scheduler.currentFrame) }
        }
        scheduler.run()
        #expect(times == [10])
    }

    @Test func cancelledActionsNeverRun() {
        let scheduler = VirtualTimeScheduler()
        var ran = false
        let token = scheduler.schedule(at: 4) { ran = true }
        scheduler.schedule(at: 2) { token.cancel() }
        scheduler.run()
        #expect(!ran)
    }

    @Test func repeatingActionsKeepTheirPlaceAndStopWhenCancelled() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        var timer: ScheduledAction?
        timer = scheduler.schedule(at: 2, interval: 2) { log.append("tick@\(scheduler.currentFrame)") }
        scheduler.schedule(at: 4) { log.append("one-shot@4") }
        scheduler.schedule(at: 7) { timer?.cancel() }
        scheduler.run()
        #expect(log == ["tick@2", "tick@4", "one-shot@4", "tick@6"])
    }

    @Test func idleStretchesCostNothing() {
        let scheduler = VirtualTimeScheduler()
        var count = 0
        scheduler.schedule(at: 1) { count += 1 }
        scheduler.schedule(at: 1_000_000_000) { count += 1 }
        #expect(scheduler.run() == nil)
        #expect(count == 2)
        #expect(scheduler.currentFrame == 1_000_000_000)
    }

    @Test func timeLimitStopsTheRun() {
        let scheduler = VirtualTimeScheduler(limits: .init(maxTime: 100))
        var ran = false
        scheduler.schedule(at: 101) { ran = true }
        #expect(scheduler.run() == .timeLimit(limit: 100))
        #expect(!ran)
    }

    @Test func actionsPerInstantLimitStopsARunThatNeverSettles() {
        let scheduler = VirtualTimeScheduler(limits: .init(maxActionsPerInstant: 50))
        func again() { scheduler.schedule(again) }
        scheduler.schedule(at: 3, again)
        #expect(scheduler.run() == .instantActionLimit(limit: 50, at: 3))
    }

    @Test func deadlineLeavesLaterWorkQueued() {
        let scheduler = VirtualTimeScheduler()
        var ran = false
        scheduler.schedule(at: 20) { ran = true }
        scheduler.run(until: 10)
        #expect(!ran)
        #expect(scheduler.currentFrame == 10)
        #expect(scheduler.hasPendingWork)
    }

    @Test func reservedSequencesOrderLikeUpfrontScheduling() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        let first = scheduler.reserveSequence(count: 2)
        scheduler.schedule(at: 5) { log.append("dynamic") }
        scheduler.schedule(at: 5, sequence: first + 1) { log.append("reserved") }
        scheduler.run()
        #expect(log == ["reserved", "dynamic"])
    }

    @Test func playbackKeepsTheQueueSmall() {
        let scheduler = VirtualTimeScheduler()
        let events = (0..<10_000).map { TimedEvent<Int, Never>($0, .value($0)) }
        var received = 0
        scheduler.play(events) { _ in received += 1 }
        scheduler.run()
        #expect(received == 10_000)
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

@Suite struct SourceTests {
    @Test func coldTimelineReplaysPerSubscriptionAndBuffersWithoutDemand() {
        let bench = Bench()
        let log = SubscriptionLog()
        let cold = bench.cold("-a-b|", log: log)
        #expect(bench.run(cold, initialDemand: .none, subscribeAt: 2, requests: [(6, .max(5))]) == "------(ab|)")
        #expect(render(log) == ["--^---!"])
    }

    @Test func justSequenceEmptyFail() {
        #expect(Bench().run(Just("x")) == "(x|)")
        #expect(Bench().run(["a", "b"].publisher) == "(ab|)")
        #expect(Bench().run(Empty<String, Never>()) == "|")
        #expect(Bench().run(Empty<String, Never>(completeImmediately: false)) == "")
        #expect(Bench().run(Fail<String, TestFailure>(error: TestFailure())) == "#")
    }

    @Test func sequenceFollowsDemandAndFinishesRightAfterTheLastElement() {
        let bench = Bench()
        #expect(bench.run(["a", "b", "c"].publisher, initialDemand: .max(1), requests: [(2, .max(2))]) == "a-(bc|)")
    }

    @Test func recorderLogsCancellation() {
        let bench = Bench()
        let log = SubscriptionLog()
        let hot = bench.hot("-a-b-c-|", log: log)
        #expect(bench.run(hot, subscribeAt: 2, cancelAt: 4) == "---b")
        #expect(render(log) == ["--^-!"])
    }
}

@Suite struct MapFilterTests {
    @Test func mapFilterCompactMap() {
        let bench = Bench()
        let pipeline = bench.hot("-a-b-c-|").map { $0.uppercased() }.filter { $0 != "B" }
        #expect(bench.run(pipeline) == "-A---C-|")
    }

    @Test func tryMapFailsAndCancelsUpstream() {
        let bench = Bench()
        let log = SubscriptionLog()
        let pipeline = bench.hot("-a-b-c-|", log: log).tryMap { value -> String in
            if value == "b" { throw TestFailure("boom") }
            return value
        }
        #expect(bench.run(pipeline) == "-a-#{boom}")
        #expect(render(log) == ["^--!"])
    }

    @Test func filteredValuesAreAskedForAgain() {
        let bench = Bench()
        let pipeline = bench.cold("abcd|").filter { $0 != "b" }
        #expect(bench.run(pipeline, initialDemand: .max(2)) == "a-c")
    }
}
