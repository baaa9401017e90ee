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
