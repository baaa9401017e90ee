import Dispatch
import Foundation

/// Runs work on several threads and hands the results back in the order of the inputs.
enum Parallel {
    /// Applies `work` to every item, at most `jobs` at a time, and calls `deliver` on the calling
    /// thread with each result in item order, as soon as that result and every one before it
    /// are ready — so a report streams in a stable order whatever finishes first. When
    /// `deliver` returns false no further item is started, no further result is delivered, and
    /// the items already started finish before it returns.
    ///
    /// With `jobs == 1` everything happens on the calling thread, one item after another.
    static func forEach<Item: Sendable, Output: Sendable>(
        _ items: [Item], jobs: Int,
        work: @escaping @Sendable (Item) -> Output,
        deliver: (Int, Output) -> Bool
    ) {
        guard jobs > 1, items.count > 1 else {
            for (index, item) in items.enumerated() where !deliver(index, work(item)) { return }
            return
        }
        let board = Board<Output>(count: items.count)
        let workers = DispatchGroup()
        for _ in 0..<min(jobs, items.count) {
            DispatchQueue.global().async(group: workers) {
                while let index = board.take() {
                    board.put(index, work(items[index]))
                }
            }
        }
        for index in items.indices {
            let output = board.wait(for: index)
            if !deliver(index, output) {
                board.stop()
                // The items already started finish before this returns: a caller that then
                // exits (`--fail-fast`) leaves no run half done on another thread.
                workers.wait()
                return
            }
        }
    }

    /// Maps every item with up to `jobs` threads; the results in item order.
    static func map<Item: Sendable, Output: Sendable>(_ items: [Item], jobs: Int, _ work: @escaping @Sendable (Item) -> Output) -> [Output] {
        var outputs: [Output] = []
        outputs.reserveCapacity(items.count)
        forEach(items, jobs: jobs, work: work) { _, output in
            outputs.append(output)
            return true
        }
        return outputs
    }
}

/// The shared state of one `Parallel.forEach`: the next item to take, and the results so far.
/// Every access goes through the lock; the condition wakes the delivering thread.
private final class Board<Output: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var results: [Output?]
    private var nextItem = 0
    private var stopped = false

    init(count: Int) {
        results = Array(repeating: nil, count: count)
    }

    /// The next item to work on, or nil when every item is taken or the run was stopped.
    func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped, nextItem < results.count else { return nil }
        nextItem += 1
        return nextItem - 1
    }

    func put(_ index: Int, _ output: Output) {
        condition.lock()
        results[index] = output
        condition.broadcast()
        condition.unlock()
    }

    func wait(for index: Int) -> Output {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let output = results[index] {
                results[index] = nil
                return output
            }
            condition.wait()
        }
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.unlock()
    }
}
