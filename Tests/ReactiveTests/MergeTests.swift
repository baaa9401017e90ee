import Testing
@testable import Reactive

@Suite struct MergeTests {
    @Test func interleavesInArrivalOrder() {
        let bench = Bench()
        let pipeline = bench.hot("-a---c-|").merge(with: bench.cold("--b-d|"))
        #expect(bench.run(pipeline) == "-ab-dc-|")
    }

    @Test func sameFrameValuesComeOutInSubscriptionOrder() {
        let bench = Bench()
        let pipeline = bench.cold("-b|").merge(with: bench.cold("-a|"))
        #expect(bench.run(pipeline) == "-(ba)|")
    }

    @Test func finishesOnlyWhenAllHaveFinished() {
        let bench = Bench()
        let aLog = SubscriptionLog(), bLog = SubscriptionLog()
        let pipeline = Publishers.Merge(bench.cold("-a|", log: aLog), bench.cold("---b---|", log: bLog))
        #expect(bench.run(pipeline) == "-a-b---|")
        #expect(render(aLog) == ["^-!"])
        #expect(render(bLog) == ["^------!"])
    }

    @Test func aFailureCancelsTheOthersAtOnce() {
        let bench = Bench()
        let aLog = SubscriptionLog(), bLog = SubscriptionLog(), cLog = SubscriptionLog()
        let pipeline = bench.cold("-b------|", log: bLog).merge(with: bench.cold("---#", log: aLog), bench.hot("--c-----|", log: cLog))
        #expect(bench.run(pipeline) == "-bc#")
        #expect(render(aLog) == ["^--!"])
        #expect(render(bLog) == ["^--!"])
        #expect(render(cLog) == ["^--!"])
    }

    @Test func cancellationReachesEveryUpstream() {
        let bench = Bench()
        let aLog = SubscriptionLog(), bLog = SubscriptionLog()
        let pipeline = bench.hot("-a-b-c-|", log: aLog).merge(with: bench.cold("--x--y|", log: bLog))
        #expect(bench.run(pipeline, cancelAt: 4) == "-axb")
        #expect(render(aLog) == ["^---!"])
        #expect(render(bLog) == ["^---!"])
    }

    /// With limited demand each upstream is asked for one value at a time and keeps one value in
    /// a slot while downstream has no demand; a hot upstream's further values are dropped, and
    /// the slots are served in upstream order, not arrival order (OCF).
    @Test func limitedDemandUsesOneSlotPerUpstream() {
        let bench = Bench()
        let pipeline = bench.hot("-a-c-e---|").merge(with: bench.hot("--b-d----|"))
        let result = bench.run(pipeline, initialDemand: .max(1), requests: [(6, .max(1)), (7, .max(1)), (8, .max(5))])
        // a at 1 uses the demand; b (2) waits in slot 2; c (3) waits in slot 1; d and e are
        // dropped by the subjects (their upstream has no demand). At 6 slot 1 (c) goes first.
        #expect(result == "-a----cb-|")
    }

    @Test func finishWaitsForTheSlots() {
        let bench = Bench()
        let pipeline = bench.hot("-a|").merge(with: bench.hot("--b|"))
        #expect(bench.run(pipeline, initialDemand: .max(1), requests: [(6, .max(1))]) == "-a----(b|)")
    }

    @Test func unlimitedRequestFlushesTheSlotsAndAsksForEverything() {
        let bench = Bench()
        let pipeline = bench.hot("-a--c-|").merge(with: bench.hot("--b--d|"))
        #expect(bench.run(pipeline, initialDemand: .none, requests: [(3, .unlimited)]) == "---(ab)cd|")
    }

    @Test func mergeManyVariadicSequenceAndChaining() {
        let bench = Bench()
        let sources = [bench.cold("a--|"), bench.cold("-b-|"), bench.cold("--c|")]
        #expect(bench.run(Publishers.MergeMany(sources)) == "abc|")
        let bench2 = Bench()
        let many = Publishers.MergeMany(bench2.cold("a|"), bench2.cold("-b|")).merge(with: bench2.cold("--c|"))
        #expect(many.publishers.count == 3)
        #expect(bench2.run(many) == "abc|")
    }

    @Test func emptyMergeManyFinishesOnTheFirstRequest() {
        let bench = Bench()
        #expect(bench.run(Publishers.MergeMany<Just<String>>([])) == "|")
    }

    @Test func everyArityMerges() {
        func check<P: Publisher>(_ expected: String, _ make: (Bench, (Int) -> SubscriptionRecorder<ColdTimeline<String, TestFailure>>) -> P) {
            let bench = Bench()
            let pipeline = make(bench) { n in bench.cold(String(repeating: "-", count: n) + "\(n)|") }
            #expect(bench.run(pipeline) == expected)
        }
        check("01|") { _, c in c(0).merge(with: c(1)) }
        check("012|") { _, c in c(0).merge(with: c(1), c(2)) }
        check("0123|") { _, c in c(0).merge(with: c(1), c(2), c(3)) }
        check("01234|") { _, c in c(0).merge(with: c(1), c(2), c(3), c(4)) }
        check("012345|") { _, c in c(0).merge(with: c(1), c(2), c(3), c(4), c(5)) }
        check("0123456|") { _, c in c(0).merge(with: c(1), c(2), c(3), c(4), c(5), c(6)) }
        check("01234567|") { _, c in c(0).merge(with: c(1), c(2), c(3), c(4), c(5), c(6), c(7)) }
        check("01234567|") { _, c -> Publishers.Merge8 in
            Publishers.Merge(c(0), c(1)).merge(with: c(2), c(3)).merge(with: c(4)).merge(with: c(5), c(6), c(7))
        }
        check("0123|") { _, c -> Publishers.Merge4 in Publishers.Merge3(c(0), c(1), c(2)).merge(with: c(3)) }
    }
}

