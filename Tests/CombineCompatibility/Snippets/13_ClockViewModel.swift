#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// The time of day, refreshed every second, formatted.
final class ClockViewModel: ObservableObject {
    @Published var now = Date()
    private var cancellables = Set<AnyCancellable>()
    private let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }()

    var label: String { formatter.string(from: now) }

    init() {
        Timer.publish(every: 1.0, tolerance: 0.1, on: .main, in: .default)
            .autoconnect()
            .assign(to: \.now, on: self)
            .store(in: &cancellables)
    }
}
