#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// A stream whose failures are handled upstream, asserted so: `assertNoFailure()` with its
/// default arguments (a failure would trap here, with the prefix).
final class GreetingModel {
    @Published var name = ""
    private(set) var greeting = ""
    private var cancellables = Set<AnyCancellable>()

    init(names: AnyPublisher<String, Error>) {
        names
            .catch { _ in Just("stranger") }
            .setFailureType(to: Error.self)
            .assertNoFailure()
            .map { "Hello, \($0)!" }
            .sink { [weak self] in self?.greeting = $0 }
            .store(in: &cancellables)
        $name
            .setFailureType(to: Error.self)
            .assertNoFailure("name stream")
            .sink { _ in }
            .store(in: &cancellables)
    }
}
