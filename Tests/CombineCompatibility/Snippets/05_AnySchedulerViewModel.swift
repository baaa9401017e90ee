#if canImport(Combine)
import Combine
import CombineSchedulers
#else
import Reactive
#endif
import Foundation

/// A counter that ticks on an injected, type-erased scheduler (combine-schedulers' style).
final class TickerViewModel: ObservableObject {
    @Published private(set) var ticks = 0
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private var timer: AnyCancellable?

    init(scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()) {
        self.scheduler = scheduler
    }

    func start() {
        timer = scheduler.timerPublisher(every: .seconds(1))
            .autoconnect()
            .sink { [weak self] _ in self?.ticks += 1 }
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }
}
