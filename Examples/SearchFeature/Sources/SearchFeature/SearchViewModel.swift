#if canImport(Combine)
import Combine
#else
import Reactive
#endif

/// Why a search request failed.
public struct SearchError: Error, Equatable, Sendable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// The search field of a screen: what the user types goes to `query`; `results` follows it,
/// once the typing pauses for 300 ms, for each new query, with a late answer to an old query
/// dropped. A failed request is tried once more, then the screen shows `offline`.
public final class SearchViewModel<S: Scheduler>: ObservableObject {
    @Published public var query = ""
    @Published public private(set) var results: [String] = []

    /// What the screen shows when the search service cannot be reached.
    public static var offline: [String] { ["(offline)"] }

    /// - Parameters:
    ///   - search: the search service: one request per query.
    ///   - scheduler: where the debounce waits (`DispatchQueue.main` in the app).
    public init(search: @escaping (String) -> AnyPublisher<[String], SearchError>, scheduler: S) {
        $query
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .map { query in
                search(query)
                    .retry(1)
                    .catch { _ in Just(Self.offline) }
            }
            .switchToLatest()
            .assign(to: &$results)
    }
}
