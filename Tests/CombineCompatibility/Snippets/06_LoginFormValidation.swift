#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// A sign-in form: the button is enabled once both fields are valid.
final class LoginFormViewModel: ObservableObject {
    @Published var email = ""
    @Published var password = ""
    @Published private(set) var canSubmit = false
    @Published private(set) var emailHint: String?

    private var cancellables = Set<AnyCancellable>()

    private var isEmailValid: AnyPublisher<Bool, Never> {
        $email
            .debounce(for: 0.2, scheduler: RunLoop.main)
            .removeDuplicates()
            .map { $0.contains("@") && $0.contains(".") }
            .eraseToAnyPublisher()
    }

    private var isPasswordValid: AnyPublisher<Bool, Never> {
        $password
            .map { $0.count >= 8 }
            .eraseToAnyPublisher()
    }

    init() {
        Publishers.CombineLatest(isEmailValid, isPasswordValid)
            .map { $0 && $1 }
            .receive(on: RunLoop.main)
            .assign(to: \.canSubmit, on: self)
            .store(in: &cancellables)

        isEmailValid
            .map { $0 ? nil : "Enter a valid address" }
            .sink { [weak self] in self?.emailHint = $0 }
            .store(in: &cancellables)
    }
}
