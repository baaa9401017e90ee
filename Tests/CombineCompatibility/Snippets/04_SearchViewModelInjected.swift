#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

struct SearchResult: Decodable, Equatable, Identifiable {
    let id: Int
    let title: String
}

protocol SearchAPI {
    func search(_ query: String) -> AnyPublisher<[SearchResult], Error>
}

/// Search as you type, with the scheduler injected so tests can control time.
final class SearchViewModel: ObservableObject {
    @Published var query = ""
    @Published private(set) var results: [SearchResult] = []
    @Published private(set) var isLoading = false
    @Published private(set) var errorMessage: String?

    private var cancellables: Set<AnyCancellable> = []

    init<S: Scheduler>(api: SearchAPI, scheduler: S) {
        $query
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .filter { !$0.isEmpty }
            .handleEvents(receiveOutput: { [weak self] _ in self?.isLoading = true })
            .map { query in
                api.search(query)
                    .catch { [weak self] error -> Just<[SearchResult]> in
                        self?.errorMessage = error.localizedDescription
                        return Just([])
                    }
            }
            .switchToLatest()
            .receive(on: scheduler)
            .sink { [weak self] results in
                self?.isLoading = false
                self?.results = results
            }
            .store(in: &cancellables)
    }
}
