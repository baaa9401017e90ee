#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// A subscriber that asks for values in batches and keeps them.
final class BatchingSubscriber<Input>: Subscriber {
    typealias Failure = Never

    private let batch: Int
    private var subscription: Subscription?
    private(set) var received: [Input] = []
    private(set) var finished = false

    init(batch: Int) { self.batch = batch }

    func receive(subscription: Subscription) {
        self.subscription = subscription
        subscription.request(.max(batch))
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        received.append(input)
        return received.count % batch == 0 ? .max(batch) : .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        finished = true
        subscription = nil
    }
}

func collectInBatches<P: Publisher>(_ publisher: P) -> [P.Output] where P.Failure == Never {
    let subscriber = BatchingSubscriber<P.Output>(batch: 2)
    publisher.subscribe(subscriber)
    return subscriber.received
}
