#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

enum FlakyError: Error {
    case temporary
}

/// A flaky call retried after a pause, timing out if too slow.
func resilientCall<S: Scheduler>(_ call: @escaping () -> AnyPublisher<String, FlakyError>, scheduler: S) -> AnyPublisher<String, FlakyError> {
    call()
        .catch { _ in
            call().delay(for: .seconds(1), scheduler: scheduler)
        }
        .timeout(.seconds(5), scheduler: scheduler, customError: { .temporary })
        .eraseToAnyPublisher()
}

func onMain(_ call: @escaping () -> AnyPublisher<String, FlakyError>) -> AnyPublisher<String, FlakyError> {
    resilientCall(call, scheduler: DispatchQueue.main)
}
