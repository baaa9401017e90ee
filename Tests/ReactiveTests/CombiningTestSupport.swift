import Reactive

extension Bench {
    /// Like `run`, but lists every received event as "frame:value" (or "frame:|", "frame:#"),
    /// for outputs whose values are longer than one character.
    func runListingEvents<P: Publisher>(_ publisher: P, initialDemand: Subscribers.Demand = .unlimited, subscribeAt: Int = 0, cancelAt: Int? = nil, requests: [(Int, Subscribers.Demand)] = []) -> [String] {
        let subscriber: TestSubscriber<P.Output, P.Failure> = testSubscriber(initialDemand: initialDemand)
        scheduler.schedule(at: subscribeAt) { publisher.subscribe(subscriber) }
        for (time, demand) in requests { scheduler.schedule(at: time) { subscriber.request(demand) } }
        if let cancelAt { scheduler.schedule(at: cancelAt) { subscriber.cancel() } }
        scheduler.run()
        return subscriber.events.map { event in
            switch event.event {
            case .value(let value): return "\(event.time):\(value)"
            case .completion(.finished): return "\(event.time):|"
            case .completion(.failure(let error)): return "\(event.time):#\(error)"
            }
        }
    }

    /// Attaches a test subscriber to `publisher` at `at` (and cancels it at `cancelAt`); run the
    /// scheduler afterwards and read `render(subscriber.events)`.
    func attachTestSubscriber<P: Publisher>(_ publisher: P, at: Int = 0, initialDemand: Subscribers.Demand = .unlimited, cancelAt: Int? = nil, requests: [(Int, Subscribers.Demand)] = []) -> TestSubscriber<P.Output, P.Failure> {
        let subscriber: TestSubscriber<P.Output, P.Failure> = testSubscriber(initialDemand: initialDemand)
        scheduler.schedule(at: at) { publisher.subscribe(subscriber) }
        for (time, demand) in requests { scheduler.schedule(at: time) { subscriber.request(demand) } }
        if let cancelAt { scheduler.schedule(at: cancelAt) { subscriber.cancel() } }
        return subscriber
    }
}
