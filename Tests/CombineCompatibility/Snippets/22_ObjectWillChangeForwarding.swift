#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

final class Profile: ObservableObject {
    @Published var name = "Ada"
    @Published var age = 36
}

/// A parent model that republishes its child's changes.
final class AppModel: ObservableObject {
    let profile = Profile()
    @Published var selectedTab = 0
    private var cancellables = Set<AnyCancellable>()

    init() {
        profile.objectWillChange
            .sink { [weak self] _ in self?.objectWillChange.send() }
            .store(in: &cancellables)
    }
}
