import Testing
@testable import Reactive

/// The time operators through `AnyScheduler`: the same virtual clock, but hidden, so every
/// operator takes its path for Combine's schedulers (no cancellable one-shots, no re-armed
/// timer). Each scenario is run both ways and must give the same trace, pinned here.
@Suite struct GenericSchedulerPathTests {
    typealias Erased = AnyScheduler<VirtualTimeScheduler.SchedulerTimeType, Never>

    /// Sends `values` at their frames into a subject, runs `pipeline` on it and records what
    /// comes out as "value@frame" and "|@frame".
    private func trace<P: Publisher>(_ sends: [(Int, String)], finishAt end: Int, on scheduler: VirtualTimeScheduler,
                                     _ pipeline: (PassthroughSubject<String, Never>) -> P) -> [String] where P.Failure == Never {
        let subject = PassthroughSubject<String, Never>()
        var log: [String] = []
        let cancellable = pipeline(subject).sink(receiveCompletion: { _ in log.append("|@\(scheduler.currentFrame)") },
                                                 receiveValue: { log.append("\($0)@\(scheduler.currentFrame)") })
        for (frame, value) in sends { scheduler.schedule(at: frame) { subject.send(value) } }
        scheduler.schedule(at: end) { subject.send(completion: .finished) }
        scheduler.run()
        cancellable.cancel()
        return log
    }

    private func bothWays<P: Publisher, Q: Publisher>(_ sends: [(Int, String)], finishAt end: Int,
                                                      direct: (PassthroughSubject<String, Never>, VirtualTimeScheduler) -> P,
                                                      erased: (PassthroughSubject<String, Never>, Erased) -> Q) -> (direct: [String], erased: [String])
    where P.Failure == Never, Q.Failure == Never {
        let first = VirtualTimeScheduler(), second = VirtualTimeScheduler()
        return (trace(sends, finishAt: end, on: first) { direct($0, first) },
                trace(sends, finishAt: end, on: second) { erased($0, second.eraseToAnyScheduler()) })
    }

    @Test func debounce() {
        let sends = [(1, "a"), (2, "b"), (6, "c"), (12, "d")]
        let runs = bothWays(sends, finishAt: 13, direct: { $0.debounce(for: 3, scheduler: $1) }, erased: { $0.debounce(for: 3, scheduler: $1) })
        #expect(runs.direct == ["b@5", "c@9", "|@13"])
        #expect(runs.erased == runs.direct)
    }

    @Test func throttle() {
        let sends = [(1, "a"), (2, "b"), (3, "c"), (9, "d")]
        let runs = bothWays(sends, finishAt: 20, direct: { $0.throttle(for: 4, scheduler: $1, latest: true) },
                            erased: { $0.throttle(for: 4, scheduler: $1, latest: true) })
        #expect(runs.direct == ["a@1", "c@5", "d@9", "|@20"])
        #expect(runs.erased == runs.direct)
    }

    @Test func delayAndReceiveOn() {
        let sends = [(1, "a"), (4, "b")]
        let runs = bothWays(sends, finishAt: 5, direct: { $0.delay(for: 2, scheduler: $1).receive(on: $1) },
                            erased: { $0.delay(for: 2, scheduler: $1).receive(on: $1) })
        #expect(runs.direct == ["a@3", "b@6", "|@7"])
        #expect(runs.erased == runs.direct)
    }

    @Test func timeoutRestartsAtEveryValue() {
        let sends = [(2, "a"), (5, "b")]
        let runs = bothWays(sends, finishAt: 30, direct: { $0.timeout(4, scheduler: $1) }, erased: { $0.timeout(4, scheduler: $1) })
        #expect(runs.direct == ["a@2", "b@5", "|@9"])
        #expect(runs.erased == runs.direct)
    }

    @Test func collectByTimeAndMeasureInterval() {
        let sends = [(1, "a"), (2, "b"), (7, "c")]
        let runs = bothWays(sends, finishAt: 8,
                            direct: { $0.collect(.byTime($1, 3)).map { $0.joined() } },
                            erased: { $0.collect(.byTime($1, 3)).map { $0.joined() } })
        #expect(runs.direct == ["ab@3", "c@8", "|@8"])
        #expect(runs.erased == runs.direct)
        let measured = bothWays(sends, finishAt: 8, direct: { $0.measureInterval(using: $1).map { String($0.frames) } },
                                erased: { $0.measureInterval(using: $1).map { String($0.frames) } })
        #expect(measured.direct == ["1@1", "1@2", "5@7", "|@8"])
        #expect(measured.erased == measured.direct)
    }

    @Test func subscribeOnHopsTheSubscription() {
        let runs = bothWays([(0, "a"), (1, "b")], finishAt: 2, direct: { $0.subscribe(on: $1) }, erased: { $0.subscribe(on: $1) })
        // The request reaches the subject by a hop, after the send queued for frame 0: "a" finds no demand.
        #expect(runs.direct == ["b@1", "|@2"])
        #expect(runs.erased == runs.direct)
    }

    @Test func timerPublisherTicksWithTheSchedulersTime() {
        let scheduler = VirtualTimeScheduler()
        var ticks: [Int] = []
        let cancellable = scheduler.eraseToAnyScheduler().timerPublisher(every: 3).autoconnect().sink { ticks.append($0.frame) }
        scheduler.run(until: 10)
        cancellable.cancel()
        scheduler.run()
        #expect(ticks == [3, 6, 9])
        #expect(!scheduler.hasPendingWork)
    }

    @Test func anySchedulerFromClosuresForwardsEveryRequirement() {
        var calls: [String] = []
        let scheduler = AnyScheduler<ImmediateScheduler.SchedulerTimeType, Never>(
            minimumTolerance: { calls.append("tolerance"); return 0 },
            now: { calls.append("now"); return ImmediateScheduler.shared.now },
            scheduleImmediately: { _, action in calls.append("immediately"); action() },
            delayed: { _, _, _, action in calls.append("delayed"); action() },
            interval: { _, _, _, _, action in calls.append("interval"); action(); return AnyCancellable {} })
        var ran = 0
        scheduler.schedule { ran += 1 }
        scheduler.schedule(after: scheduler.now) { ran += 1 }
        _ = scheduler.schedule(after: scheduler.now, interval: 1) { ran += 1 }
        #expect(ran == 3)
        #expect(calls == ["immediately", "now", "tolerance", "delayed", "now", "tolerance", "interval"])
        let rewrapped = AnyScheduler(scheduler)
        rewrapped.schedule { ran += 1 }
        #expect(calls.last == "immediately")
    }

    @Test func immediateSchedulerRunsAtOnce() {
        var log: [Int] = []
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.delay(for: .seconds(5), scheduler: ImmediateScheduler.shared).receive(on: ImmediateScheduler.shared).sink { log.append($0) }
        subject.send(1)
        #expect(log == [1])
        #expect(ImmediateScheduler.shared.now.distance(to: ImmediateScheduler.shared.now.advanced(by: 9)) == 0)
        #expect(ImmediateScheduler.SchedulerTimeType.Stride.milliseconds(300) == 0)
        cancellable.cancel()
    }
}
