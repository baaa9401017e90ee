#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

enum FetchError: Int, Error, Codable {
    case offline
}

/// A recorded stream saved as a fixture and replayed in a test: `Record` is `Codable` when its
/// output and failure are.
enum RecordedFixture {
    static func save(_ record: Record<String, FetchError>) throws -> Data {
        try JSONEncoder().encode(record)
    }

    static func load(_ data: Data) throws -> Record<String, FetchError> {
        try JSONDecoder().decode(Record<String, FetchError>.self, from: data)
    }

    static func replayed(_ data: Data) throws -> AnyPublisher<String, FetchError> {
        try load(data).eraseToAnyPublisher()
    }
}
