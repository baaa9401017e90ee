// App code that loads URLs, with Foundation's imports and Reactive's but not ReactiveNetworking's:
// every use of URLSession's publisher is one error that names ReactiveNetworking (the lines marked
// `missing import`), and nothing else is reported. MissingImportTests typechecks it.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Reactive

struct Post: Decodable {
    let id: Int
    let title: String
}

enum FeedError: Error {
    case transport(URLError)
    case badStatus(Int)
}

extension Publisher where Output == URLSession.DataTaskPublisher.Output { // missing import
    func validStatus() -> AnyPublisher<Data, Error> {
        tryMap { data, response in
            guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else { throw URLError(.badServerResponse) }
            return data
        }
        .eraseToAnyPublisher()
    }
}

final class FeedModel {
    private(set) var posts: [Post] = []
    private var cancellables = Set<AnyCancellable>()

    func load(_ url: URL) {
        URLSession.shared.dataTaskPublisher(for: url) // missing import
            .map(\.data)
            .decode(type: [Post].self, decoder: JSONDecoder())
            .receive(on: DispatchQueue.main)
            .sink(receiveCompletion: { _ in }, receiveValue: { [weak self] in self?.posts = $0 })
            .store(in: &cancellables)
    }

    func titles(_ request: URLRequest) -> AnyPublisher<[String], FeedError> {
        URLSession.shared.dataTaskPublisher(for: request) // missing import
            .mapError(FeedError.transport)
            .map { output in String(decoding: output.data, as: UTF8.self).split(separator: "\n").map(String.init) }
            .eraseToAnyPublisher()
    }
}
