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
