#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// A custom cancellable value type and a bag of cancellables.
struct CancelToken: Cancellable {
    let onCancel: () -> Void
    func cancel() { onCancel() }
}

final class Bag {
    var cancellables: [AnyCancellable] = []
    var set: Set<AnyCancellable> = []

    func keep(_ token: CancelToken) {
        token.store(in: &cancellables)
        AnyCancellable(token).store(in: &set)
    }

    func keepSink() {
        Just(1).sink { _ in }.store(in: &cancellables)
        Empty<Int, Never>().sink { _ in }.store(in: &set)
    }
}
