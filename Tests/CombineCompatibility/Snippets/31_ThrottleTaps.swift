#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// Button taps throttled so that a double tap does one thing.
final class TapHandler {
    let taps = PassthroughSubject<Void, Never>()
    private var cancellables = Set<AnyCancellable>()
    private(set) var handled = 0

    init() {
        taps
            .throttle(for: .milliseconds(500), scheduler: RunLoop.main, latest: false)
            .sink { [weak self] in self?.handled += 1 }
            .store(in: &cancellables)
    }

    func tap() { taps.send() }
}
