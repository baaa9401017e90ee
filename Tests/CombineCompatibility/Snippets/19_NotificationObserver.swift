#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

extension Notification.Name {
    static let sessionExpired = Notification.Name("sessionExpired")
    static let settingsChanged = Notification.Name("settingsChanged")
}

/// Reacts to app-wide notifications.
final class SessionObserver: ObservableObject {
    @Published private(set) var expired = false
    @Published private(set) var settingsRevision = 0
    private var cancellables = Set<AnyCancellable>()

    init(center: NotificationCenter = .default) {
        center.publisher(for: .sessionExpired)
            .map { _ in true }
            .receive(on: DispatchQueue.main)
            .assign(to: \.expired, on: self)
            .store(in: &cancellables)

        center.publisher(for: .settingsChanged, object: nil)
            .throttle(for: .seconds(1), scheduler: DispatchQueue.main, latest: true)
            .sink { [weak self] _ in self?.settingsRevision += 1 }
            .store(in: &cancellables)
    }
}
