#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import Foundation

/// The pace of typing, measured between keystrokes.
final class TypingSpeed {
    let keystrokes = PassthroughSubject<Character, Never>()
    private(set) var lastGap: DispatchQueue.SchedulerTimeType.Stride?
    private var cancellable: AnyCancellable?

    init() {
        cancellable = keystrokes
            .measureInterval(using: DispatchQueue.main)
            .sink { [weak self] in self?.lastGap = $0 }
    }

    var isFast: Bool {
        guard let lastGap else { return false }
        return lastGap < .milliseconds(150)
    }
}
