/// A point on the virtual time axis, in whole frames. Frame 0 is a test's start.
public typealias VirtualTime = Int

/// Why a run stopped before its queue was empty.
public enum SchedulerStop: Error, Hashable, Sendable, CustomStringConvertible {
    /// The clock would have passed `limit`.
    case timeLimit(limit: VirtualTime)
    /// More than `limit` actions ran at one instant: the pipeline never settles (e.g. `retry()` on a source that fails at once).
    case instantActionLimit(limit: Int, at: VirtualTime)
    /// More than `limit` actions ran in the whole run.
    case actionLimit(limit: Int, at: VirtualTime)
    /// Something driving the run asked it to stop (a runtime error in a closure, a trapped assertion).
    case aborted(reason: String, at: VirtualTime)

    public var description: String {
        switch self {
        case .timeLimit(let limit):
            return "the run passed its time limit of \(limit) frames with work still pending"
        case .instantActionLimit(let limit, let at):
            return "more than \(limit) actions ran at frame \(at): the pipeline never settles"
        case .actionLimit(let limit, let at):
            return "the run passed its limit of \(limit) actions (at frame \(at))"
        case .aborted(let reason, _):
            return reason
        }
    }
}

/// The one clock of a simulation: a queue of actions ordered by (time, order of scheduling).
///
/// - The clock never moves backwards: work scheduled for the past runs now.
/// - Idle time is free: the clock jumps to the next action.
/// - Work scheduled "now" runs at the same instant, after everything already queued for it.
/// - Repeating actions keep the sequence number they were first scheduled with, so a timer
///   fires before one-shot work scheduled later for the same instant (pointfree's
///   `TestScheduler`, the most used Combine test scheduler, behaves the same way).
/// - Sources whose events are known in advance reserve sequence numbers up front
///   (`reserveSequence(count:)`) and feed the queue one event at a time, so the queue holds a
///   handful of entries however long the timeline is, and the order is the same as if every
///   event had been queued at once.
public final class VirtualTimeScheduler {
    public struct Limits: Sendable, Hashable {
        /// The last frame the clock may reach.
        public var maxTime: VirtualTime
        /// Actions allowed at one instant before the run is declared unsettled.
        public var maxActionsPerInstant: Int
        /// Actions allowed in the whole run.
        public var maxActions: Int

        public init(maxTime: VirtualTime = 1_000_000_000_000, maxActionsPerInstant: Int = 100_000, maxActions: Int = 50_000_000) {
            self.maxTime = maxTime
            self.maxActionsPerInstant = maxActionsPerInstant
            self.maxActions = maxActions
        }
    }

    public private(set) var now: VirtualTime
    public var limits: Limits
    /// Set when the run stopped early; no further action runs once it is set.
    public private(set) var stopReason: SchedulerStop?

    private var queue = ActionQueue()
    private var nextSequence = 0
    private var actionsThisInstant = 0
    private var actionsInRun = 0

    public init(now: VirtualTime = 0, limits: Limits = Limits()) {
        self.now = now
        self.limits = limits
    }

    /// Moves the clock back to `time` before anything has run (a test whose timelines start
    /// before frame 0). Has no effect once the clock has moved or work was queued before `time`.
    public func rewindStart(to time: VirtualTime) {
        guard actionsInRun == 0, time < now, (queue.peek?.time ?? .max) >= time else { return }
        now = time
    }

    /// Whether any action is still queued.
    public var hasPendingWork: Bool { !queue.isEmpty }

    /// The time of the next queued action that has not been cancelled, if any.
    public var nextActionTime: VirtualTime? { queue.earliestLiveTime }

    // MARK: Scheduling

    /// Runs `action` at the current instant, after the work already queued for it.
    public func schedule(_ action: @escaping () -> Void) {
        enqueue(at: now, sequence: takeSequence(), interval: 0, action: action, token: nil)
    }

    /// Runs `action` at `time` (or now, if `time` is in the past). Returns a handle that cancels it.
    @discardableResult
    public func schedule(at time: VirtualTime, _ action: @escaping () -> Void) -> ScheduledAction {
        let token = ScheduledAction()
        enqueue(at: max(time, now), sequence: takeSequence(), interval: 0, action: action, token: token)
        return token
    }

    /// Runs `action` `delay` frames from now.
    @discardableResult
    public func schedule(after delay: Int, _ action: @escaping () -> Void) -> ScheduledAction {
        schedule(at: now.addingClamped(delay), action)
    }

    /// Runs `action` at `start`, then every `interval` frames (at least 1) until cancelled.
    @discardableResult
    public func schedule(at start: VirtualTime, interval: Int, _ action: @escaping () -> Void) -> ScheduledAction {
        let token = ScheduledAction()
        enqueue(at: max(start, now), sequence: takeSequence(), interval: max(1, interval), action: action, token: token)
        return token
    }

