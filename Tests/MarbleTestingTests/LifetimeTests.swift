@testable import MarbleTesting
import Testing

/// A test leaves nothing behind: what its expectations subscribed to goes with its scheduler,
/// also when a stream is still open at the end (a subject that never finishes, work queued later).
@Suite struct LifetimeTests {
    /// Held by the pipeline's closure, so it lives exactly as long as the subscription does.
    final class Probe { var seen = 0 }

    @Test func aStreamStillOpenAtTheEndIsReleasedWithItsScheduler() {
        weak var probe: Probe?
        do {
            let held = Probe()
            probe = held
            let scheduler = TestScheduler()
            let source = scheduler.hot("-a-b-", values: ["a": 1, "b": 2])
            scheduler.expect(source.map { value -> Int in held.seen += 1; return value }, "-a-b-", values: ["a": 1, "b": 2])
            // A delay keeps work queued past the run, holding the values and its subscription.
            scheduler.expect(source.delay(for: .milliseconds(100), scheduler: scheduler.dispatchQueue).map { value -> Int in held.seen += 10; return value }, "-----")
            scheduler.run(until: 5)
            #expect(held.seen == 2)
        }
        #expect(probe == nil, "the subscription chain outlived its TestScheduler")
    }

    @Test func aSubscriberCancelledByItsLineIsReleasedToo() {
        weak var probe: Probe?
        do {
            let held = Probe()
            probe = held
            let scheduler = TestScheduler()
            let source = scheduler.hot("-a-b-c-", values: ["a": 1, "b": 2, "c": 3])
            scheduler.expect(source.map { value -> Int in held.seen += 1; return value }, "-a-", values: ["a": 1], subscription: "^--!")
            scheduler.run()
        }
        #expect(probe == nil)
    }
}
