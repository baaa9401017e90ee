@testable import Reactive

/// A hand-driven upstream for the sequence/reducer tests: records what is asked of its one
/// subscription and lets a test push events. `send` delivers regardless of demand (to observe
/// the demand an operator returns); `offer` behaves like a `PassthroughSubject` (drops a value
/// when there is no demand) and records the demand returned for each delivered value.
final class SequenceTestSource<Output, Failure: Error>: Publisher {
    private(set) var subscriber: AnySubscriber<Output, Failure>?
    let subscription = SequenceTestSubscription()
    /// Demands returned synchronously from `receive(_:)` for values delivered by `offer`.
    private(set) var syncDemands: [Subscribers.Demand] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = AnySubscriber(subscriber)
        subscriber.receive(subscription: subscription)
    }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        subscriber?.receive(value) ?? .none
    }

    func offer(_ value: Output) {
        guard let subscriber, !subscription.isCancelled, subscription.demand > 0 else { return }
        subscription.demand -= 1
        let more = subscriber.receive(value)
        syncDemands.append(more)
        subscription.demand += more
    }

    func send(completion: Subscribers.Completion<Failure>) {
        subscriber?.receive(completion: completion)
    }
}

final class SequenceTestSubscription: Subscription, CustomStringConvertible {
    var description: String { "Probe" }
    private(set) var requests: [Subscribers.Demand] = []
    private(set) var history: [String] = []
    private(set) var isCancelled = false
    var demand: Subscribers.Demand = .none

    func request(_ demand: Subscribers.Demand) {
        requests.append(demand)
        history.append("request \(demand)")
        self.demand += demand
    }

    func cancel() {
        isCancelled = true
        history.append("cancel")
    }
}

/// A subscriber that logs every event into a shared list and hands out scripted demand. It holds
/// its subscription weakly: upstream (a `SequenceTestSource`) holds the operator's link, which
/// holds this subscriber, and the operators tested here keep their downstream even after a
/// cancel, so a strong reference would be a cycle left behind by every test.
final class SequenceLogSubscriber<Input, Failure: Error>: Subscriber {
    private(set) weak var subscription: (any Subscription)?
    private let log: (String) -> Void
    private let initialDemand: Subscribers.Demand
    private let demandFor: (Input) -> Subscribers.Demand

    init(initialDemand: Subscribers.Demand = .unlimited, log: @escaping (String) -> Void, demandFor: @escaping (Input) -> Subscribers.Demand = { _ in .none }) {
        self.log = log
        self.initialDemand = initialDemand
        self.demandFor = demandFor
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        log("downstream subscription")
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        log("downstream \(input)")
        return demandFor(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: log("downstream finished")
        case .failure(let error): log("downstream failure \(error)")
        }
    }
}

/// A log that closures can append to.
final class SequenceLines {
    private(set) var lines: [String] = []
    func append(_ line: String) { lines.append(line) }
}

extension Bench {
    /// Like `run`, but also returns the test subscriber, to check it never got a value it had
    /// not asked for.
    func runKeepingSubscriber<P: Publisher>(_ publisher: P, initialDemand: Subscribers.Demand = .unlimited, subscribeAt: Int = 0, cancelAt: Int? = nil, requests: [(Int, Subscribers.Demand)] = []) -> (String, TestSubscriber<P.Output, P.Failure>) {
        let subscriber = TestSubscriber<P.Output, P.Failure>(scheduler: scheduler, initialDemand: initialDemand)
        scheduler.schedule(at: subscribeAt) { publisher.subscribe(subscriber) }
        for (time, demand) in requests { scheduler.schedule(at: time) { subscriber.request(demand) } }
        if let cancelAt { scheduler.schedule(at: cancelAt) { subscriber.cancel() } }
        scheduler.run()
        return (render(subscriber.events), subscriber)
    }
}
