import Testing
@testable import Reactive

/// `DemandDrops`: debounce, throttle and a timer tell each value they discard because a
/// subscriber has no demand, to the function asked for as that subscription began.
@Suite struct DemandDropsTests {
    /// A watcher that names each subscription by the order it began in and notes what it lost, with the frame.
    final class Watcher<Value> {
        let drops = DemandDrops<Value>()
        var told: [String] = []
        init(_ scheduler: VirtualTimeScheduler) {
            var subscriptions = 0
            drops.subscribed = { [unowned self] in
                subscriptions += 1
                let name = subscriptions
                return { [unowned self] value in told.append("\(name): \(value)@\(scheduler.currentFrame)") }
            }
        }
    }

    /// A subject debounced by `frames`, with a watcher of its drops.
    func watchedDebounce(_ frames: Int, on scheduler: VirtualTimeScheduler)
        -> (PassthroughSubject<String, Never>, Publishers.Debounce<PassthroughSubject<String, Never>, VirtualTimeScheduler>, Watcher<String>) {
        let subject = PassthroughSubject<String, Never>()
        var debounced = subject.debounce(for: .init(frames: frames), scheduler: scheduler)
        let watcher = Watcher<String>(scheduler)
        debounced.demandDrops = watcher.drops
        return (subject, debounced, watcher)
    }

    @Test func debounceTellsAValueWhoseWaitEndsWithoutDemandToItsSubscription() {
        let scheduler = VirtualTimeScheduler()
        let (subject, debounced, watcher) = watchedDebounce(2, on: scheduler)
        let one = TestSubscriber<String, Never>(scheduler: scheduler, initialDemand: .max(1))
        let all = TestSubscriber<String, Never>(scheduler: scheduler, initialDemand: .unlimited)
        defer { letGo(scheduler, one, all) }
        debounced.subscribe(one)
        debounced.subscribe(all)
        scheduler.schedule(at: 1) { subject.send("a") }
        scheduler.schedule(at: 5) { subject.send("b") }
        scheduler.schedule(at: 9) { subject.send("c") }
        scheduler.run(until: 20)
        #expect(trace(one.events) == ["a@3"])
        #expect(trace(all.events) == ["a@3", "b@7", "c@11"])
        // Only the first subscription had no demand left; a replaced pending value is not a drop.
        #expect(watcher.told == ["1: b@7", "1: c@11"])
    }

    @Test func debounceTellsNothingOfAValueReplacedOrPendingAtCompletion() {
        let scheduler = VirtualTimeScheduler()
        let (subject, debounced, watcher) = watchedDebounce(3, on: scheduler)
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler, initialDemand: .none)
        defer { letGo(scheduler, subscriber) }
        debounced.subscribe(subscriber)
        scheduler.schedule(at: 1) { subject.send("a") }
        scheduler.schedule(at: 2) { subject.send("b") }
        scheduler.schedule(at: 8) { subject.send("c") }
        scheduler.schedule(at: 9) { subject.send(completion: .finished) }
        scheduler.run(until: 20)
        // a was replaced (debounce's own rule), c was pending at the completion: only b fell due without demand.
        #expect(watcher.told == ["1: b@5"])
    }

    @Test func throttleTellsAValueArrivingWithoutDemand() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, Never>()
        var throttled = subject.throttle(for: 2, scheduler: scheduler, latest: true)
        let watcher = Watcher<String>(scheduler)
        throttled.demandDrops = watcher.drops
        let subscriber = TestSubscriber<String, Never>(scheduler: scheduler, initialDemand: .max(1))
        defer { letGo(scheduler, subscriber) }
        throttled.subscribe(subscriber)
        scheduler.schedule(at: 1) { subject.send("a") }
        scheduler.schedule(at: 3) { subject.send("b") }
        scheduler.schedule(at: 6) { subscriber.request(.max(1)) }
        scheduler.schedule(at: 7) { subject.send("c") }
        scheduler.run(until: 20)
        #expect(trace(subscriber.events) == ["a@1", "c@7"])
        #expect(watcher.told == ["1: b@3"])
    }

    @Test func aTimerTellsEachSubscriberTheTicksItMissed() {
        let scheduler = VirtualTimeScheduler()
        let timer = scheduler.timerPublisher(every: 3)
        let watcher = Watcher<VirtualTimeScheduler.SchedulerTimeType>(scheduler)
        timer.demandDrops = watcher.drops
        let slow = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler, initialDemand: .max(1))
        let fast = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler, initialDemand: .unlimited)
        defer { letGo(scheduler, slow, fast) }
        timer.subscribe(slow)
        timer.subscribe(fast)
        let connection = timer.connect()
        scheduler.run(until: 10)
        connection.cancel()
        #expect(trace(slow.events) == ["3@3"])
        #expect(trace(fast.events) == ["3@3", "6@6", "9@9"])
        #expect(watcher.told == ["1: 6@6", "1: 9@9"])
    }

    @Test func anOperatorNobodyWatchesAsksNothing() {
        let scheduler = VirtualTimeScheduler()
        let drops = DemandDrops<String>()
        var debounced = PassthroughSubject<String, Never>().debounce(for: 1, scheduler: scheduler)
        debounced.demandDrops = drops
        // `subscribed` unset: a subscription begins, and the operator keeps no function.
        #expect(drops.subscription() == nil)
        let (first, second) = (TestSubscriber<String, Never>(scheduler: scheduler, initialDemand: .none), TestSubscriber<String, Never>(scheduler: scheduler, initialDemand: .none))
        defer { letGo(scheduler, first, second) }
        debounced.subscribe(first)
        var asked = 0
        drops.subscribed = { asked += 1; return nil }
        debounced.subscribe(second)
        #expect(asked == 1)
    }
}
