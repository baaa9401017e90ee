#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

struct TodoItem: Equatable, Codable {
    var id: UUID
    var title: String
    var done: Bool
}

/// A store keeping its state in a subject and exposing publishers.
final class TodoStore {
    private let items = CurrentValueSubject<[TodoItem], Never>([])

    var itemsPublisher: AnyPublisher<[TodoItem], Never> { items.eraseToAnyPublisher() }

    var remainingCount: AnyPublisher<Int, Never> {
        items.map { $0.filter { !$0.done }.count }
            .removeDuplicates()
            .eraseToAnyPublisher()
    }

    func add(_ title: String) {
        items.value.append(TodoItem(id: UUID(), title: title, done: false))
    }

    func toggle(_ id: UUID) {
        items.value = items.value.map { item in
            var item = item
            if item.id == id { item.done.toggle() }
            return item
        }
    }
}
