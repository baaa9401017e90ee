import Reactive

extension Bench {
    /// Like `run`, but lists every received event as "frame:value" (or "frame:|", "frame:#"),
    /// for outputs whose values are longer than one character.
    func runTimed<P: Publisher>(_ publisher: P, initialDemand: Subscribers.Demand = .unlimited, subscribeAt: Int = 0, cancelAt: Int? = nil, requests: [(Int, Subscribers.Demand)] = []) -> [String] {
        let subscriber = TestSubscriber<P.Output, P.Failure>(scheduler: scheduler, initialDemand: initialDemand)
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
}
