#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// A query debounced straight into another published property.
final class DebouncedQuery: ObservableObject {
    @Published var query = ""
    @Published private(set) var settledQuery = ""

    init(delay: Double = 0.3) {
        $query
            .debounce(for: DispatchQueue.SchedulerTimeType.Stride.seconds(delay), scheduler: DispatchQueue.main)
            .removeDuplicates()
            .assign(to: &$settledQuery)
    }
}
