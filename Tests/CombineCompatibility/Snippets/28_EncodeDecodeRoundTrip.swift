#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

struct Settings: Codable, Equatable {
    var theme: String
    var fontSize: Int
}

/// Saves and loads settings as JSON through publishers.
enum SettingsCodec {
    static func encoded(_ settings: Settings) -> AnyPublisher<Data, Error> {
        Just(settings)
            .encode(encoder: JSONEncoder())
            .eraseToAnyPublisher()
    }

    static func decoded(_ data: Data) -> AnyPublisher<Settings, Error> {
        Just(data)
            .decode(type: Settings.self, decoder: JSONDecoder())
            .eraseToAnyPublisher()
    }

    static func roundTrip(_ settings: Settings) -> AnyPublisher<Settings, Error> {
        encoded(settings)
            .flatMap(decoded)
            .eraseToAnyPublisher()
    }
}
