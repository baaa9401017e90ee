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

/// Loads image bytes, keeping them in a cache, cancelling the previous load.
final class ImageLoader: ObservableObject {
    @Published private(set) var data: Data?
    private var cancellable: AnyCancellable?
    private static var cache: [URL: Data] = [:]

    func load(_ url: URL) {
        if let cached = Self.cache[url] {
            data = cached
            return
        }
        cancellable?.cancel()
        cancellable = URLSession.shared.dataTaskPublisher(for: url)
            .map { Optional($0.data) }
            .replaceError(with: nil)
            .handleEvents(receiveOutput: { data in
                if let data { Self.cache[url] = data }
            })
            .receive(on: DispatchQueue.main)
            .sink { [weak self] in self?.data = $0 }
    }

    func cancel() { cancellable?.cancel() }
}
