#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// Key-value observing through Combine: an operation's state, a defaults key.
final class OperationWatcher: ObservableObject {
    @Published private(set) var finished = false
    private var cancellables = Set<AnyCancellable>()

    func watch(_ operation: Operation) {
        operation.publisher(for: \.isFinished, options: [.initial, .new])
            .receive(on: DispatchQueue.main)
            .assign(to: \.finished, on: self)
            .store(in: &cancellables)
    }
}
