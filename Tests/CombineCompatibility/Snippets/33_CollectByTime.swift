#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// Analytics events sent in batches: every 5 seconds or every 20 events.
final class AnalyticsBatcher {
    private let events = PassthroughSubject<String, Never>()
    private var cancellable: AnyCancellable?

    init<S: Scheduler>(scheduler: S, upload: @escaping ([String]) -> Void) {
        cancellable = events
            .collect(.byTimeOrCount(scheduler, .seconds(5), 20))
            .sink(receiveValue: upload)
    }

    func log(_ name: String) { events.send(name) }
}

func windows(of values: PassthroughSubject<Int, Never>) -> AnyPublisher<[Int], Never> {
    values
        .collect(.byTime(DispatchQueue.main, .milliseconds(100)))
        .eraseToAnyPublisher()
}
