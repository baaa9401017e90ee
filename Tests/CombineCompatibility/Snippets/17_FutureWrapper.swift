#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

enum LocationError: Error {
    case denied
}

struct Coordinate: Equatable {
    var latitude: Double
    var longitude: Double
}

/// A callback API wrapped in a `Future`.
final class LocationProvider {
    func requestLocation(completion: @escaping (Result<Coordinate, LocationError>) -> Void) {
        DispatchQueue.global().async {
            completion(.success(Coordinate(latitude: 48.85, longitude: 2.35)))
        }
    }

    func location() -> Future<Coordinate, LocationError> {
        Future { promise in
            self.requestLocation { result in promise(result) }
        }
    }

    func deferredLocation() -> AnyPublisher<Coordinate, LocationError> {
        Deferred { self.location() }.eraseToAnyPublisher()
    }
}
