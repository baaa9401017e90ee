#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
import ReactiveNetworking
#endif

enum APIError: Error {
    case badStatus(Int)
    case transport(URLError)
    case decoding(Error)
}

/// A small JSON client built on `dataTaskPublisher`.
struct NetworkClient {
    var session: URLSession = .shared
    var decoder = JSONDecoder()

    func get<T: Decodable>(_ url: URL, as type: T.Type = T.self) -> AnyPublisher<T, APIError> {
        session.dataTaskPublisher(for: url)
            .mapError(APIError.transport)
            .tryMap { output -> Data in
                guard let http = output.response as? HTTPURLResponse else { return output.data }
                guard (200..<300).contains(http.statusCode) else { throw APIError.badStatus(http.statusCode) }
                return output.data
            }
            .decode(type: T.self, decoder: decoder)
            .mapError { error in (error as? APIError) ?? .decoding(error) }
            .receive(on: DispatchQueue.main)
            .eraseToAnyPublisher()
    }
}
