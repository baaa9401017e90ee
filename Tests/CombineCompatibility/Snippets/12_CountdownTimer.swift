#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// A countdown driven by Foundation's timer publisher.
final class CountdownViewModel: ObservableObject {
    @Published private(set) var remaining: Int
    private var timer: AnyCancellable?

    init(seconds: Int) { remaining = seconds }

    func start() {
        timer = Timer.publish(every: 1, on: .main, in: .common)
            .autoconnect()
            .sink { [weak self] _ in
                guard let self else { return }
                if self.remaining > 0 {
                    self.remaining -= 1
                } else {
                    self.timer?.cancel()
                }
            }
    }
}
