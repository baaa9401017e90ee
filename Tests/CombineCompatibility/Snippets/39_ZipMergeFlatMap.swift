#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

struct User: Decodable { let id: Int; let name: String }
struct Order: Decodable { let id: Int; let total: Double }

protocol ShopAPI {
    func user(id: Int) -> AnyPublisher<User, Error>
    func orders(userID: Int) -> AnyPublisher<[Order], Error>
}

/// Two requests in parallel, then one per item, with limited concurrency.
func dashboard(api: ShopAPI, userID: Int) -> AnyPublisher<(User, [Order]), Error> {
    Publishers.Zip(api.user(id: userID), api.orders(userID: userID))
        .eraseToAnyPublisher()
}

func totals(api: ShopAPI, userIDs: [Int]) -> AnyPublisher<Double, Error> {
    userIDs.publisher
        .setFailureType(to: Error.self)
        .flatMap(maxPublishers: .max(2)) { api.orders(userID: $0) }
        .map { $0.reduce(0) { $0 + $1.total } }
        .scan(0, +)
        .eraseToAnyPublisher()
}
