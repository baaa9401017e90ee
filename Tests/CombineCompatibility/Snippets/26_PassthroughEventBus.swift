#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

enum AppEvent: Equatable {
    case loggedIn(user: String)
    case loggedOut
    case error(String)
}

/// An app-wide event bus.
final class EventBus {
    static let shared = EventBus()
    private let subject = PassthroughSubject<AppEvent, Never>()

    var events: AnyPublisher<AppEvent, Never> { subject.eraseToAnyPublisher() }

    func post(_ event: AppEvent) { subject.send(event) }

    func errors() -> AnyPublisher<String, Never> {
        subject
            .compactMap { event -> String? in
                if case .error(let message) = event { return message }
                return nil
            }
            .eraseToAnyPublisher()
    }
}
