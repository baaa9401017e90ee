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

struct Post: Codable {
    let id: Int
    let title: String
    let body: String
}

enum PostsError: Error {
    case network
    case parsing(Error)
}

/// Fetches posts with a request, retries, and falls back to an empty list.
final class PostsService {
    private let url = URL(string: "https://example.com/posts")!

    func posts() -> AnyPublisher<[Post], PostsError> {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        return URLSession.shared.dataTaskPublisher(for: request)
            .retry(2)
            .map { data, _ in data }
            .mapError { _ in PostsError.network }
            .flatMap { data in
                Just(data)
                    .decode(type: [Post].self, decoder: JSONDecoder())
                    .mapError(PostsError.parsing)
            }
            .receive(on: RunLoop.main)
            .eraseToAnyPublisher()
    }

    func postsOrEmpty() -> AnyPublisher<[Post], Never> {
        posts()
            .replaceError(with: [])
            .eraseToAnyPublisher()
    }
}
