#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// Settings persisted as they change.
final class SettingsStore: ObservableObject {
    @Published var username: String
    @Published var notificationsEnabled: Bool
    @Published var nickname: String?
    @Published private(set) var displayName = ""
    private var cancellables = Set<AnyCancellable>()

    init(defaults: UserDefaults = .standard) {
        username = defaults.string(forKey: "username") ?? ""
        notificationsEnabled = defaults.bool(forKey: "notifications")

        $username
            .dropFirst()
            .debounce(for: .milliseconds(500), scheduler: RunLoop.main)
            .sink { defaults.set($0, forKey: "username") }
            .store(in: &cancellables)

        $nickname
            .replaceNil(with: "Anonymous")
            .assign(to: &$displayName)

        $notificationsEnabled
            .dropFirst()
            .sink { defaults.set($0, forKey: "notifications") }
            .store(in: &cancellables)
    }
}
