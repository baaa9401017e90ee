#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

struct Member {
    var nickname: String?
}

/// A lookup that may find nothing, as a stream step through `Optional.publisher`: a missing
/// nickname publishes nothing and the chain goes on.
func nicknames(of profiles: [Member]) -> AnyPublisher<String, Never> {
    profiles.publisher
        .flatMap { $0.nickname.publisher }
        .eraseToAnyPublisher()
}

let cachedToken: String? = nil
let tokenStep: Optional<String>.Publisher = cachedToken.publisher
let fallbackToken = Optional("guest").publisher.eraseToAnyPublisher()
