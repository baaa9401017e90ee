#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// A pipeline being debugged with `print` and `handleEvents`.
func debugPipeline() -> AnyCancellable {
    [1, 2, 3].publisher
        .print("numbers")
        .map { $0 * 10 }
        .handleEvents(receiveSubscription: { _ in print("subscribed") },
                      receiveOutput: { print("value", $0) },
                      receiveCompletion: { print("done", $0) },
                      receiveCancel: { print("cancelled") })
        .print()
        .sink { _ in }
}
