// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Testing
@testable import Reactive

@Suite struct SubscribeOnTests {
    @Test func subscribesByHop() {
        let scheduler = VirtualTimeScheduler()
        let log = SubscriptionLog()
        let source = SubscriptionRecorder(PassthroughSubject<String, Never>(), log: log, scheduler: scheduler)
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler)
        // The cancel hops too: the scheduler runs it before the rest is dropped.
        defer { subscriber.cancel(); scheduler.run(); letGo(scheduler) }
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
    }

    @Test func requestsHop() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler, initialDemand: .none)
        defer { letGo(scheduler, subscriber) }
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
#endif