@Suite struct MergeFastPathTests {
    @Test func unlimitedThenLimitedRequestsChangeNothing() {
        // Once demand is unlimited it stays so: a later `.max(1)` is a no-op, values keep flowing
        // straight through and nothing waits in a slot.
        let bench = Bench()
        let pipeline = bench.hot("-a-c-e-|").merge(with: bench.hot("--b-d-f|"))
        #expect(bench.run(pipeline, requests: [(2, .max(1)), (4, .none)]) == "-abcdef|")
    }

    @Test func limitedThenUnlimitedSwitchesToTheFastPath() {
        // Slots in use while demand is limited; after the unlimited request the slots are flushed
        // in upstream order and every later value goes straight through.
        let bench = Bench()
        let pipeline = bench.hot("-a-c---e-g|").merge(with: bench.hot("--b--d--f-|"))
        #expect(bench.run(pipeline, initialDemand: .max(1), requests: [(4, .unlimited)]) == "-a--(cb)d-efg|")
    }

    @Test func unlimitedDemandDeliversManySourcesInArrivalOrder() {
        let scheduler = VirtualTimeScheduler()
        let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = FrameRecorder<Int, Never>(scheduler: scheduler)
        Publishers.MergeMany(subjects).subscribe(recorder)
        var expected: [String] = []
        for value in 0..<64 {
            let frame = value / 3
            scheduler.schedule(at: frame) { subjects[(value * 5) % 8].send(value) }
            expected.append("\(value)@\(frame)")
        }
        scheduler.schedule(at: 30) { subjects.forEach { $0.send(completion: .finished) } }
        scheduler.run()
        #expect(recorder.log == expected + ["|@30"])
    }

    @Test func cancelFromInsideReceiveStopsTheFastPath() {
        let scheduler = VirtualTimeScheduler()
        let first = PassthroughSubject<String, Never>(), second = PassthroughSubject<String, Never>()
        let recorder = FrameRecorder<String, Never>(scheduler: scheduler)
        recorder.onValue = { recorder, value in
            if value == "b" { recorder.subscription?.cancel() }
            return .none
        }
        first.merge(with: second).subscribe(recorder)
        scheduler.schedule(at: 1) {
            first.send("a")
            second.send("b")
            first.send("c")
            second.send("d")
        }
        scheduler.run()
        #expect(recorder.log == ["a@1", "b@1"])
    }

    @Test func aFailureStopsLaterValuesOnTheFastPath() {
        let scheduler = VirtualTimeScheduler()
        let first = PassthroughSubject<String, TestFailure>(), second = PassthroughSubject<String, TestFailure>()
        let recorder = FrameRecorder<String, TestFailure>(scheduler: scheduler)
        first.merge(with: second).subscribe(recorder)
        scheduler.schedule(at: 1) {
            first.send("a")
            second.send(completion: .failure(TestFailure("x")))
            first.send("b")
        }
        scheduler.run()
        #expect(recorder.log == ["a@1", "#@1"])
    }

    @Test func aValueAfterItsUpstreamFinishedIsDropped() {
        let scheduler = VirtualTimeScheduler()
        let other = PassthroughSubject<String, Never>()
        let recorder = FrameRecorder<String, Never>(scheduler: scheduler)
        SendsAfterFinishing(scheduler: scheduler, at: 1).merge(with: other).subscribe(recorder)
        scheduler.schedule(at: 2) { other.send("x") }
        scheduler.schedule(at: 3) { other.send(completion: .finished) }
        scheduler.run()
        #expect(recorder.log == ["x@2", "|@3"])
    }

    @Test func demandReturnedWhileLimitedIsHonoured() {
        // Limited path: each value's returned demand is added (here one more per value), so
        // nothing is dropped although the initial demand was 1.
        let scheduler = VirtualTimeScheduler()
        let first = PassthroughSubject<String, Never>(), second = PassthroughSubject<String, Never>()
        let recorder = FrameRecorder<String, Never>(scheduler: scheduler, initialDemand: .max(1))
        recorder.onValue = { _, _ in .max(1) }
        first.merge(with: second).subscribe(recorder)
        for (frame, value) in [(1, "a"), (2, "b"), (3, "c"), (4, "d")] {
            scheduler.schedule(at: frame) { (frame.isMultiple(of: 2) ? second : first).send(value) }
        }
        scheduler.run()
        #expect(recorder.log == ["a@1", "b@2", "c@3", "d@4"])
    }
}
