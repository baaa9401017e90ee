#if canImport(Combine)
import Combine
import CombineSchedulers
#else
import Reactive
#endif
import Foundation

protocol SuggestionService {
    func suggestions(for prefix: String) -> AnyPublisher<[String], Never>
}

/// Autocomplete: only the latest request's answer counts.
final class Autocomplete: ObservableObject {
    @Published var prefix = ""
    @Published private(set) var suggestions: [String] = []

    init(service: SuggestionService, scheduler: AnySchedulerOf<DispatchQueue>) {
        $prefix
            .removeDuplicates()
            .debounce(for: .milliseconds(200), scheduler: scheduler)
            .map { prefix -> AnyPublisher<[String], Never> in
                prefix.count < 2 ? Just([]).eraseToAnyPublisher() : service.suggestions(for: prefix)
            }
            .switchToLatest()
            .receive(on: scheduler)
            .assign(to: &$suggestions)
    }
}
