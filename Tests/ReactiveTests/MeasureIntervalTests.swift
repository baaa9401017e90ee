// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Testing
@testable import Reactive

@Suite struct MeasureIntervalTests {
    @Test func measuresFromTheSubscriptionThenBetweenValues() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("---a--b-|").measureInterval(using: scheduler.clock).map { String($0.frames) }, "---2--3-|", subscription: "-^")
        scheduler.run()
    }

    @Test func sameFrameValuesMeasureZeroAndFailurePasses() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.failingHot("-(ab)#").measureInterval(using: scheduler.clock).map { String($0.frames) }, "-(10)#", error: TestFailure())
        scheduler.run()
    }

    /// OpenCombine `MeasureIntervalTests.testRequest` (run against Combine): demand the
    /// subscriber returns from `receive(_:)` is requested upstream, and `.none` is returned.
    @Test func returnedDemandIsRequestedUpstreamNotReturned() {
        let scheduler = VirtualTimeScheduler()
        let upstream = PassthroughSubject<Int, Never>()
        let probe = DemandProbe(upstream: upstream)
        var received = 0
        let subscriber = AnySubscriber<VirtualTimeScheduler.SchedulerTimeType.Stride, Never>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { _ in received += 1; return .max(1) })
        probe.measureInterval(using: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(received == 2)
        #expect(probe.log.requested == [.max(1), .max(1), .max(1)])
        #expect(probe.log.returned == [.none, .none])
    }
}

/// Records what its subscriber requests and what it returns from `receive(_:)`, apart.
private struct DemandProbe<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure
    final class Log {
        var requested: [Subscribers.Demand] = []
        var returned: [Subscribers.Demand] = []
    }
    let upstream: Upstream
    let log = Log()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.receive(subscriber: Link(downstream: subscriber, log: log))
    }

    private final class Link<Downstream: Subscriber>: OperatorLink<Output, Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Failure {
        let log: Log
        init(downstream: Downstream, log: Log) {
            self.log = log
            super.init(downstream: downstream)
        }
        override func receive(_ input: Output) -> Subscribers.Demand {
            let demand = downstream.receive(input)
            log.returned.append(demand)
            return demand
        }
        override func receive(completion: Subscribers.Completion<Failure>) { forwardOnce(completion) }
        override func request(_ demand: Subscribers.Demand) {
            log.requested.append(demand)
            super.request(demand)
        }
    }
}
#endif
