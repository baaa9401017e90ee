#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// An observable object with its own change publisher.
final class ManualModel: ObservableObject {
    let objectWillChange = PassthroughSubject<Void, Never>()

    var count = 0 {
        willSet { objectWillChange.send() }
    }
}

func observe(_ model: ManualModel) -> AnyCancellable {
    model.objectWillChange.sink { print("will change from", model.count) }
}
