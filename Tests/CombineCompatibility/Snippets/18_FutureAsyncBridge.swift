#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// A `Future` used as a one-shot, typed result.
func fetchToken(valid: Bool) -> Future<String, Error> {
    Future<String, Error> { promise in
        if valid {
            promise(.success("token-123"))
        } else {
            promise(.failure(URLError(.userAuthenticationRequired)))
        }
    }
}

func loginFlow(_ cancellables: inout Set<AnyCancellable>, onToken: @escaping (String) -> Void) {
    fetchToken(valid: true)
        .retry(1)
        .sink(receiveCompletion: { completion in
            if case .failure(let error) = completion {
                print("login failed: \(error)")
            }
        }, receiveValue: onToken)
        .store(in: &cancellables)
}
