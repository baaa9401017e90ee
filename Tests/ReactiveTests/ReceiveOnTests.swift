// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Testing
@testable import Reactive

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
}
#endif
