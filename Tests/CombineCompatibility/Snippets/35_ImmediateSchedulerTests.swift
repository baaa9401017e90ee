#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// Code written against a scheduler, exercised with `ImmediateScheduler` (no waiting).
final class Greeter<S: Scheduler> {
    @Published private(set) var greeting = ""
    private var cancellables = Set<AnyCancellable>()

    init(names: AnyPublisher<String, Never>, scheduler: S) {
        names
            .map { "Hello, \($0)!" }
            .receive(on: scheduler)
            .sink { [weak self] in self?.greeting = $0 }
            .store(in: &cancellables)
    }
}

func greetImmediately(_ name: String) -> String {
    let greeter = Greeter(names: Just(name).eraseToAnyPublisher(), scheduler: ImmediateScheduler.shared)
    return greeter.greeting
}
