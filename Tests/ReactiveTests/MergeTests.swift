// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Testing
@testable import Reactive

@Suite struct MergeTests {
    @Test func interleavesInArrivalOrder() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("-a---c-|").merge(with: scheduler.cold("--b-d|")), "-ab-dc-|")
        scheduler.run()
    }

    @Test func sameFrameValuesComeOutInSubscriptionOrder() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.cold("-b|").merge(with: scheduler.cold("-a|")), "-(ba)|")
        scheduler.run()
    }

    @Test func finishesOnlyWhenAllHaveFinished() {
        let scheduler = TestScheduler()
        let a = scheduler.cold("-a|"), b = scheduler.cold("---b---|")
        scheduler.expect(Publishers.Merge(a, b), "-a-b---|")
        scheduler.expect(a.subscriptions, "^-!")
        scheduler.expect(b.subscriptions, "^------!")
        scheduler.run()
    }

    @Test func aFailureCancelsTheOthersAtOnce() {
        let scheduler = TestScheduler()
        let a = scheduler.failingCold("---#"), b = scheduler.failingCold("-b------|"), c = scheduler.failingHot("--c-----|")
        scheduler.expect(b.merge(with: a, c), "-bc#", error: TestFailure())
        scheduler.expect(a.subscriptions, "^--!")
        scheduler.expect(b.subscriptions, "^--!")
        scheduler.expect(c.subscriptions, "^--!")
        scheduler.run()
    }

    @Test func cancellationReachesEveryUpstream() {
        let scheduler = TestScheduler()
        let a = scheduler.hot("-a-b-c-|"), b = scheduler.cold("--x--y|")
        scheduler.expect(a.merge(with: b), "-axb", subscription: "^---!")
        scheduler.expect(a.subscriptions, "^---!")
        scheduler.expect(b.subscriptions, "^---!")
        scheduler.run()
    }

    /// With limited demand each upstream is asked for one value at a time and keeps one value in
    /// a slot while downstream has no demand; a hot upstream's further values are dropped, and
    /// the slots are served in upstream order, not arrival order (OCF).
    @Test func limitedDemandUsesOneSlotPerUpstream() {
        let scheduler = TestScheduler()
        let a = scheduler.hot("-a-c-e---|"), b = scheduler.hot("--b-d----|")
        // a at 1 uses the demand; b (2) waits in slot 2; c (3) waits in slot 1; d and e are
        // dropped by the subjects (their upstream has no demand). At 6 slot 1 (c) goes first.
        scheduler.expect(a.merge(with: b), "-a----cb-|", demand: "1-----115")
        scheduler.run()
    }

    @Test func finishWaitsForTheSlots() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("-a|").merge(with: scheduler.hot("--b|")), "-a----(b|)", demand: "1-----1")
        scheduler.run()
    }

    @Test func unlimitedRequestFlushesTheSlotsAndAsksForEverything() {
        let scheduler = TestScheduler()
        let a = scheduler.hot("-a--c-|"), b = scheduler.hot("--b--d|")
        // One unit each at the subscription (a slot per upstream), then everything.
        scheduler.expect(a.merge(with: b), "---(ab)cd|", demand: "---*")
        scheduler.expect(a.requests, "1--*")
        scheduler.expect(b.requests, "1--*")
        scheduler.run()
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
        recorder.subscription?.cancel() // the subjects never finish: their conduits and the merge hold each other
    }
}
#endif
