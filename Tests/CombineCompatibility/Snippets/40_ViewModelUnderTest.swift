#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// A view model and the way its tests drive it: a subject for input, an injected scheduler.
final class CounterViewModel: ObservableObject {
    @Published private(set) var total = 0
    @Published var step = 1
    let increments = PassthroughSubject<Void, Never>()

    // `assign(to: &$total)`, not `assign(to: \.total, on: self)` stored in the model: that one
    // holds the model, which holds it (a retain cycle in Combine too).
    init<S: Scheduler>(scheduler: S) {
        increments
            .withLatestStep(from: $step)
            .receive(on: scheduler)
            .scan(0, +)
            .assign(to: &$total)
    }
}

extension Publisher where Output == Void, Failure == Never {
    func withLatestStep(from steps: Published<Int>.Publisher) -> AnyPublisher<Int, Never> {
        Publishers.CombineLatest(self, steps)
            .map { _, step in step }
            .eraseToAnyPublisher()
    }
}

func exerciseCounter() -> Int {
    let model = CounterViewModel(scheduler: ImmediateScheduler.shared)
    model.increments.send()
    model.step = 5
    model.increments.send()
    return model.total
}
