#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// Sign-up: three fields combined, the password confirmed.
final class SignUpForm: ObservableObject {
    @Published var username = ""
    @Published var password = ""
    @Published var confirmation = ""
    @Published private(set) var isValid = false

    init() {
        Publishers.CombineLatest3($username, $password, $confirmation)
            .map { name, password, confirmation in
                name.count >= 3 && password.count >= 8 && password == confirmation
            }
            .removeDuplicates()
            .assign(to: &$isValid)
    }
}
