#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// A custom publisher: emits the integers in a range, honouring demand.
struct CountingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let range: ClosedRange<Int>

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: CountingSubscription(subscriber: subscriber, range: range))
    }
}

private final class CountingSubscription<S: Subscriber>: Subscription where S.Input == Int, S.Failure == Never {
    private var subscriber: S?
    private var next: Int
    private let last: Int

    init(subscriber: S, range: ClosedRange<Int>) {
        self.subscriber = subscriber
        next = range.lowerBound
        last = range.upperBound
    }

    func request(_ demand: Subscribers.Demand) {
        var demand = demand
        while demand > 0, next <= last, let subscriber {
            demand -= 1
            demand += subscriber.receive(next)
            next += 1
        }
        if next > last {
            subscriber?.receive(completion: .finished)
            subscriber = nil
        }
    }

    func cancel() { subscriber = nil }
}
