#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// Heavy work off the main queue, results back on it.
final class ReportBuilder: ObservableObject {
    @Published private(set) var report = ""
    private var cancellables = Set<AnyCancellable>()
    private let work = DispatchQueue(label: "report.work", qos: .userInitiated)

    func build(from lines: [String]) {
        Just(lines)
            .subscribe(on: work)
            .map { $0.joined(separator: "\n") }
            .receive(on: DispatchQueue.main)
            .assign(to: \.report, on: self)
            .store(in: &cancellables)
    }

    func buildOnQueue(_ queue: OperationQueue, lines: [String]) {
        lines.publisher
            .collect()
            .receive(on: queue)
            .map { $0.count.description }
            .receive(on: RunLoop.main)
            .sink { [weak self] in self?.report = $0 }
            .store(in: &cancellables)
    }
}