    /// Reserves `count` consecutive sequence numbers and returns the first. Work queued later
    /// with `schedule(at:sequence:_:)` and one of these numbers is ordered as if it had been
    /// queued now.
    public func reserveSequence(count: Int) -> Int {
        let first = nextSequence
        nextSequence += max(0, count)
        return first
    }

    /// Queues `action` at `time` with a sequence number from `reserveSequence(count:)`.
    @discardableResult
    public func schedule(at time: VirtualTime, sequence: Int, _ action: @escaping () -> Void) -> ScheduledAction {
        let token = ScheduledAction()
        enqueue(at: max(time, now), sequence: sequence, interval: 0, action: action, token: token)
        return token
    }

    // MARK: Running

    /// Runs queued actions in order until the queue is empty, the clock would pass `deadline`,
    /// or a limit stops the run. Returns why it stopped early, if it did.
    @discardableResult
    public func run(until deadline: VirtualTime? = nil) -> SchedulerStop? {
        while stopReason == nil, let next = queue.peek {
            if let deadline, next.time > deadline { break }
            if next.time > limits.maxTime {
                stopReason = .timeLimit(limit: limits.maxTime)
                break
            }
            let entry = queue.pop()
            if entry.token?.isCancelled == true { continue }
            if entry.time > now {
                now = entry.time
                actionsThisInstant = 0
            }
            guard countAction() else { break }
            if entry.interval > 0 {
                enqueue(at: entry.time.addingClamped(entry.interval), sequence: entry.sequence,
                        interval: entry.interval, action: entry.action, token: entry.token)
            }
            entry.action()
        }
        if stopReason == nil, let deadline, deadline > now, deadline <= limits.maxTime {
            now = deadline
            actionsThisInstant = 0
        }
        return stopReason
    }

    /// Counts one unit of synchronous work (a resubscription, say) against the per-instant and
    /// per-run budgets. Returns false, and stops the run, once a budget is exhausted; callers
    /// must then stop looping.
    public func countAction() -> Bool {
        guard stopReason == nil else { return false }
        actionsThisInstant += 1
        actionsInRun += 1
        if actionsThisInstant > limits.maxActionsPerInstant {
            stopReason = .instantActionLimit(limit: limits.maxActionsPerInstant, at: now)
            return false
        }
        if actionsInRun > limits.maxActions {
            stopReason = .actionLimit(limit: limits.maxActions, at: now)
            return false
        }
        return true
    }

    /// Stops the run after the current action.
    public func abort(_ reason: String) {
        if stopReason == nil { stopReason = .aborted(reason: reason, at: now) }
    }

    // MARK: Private

    private func takeSequence() -> Int {
        defer { nextSequence += 1 }
        return nextSequence
    }

    private func enqueue(at time: VirtualTime, sequence: Int, interval: Int, action: @escaping () -> Void, token: ScheduledAction?) {
        queue.push(QueuedAction(time: time, sequence: sequence, interval: interval, action: action, token: token))
    }
}

/// A handle on scheduled work; cancelling it before it runs means it never runs.
public final class ScheduledAction: Cancellable {
    public private(set) var isCancelled = false
    init() {}
    public func cancel() { isCancelled = true }
}

struct QueuedAction {
    let time: VirtualTime
    let sequence: Int
    let interval: Int
    let action: () -> Void
    let token: ScheduledAction?

    func precedes(_ other: QueuedAction) -> Bool {
        time != other.time ? time < other.time : sequence < other.sequence
    }
}

/// A binary min-heap on (time, sequence).
struct ActionQueue {
    private var heap: [QueuedAction] = []

    var isEmpty: Bool { heap.isEmpty }

    /// The earliest time of an action not cancelled (a scan: for reports, not the run loop).
    var earliestLiveTime: VirtualTime? {
        heap.lazy.filter { $0.token?.isCancelled != true }.map(\.time).min()
    }
    var peek: QueuedAction? { heap.first }

    mutating func push(_ element: QueuedAction) {
        heap.append(element)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the first action. The queue must not be empty.
    mutating func pop() -> QueuedAction {
        let first = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            let count = heap.count
            while true {
                let left = 2 * parent + 1
                guard left < count else { break }
                var smallest = left
                let right = left + 1
                if right < count, heap[right].precedes(heap[left]) { smallest = right }
                guard heap[smallest].precedes(heap[parent]) else { break }
                heap.swapAt(smallest, parent)
                parent = smallest
            }
        }
        return first
    }
}

extension Int {
    /// Addition that saturates instead of trapping, for times far in the future.
    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
