#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// Published values consumed with Swift concurrency (`Publisher.values`).
final class DownloadProgress: ObservableObject {
    @Published var fraction = 0.0
}

func waitUntilDone(_ progress: DownloadProgress) async -> Double {
    for await fraction in progress.$fraction.values where fraction >= 1 {
        return fraction
    }
    return progress.fraction
}

func firstValue<P: Publisher>(of publisher: P) async throws -> P.Output? {
    for try await value in publisher.values {
        return value
    }
    return nil
}
