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

enum HTTPStatusError: Error {
    case status(Int)
}

extension Publisher where Output == URLSession.DataTaskPublisher.Output {
    /// The body of a successful HTTP response; any other status fails.
    func httpSuccessData() -> Publishers.TryMap<Self, Data> {
        tryMap { data, response in
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                throw HTTPStatusError.status(http.statusCode)
            }
            return data
        }
    }
}

extension URLSession {
    func decoded<T: Decodable>(_ type: T.Type, from url: URL) -> AnyPublisher<T, Error> {
        dataTaskPublisher(for: url)
            .httpSuccessData()
            .decode(type: type, decoder: JSONDecoder())
            .eraseToAnyPublisher()
    }
}
