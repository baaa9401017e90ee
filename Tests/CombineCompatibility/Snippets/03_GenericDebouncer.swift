#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// Debounces values of any equatable type on any scheduler.
final class GenericDebouncer<Value: Equatable, S: Scheduler> {
    private let subject = PassthroughSubject<Value, Never>()
    private var cancellables = Set<AnyCancellable>()

    init(dueTime: S.SchedulerTimeType.Stride, scheduler: S, onValue: @escaping (Value) -> Void) {
        subject
            .removeDuplicates()
            .debounce(for: dueTime, scheduler: scheduler)
            .sink { onValue($0) }
            .store(in: &cancellables)
    }

    func send(_ value: Value) { subject.send(value) }
}

func makeMainDebouncer(onValue: @escaping (String) -> Void) -> GenericDebouncer<String, DispatchQueue> {
    GenericDebouncer(dueTime: .milliseconds(250), scheduler: .main, onValue: onValue)
}
