#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// Subscribing by hand with `Subscribers.Sink` and `AnySubscriber`.
func manualSubscription(values: [Int]) -> [Int] {
    var seen: [Int] = []
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { seen.append($0) })
    values.publisher.subscribe(sink)
    sink.cancel()

    let any = AnySubscriber<Int, Never>(receiveSubscription: { $0.request(.max(1)) },
                                         receiveValue: { seen.append($0 * 100); return .none },
                                         receiveCompletion: { _ in })
    values.publisher.subscribe(any)
    return seen
}

func identifiers(_ subscription: Subscription) -> CombineIdentifier {
    subscription.combineIdentifier
}
