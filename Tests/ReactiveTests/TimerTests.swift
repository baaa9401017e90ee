import Testing
@testable import Reactive

@Suite struct TimerTests {
    @Test func ticksFromConnectEveryIntervalWithTheirFrame() {
        let scheduler = VirtualTimeScheduler()
        let timer = scheduler.timerPublisher(every: 3)
        let subscriber = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler)
        defer { letGo(scheduler, subscriber) }
        timer.subscribe(subscriber)
        var connection: (any Cancellable)?
        scheduler.schedule(at: 2) { connection = timer.connect() }
        scheduler.run(until: 12)
        #expect(trace(subscriber.events) == ["5@5", "8@8", "11@11"])
        #expect(connection != nil)
    }

    @Test func nothingBeforeConnectAndNeverCompletes() {
        let scheduler = VirtualTimeScheduler()
        let timer = scheduler.timerPublisher(every: 2)
        let subscriber = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler)
        defer { letGo(scheduler, subscriber) }
        timer.subscribe(subscriber)
        scheduler.run(until: 50)
        #expect(subscriber.events.isEmpty)
        #expect(!scheduler.hasPendingWork)
        let connection = timer.connect()
        scheduler.run(until: 57)
        #expect(trace(subscriber.events) == ["52@52", "54@54", "56@56"])
        #expect(scheduler.hasPendingWork)
        connection.cancel()
    }

    @Test func ticksWithoutDemandAreDropped() {
        let scheduler = VirtualTimeScheduler()
        let timer = scheduler.timerPublisher(every: 3)
        let subscriber = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler, initialDemand: .max(1))
        defer { letGo(scheduler, subscriber) }
        timer.subscribe(subscriber)
        let connection = timer.connect()
        scheduler.schedule(at: 7) { subscriber.request(.max(1)) }
        scheduler.run(until: 13)
        // 6 and 12 find no demand; the request at 7 does not bring 6 back.
        #expect(trace(subscriber.events) == ["3@3", "9@9"])
        #expect(subscriber.valuesWithoutDemand.isEmpty)
        connection.cancel()
    }

    @Test func eachSubscriberHasItsOwnDemandAndCancel() {
        let scheduler = VirtualTimeScheduler()
        let timer = scheduler.timerPublisher(every: 2)
        let limited = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler, initialDemand: .max(1))
        let leaving = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler)
        let staying = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler)
        defer { letGo(scheduler, limited, leaving, staying) }
        timer.subscribe(limited)
        timer.subscribe(leaving)
        timer.subscribe(staying)
        let connection = timer.connect()
        scheduler.schedule(at: 5) { leaving.cancel() }
        scheduler.run(until: 8)
        #expect(trace(limited.events) == ["2@2"])
        #expect(trace(leaving.events) == ["2@2", "4@4"])
        #expect(trace(staying.events) == ["2@2", "4@4", "6@6", "8@8"])
        connection.cancel()
    }

    @Test func cancellingTheConnectionStopsTicksAndDetachesSubscribers() {
        let scheduler = VirtualTimeScheduler()
        let timer = scheduler.timerPublisher(every: 2)
        let subscriber = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler)
        defer { letGo(scheduler, subscriber) }
        timer.subscribe(subscriber)
        let connection = timer.connect()
        scheduler.schedule(at: 5) { connection.cancel() }
        #expect(scheduler.run() == nil)
        #expect(trace(subscriber.events) == ["2@2", "4@4"])
        // A new connection does not reach subscribers detached by the cancel.
        let again = timer.connect()
        scheduler.run(until: 12)
        #expect(trace(subscriber.events) == ["2@2", "4@4"])
        again.cancel()
    }

    @Test func droppingTheConnectionHandleDoesNotStopTheTimer() {
        let scheduler = VirtualTimeScheduler()
        let timer = scheduler.timerPublisher(every: 2)
        let subscriber = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler)
        defer { letGo(scheduler, subscriber) }
        timer.subscribe(subscriber)
        _ = timer.connect()
        scheduler.run(until: 4)
        #expect(trace(subscriber.events) == ["2@2", "4@4"])
    }

    @Test func autoconnectConnectsOnFirstSubscription() {
        let bench = Bench()
        let timer = bench.scheduler.timerPublisher(every: 3).autoconnect()
        #expect(bench.run(timer.map { _ in "t" }, subscribeAt: 2, until: 12) == "-----t--t--t")
    }

    @Test func autoconnectDisconnectsWhenEverySubscriberHasCancelled() {
        let scheduler = VirtualTimeScheduler()
        let timer = scheduler.timerPublisher(every: 3).autoconnect()
        let first = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler)
        let second = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler)
        let third = TestSubscriber<VirtualTimeScheduler.SchedulerTimeType, Never>(scheduler: scheduler)
        scheduler.schedule(at: 0) { timer.subscribe(first) }
        scheduler.schedule(at: 1) { timer.subscribe(second) }
        scheduler.schedule(at: 4) { first.cancel() }
        scheduler.schedule(at: 7) { second.cancel() }
        scheduler.schedule(at: 8) { timer.subscribe(third) }
        scheduler.schedule(at: 15) { third.cancel() }
        // Everything cancelled by 15: the clock is gone and the run ends by itself.
        #expect(scheduler.run() == nil)
        #expect(trace(first.events) == ["3@3"])
        // The second subscriber keeps the connection alive after the first leaves.
        #expect(trace(second.events) == ["3@3", "6@6"])
        // The third reconnects: a fresh clock from 8.
        #expect(trace(third.events) == ["11@11", "14@14"])
    }
}
