#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

extension ObservableObject {
    /// A signal after the object has changed (coalescing the will-change events).
    func objectDidChange<S: Scheduler>(on scheduler: S) -> AnyPublisher<Void, Never> where ObjectWillChangePublisher == ObservableObjectPublisher {
        objectWillChange
            .debounce(for: 0, scheduler: scheduler)
            .eraseToAnyPublisher()
    }
}

final class Draft: ObservableObject {
    @Published var text = ""
    @Published var title = ""
}

func autosave(_ draft: Draft, into cancellables: inout Set<AnyCancellable>, save: @escaping (String, String) -> Void) {
    draft.objectDidChange(on: DispatchQueue.main)
        .sink { [weak draft] in
            guard let draft else { return }
            save(draft.title, draft.text)
        }
        .store(in: &cancellables)
}
