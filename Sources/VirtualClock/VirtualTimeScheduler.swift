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
/// - A timer restarted again and again (debounce) is re-armed (`rearm`), not cancelled and
///   rescheduled: the same order, without an allocation or a new queue entry per restart.
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

    /// The frame the clock is at (`now` is the same instant as a `SchedulerTimeType`).
    public var currentFrame: VirtualTime { frame }
    // Read for every value a test records. Another module reading a stored property of this
    // final class directly checks exclusivity itself (it does not see `@exclusivity(unchecked)`:
    // about 76 instructions a read, callgrind e2e W1); through the getter it does not.
    @exclusivity(unchecked) private var frame: VirtualTime
    @exclusivity(unchecked) public var limits: Limits
    /// Set when the run stopped early; no further action runs once it is set.
    @exclusivity(unchecked) public private(set) var stopReason: SchedulerStop?

    private let queue = ActionQueue()
    @exclusivity(unchecked) private var nextSequence = 0
    @exclusivity(unchecked) private var actionsThisInstant = 0
    @exclusivity(unchecked) private var actionsInRun = 0
    /// Where the running action asked its own entry to be queued again (`requeueRunningAction`).
    @exclusivity(unchecked) private var requeueKey: (time: VirtualTime, sequence: Int)?

    public init(now: VirtualTime = 0, limits: Limits = Limits()) {
        frame = now
        self.limits = limits
    }

    /// Moves the clock back to `time` before anything has run (a test whose timelines start
    /// before frame 0). Has no effect once the clock has moved or work was queued before `time`.
    public func rewindStart(to time: VirtualTime) {
        guard actionsInRun == 0, time < currentFrame, (queue.firstTime ?? .max) >= time else { return }
        frame = time
    }

    /// Whether any action is still queued.
    public var hasPendingWork: Bool { !queue.isEmpty }

    /// How many actions (and counted units of work) the run has done so far.
    public var actionCount: Int { actionsInRun }

    /// The time of the next queued action that has not been cancelled, if any.
    public var nextActionTime: VirtualTime? { queue.earliestLiveTime }

    // MARK: Scheduling

    /// Runs `action` at the current instant, after the work already queued for it.
    public func schedule(_ action: @escaping () -> Void) {
        enqueue(at: currentFrame, sequence: takeSequence(), interval: 0, action: action, token: nil)
    }

    /// Runs `action` at `time` (or now, if `time` is in the past). Returns a handle that cancels it.
    @discardableResult
    public func schedule(at time: VirtualTime, _ action: @escaping () -> Void) -> ScheduledAction {
        let token = ScheduledAction()
        enqueue(at: max(time, currentFrame), sequence: takeSequence(), interval: 0, action: action, token: token)
        return token
    }

    /// Runs `action` `delay` frames from now.
    @discardableResult
    public func schedule(afterFrames delay: Int, _ action: @escaping () -> Void) -> ScheduledAction {
        schedule(at: currentFrame.addingClamped(delay), action)
    }

    /// Runs `action` at `start`, then every `interval` frames (at least 1) until cancelled.
    @discardableResult
    public func schedule(at start: VirtualTime, interval: Int, _ action: @escaping () -> Void) -> ScheduledAction {
        let token = ScheduledAction()
        enqueue(at: max(start, currentFrame), sequence: takeSequence(), interval: max(1, interval), action: action, token: token)
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
        enqueue(at: max(time, currentFrame), sequence: sequence, interval: 0, action: action, token: token)
        return token
    }

    /// Arms `timer` to run `action` at `time` (or now, if `time` is past), replacing its
    /// previous arming if that has not run yet, and clearing a cancel. The result is exactly
    /// that of cancelling the old arming and scheduling anew (the same sequence number is taken,
    /// so the order against other work is the same), without allocating: while the old arming is
    /// still queued for an earlier or equal key, it is only retargeted, and moved when it surfaces.
    /// `action` must be the same closure (or an equivalent one) on every call for one timer.
    package func rearm(_ timer: ScheduledAction, at time: VirtualTime, _ action: @escaping () -> Void) {
        let target = time > currentFrame ? time : currentFrame
        let sequence = takeSequence()
        timer.isCancelled = false
        timer.targetTime = target
        timer.targetSequence = sequence
        if timer.queuedSequence >= 0, timer.queuedTime <= target {
            // The queued arming surfaces first (its sequence number is older); it moves then.
            return
        }
        timer.queuedTime = target
        timer.queuedSequence = sequence
        queue.push(ActionQueue.Entry(time: target, sequence: sequence, interval: 0, action: action, token: timer))
    }

    // MARK: Running

    /// Runs queued actions in order until the queue is empty, the clock would pass `deadline`,
    /// or a limit stops the run. Returns why it stopped early, if it did.
    @discardableResult
    public func run(until deadline: VirtualTime? = nil) -> SchedulerStop? {
        let last = min(deadline ?? .max, limits.maxTime)
        while stopReason == nil, let time = queue.firstTime {
            if time > last {
                if let deadline, time > deadline { break }
                stopReason = .timeLimit(limit: limits.maxTime)
                break
            }
            var entry = queue.pop()
            let sequence = entry.sequence
            if let token = entry.token {
                if token.queuedSequence != ScheduledAction.untracked {
                    // A re-armable timer: drop a stale arming, move a retargeted one.
                    guard token.queuedSequence == sequence else { continue }
                    if token.isCancelled {
                        token.queuedSequence = ScheduledAction.notQueued
                        continue
                    }
                    if token.targetSequence != sequence {
                        token.queuedTime = token.targetTime
                        token.queuedSequence = token.targetSequence
                        entry.time = token.targetTime
                        entry.sequence = token.targetSequence
                        queue.push(entry)
                        continue
                    }
                    token.queuedSequence = ScheduledAction.notQueued
                } else if token.isCancelled {
                    continue
                }
            }
            if time > currentFrame {
                frame = time
                actionsThisInstant = 0
            }
            guard countAction() else { break }
            if entry.interval > 0 {
                let action = entry.action
                entry.time = time.addingClamped(entry.interval)
                queue.push(entry)
                action()
            } else {
                requeueKey = nil
                entry.action()
                if let key = requeueKey {
                    // Moved back into the queue: its closure and token are not retained again.
                    requeueKey = nil
                    entry.time = key.time
                    entry.sequence = key.sequence
                    queue.push(entry)
                }
            }
        }
        if stopReason == nil, let deadline, deadline > currentFrame, deadline <= limits.maxTime {
            frame = deadline
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
            stopReason = .instantActionLimit(limit: limits.maxActionsPerInstant, at: currentFrame)
            return false
        }
        if actionsInRun > limits.maxActions {
            stopReason = .actionLimit(limit: limits.maxActions, at: currentFrame)
            return false
        }
        return true
    }

    /// Counts one unit of work done inside the current action (a call of a closure, say) against
    /// the per-instant budget only: the per-run budget counts actions, and a driver may size it
    /// from them. Returns false, and stops the run, once the budget is exhausted.
    public func countWorkThisInstant() -> Bool {
        guard stopReason == nil else { return false }
        actionsThisInstant += 1
        guard actionsThisInstant <= limits.maxActionsPerInstant else {
            stopReason = .instantActionLimit(limit: limits.maxActionsPerInstant, at: currentFrame)
            return false
        }
        return true
    }

    /// Runs the actions already due (queued at or before the current frame), then drops the rest.
    /// A driver calls it once a run is over and its subscribers are cancelled: an operator that
    /// passes a cancel on by a hop (`subscribe(on:)`) leaves that cancel queued, and the chain
    /// above it (a `zip` and its inputs hold each other until cancelled) is let go only when it
    /// runs, as it would be in Combine once the scheduler gets to it. After a stopped run
    /// (a limit, a fault) nothing more runs: the queue is only dropped.
    public func finishDueWork() {
        if stopReason == nil { run(until: currentFrame) }
        discardPendingWork()
    }

    /// Drops every action still queued. Queued work holds the subscriptions and publishers it
    /// acts on, which hold what scheduled it (often the owner of this scheduler): a driver done
    /// with a run calls this so that the cycle does not outlive it.
    public func discardPendingWork() {
        queue.removeAll()
    }

    /// Stops the run after the current action.
    public func abort(_ reason: String) {
        if stopReason == nil { stopReason = .aborted(reason: reason, at: currentFrame) }
    }

    // MARK: Private

    private func takeSequence() -> Int {
        defer { nextSequence += 1 }
        return nextSequence
    }

    @usableFromInline
    package func enqueue(at time: VirtualTime, sequence: Int, interval: Int, action: @escaping () -> Void, token: ScheduledAction?) {
        queue.push(ActionQueue.Entry(time: time, sequence: sequence, interval: interval, action: action, token: token))
    }

    /// Called by the running action (a timeline playback delivering one event): once it returns,
    /// its own entry — the same closure and token — is queued again at `time` (or now, if past)
    /// under the reserved `sequence`. The order is that of queueing a new entry now (keys decide
    /// the order, and nothing runs in between), without retaining and releasing the closure and
    /// token for every event.
    @usableFromInline
    func requeueRunningAction(at time: VirtualTime, sequence: Int) {
        requeueKey = (time > currentFrame ? time : currentFrame, sequence)
    }

    /// Queues `action` at `time` (or now, if `time` is past) under a reserved sequence number,
    /// with a token the caller reuses: one-shot work that a long-lived source queues again and
    /// again (a timeline playback) costs no allocation per event.
    @usableFromInline
    func enqueueReserved(at time: VirtualTime, sequence: Int, action: @escaping () -> Void, token: ScheduledAction) {
        queue.push(ActionQueue.Entry(time: time > currentFrame ? time : currentFrame, sequence: sequence, interval: 0, action: action, token: token))
    }
}

/// A handle on scheduled work; cancelling it before it runs means it never runs. (The engine
/// makes it a `Cancellable`; this module knows no engine.)
public final class ScheduledAction {
    @exclusivity(unchecked) public internal(set) var isCancelled = false
    /// For a timer armed by `rearm`: the key of its one live queue entry (`queuedSequence` is
    /// `notQueued` when none is queued, `untracked` for ordinary handles), and the key it should
    /// run at (a later one, after a re-arm, until the entry surfaces and moves there).
    @exclusivity(unchecked) var queuedSequence = untracked
    @exclusivity(unchecked) var queuedTime: VirtualTime = 0
    @exclusivity(unchecked) var targetSequence = 0
    @exclusivity(unchecked) var targetTime: VirtualTime = 0
    static let untracked = -2
    static let notQueued = -1

    @usableFromInline init() {}

    /// A handle for `VirtualTimeScheduler.rearm(_:at:_:)`, not yet armed.
    package static func timer() -> ScheduledAction {
        let timer = ScheduledAction()
        timer.queuedSequence = notQueued
        return timer
    }

    public func cancel() { isCancelled = true }

    /// Whether the entry queued under `sequence` would still run (for reports, not the run loop).
    func isLive(sequence: Int) -> Bool {
        guard !isCancelled else { return false }
        return queuedSequence == ScheduledAction.untracked || queuedSequence == sequence
    }
}

/// A binary min-heap of actions on (time, sequence), in storage it manages itself. Entries
/// are moved, never copied: sifting moves a hole (no retain or release per level, no bounds
/// or uniqueness checks), and an entry is moved out when it runs, so queueing and running an
/// action retains its closure and token once and releases them once.
final class ActionQueue {
    struct Entry {
        var time: VirtualTime
        var sequence: Int
        let interval: Int
        let action: () -> Void
        let token: ScheduledAction?
    }

    @exclusivity(unchecked) private var entries: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    init() {
        capacity = 16
        entries = .allocate(capacity: capacity)
    }

    deinit {
        entries.deinitialize(count: count)
        entries.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// Drops every entry (releasing its closure and token).
    func removeAll() {
        entries.deinitialize(count: count)
        count = 0
    }

    /// The time of the first action.
    var firstTime: VirtualTime? { count == 0 ? nil : entries[0].time }

    /// The earliest time at which an action not cancelled will run (a scan: for reports, not the
    /// run loop). A retargeted timer counts at its target.
    var earliestLiveTime: VirtualTime? {
        var earliest: VirtualTime?
        for index in 0..<count {
            let entry = entries + index
            var time = entry.pointee.time
            if let token = entry.pointee.token {
                guard token.isLive(sequence: entry.pointee.sequence) else { continue }
                if token.queuedSequence == entry.pointee.sequence { time = token.targetTime }
            }
            if earliest.map({ time < $0 }) ?? true { earliest = time }
        }
        return earliest
    }

    @inline(__always)
    private func precedes(_ time: VirtualTime, _ sequence: Int, _ index: Int) -> Bool {
        let other = entries + index
        return time != other.pointee.time ? time < other.pointee.time : sequence < other.pointee.sequence
    }

    func push(_ entry: consuming Entry) {
        if count == capacity { grow() }
        let time = entry.time, sequence = entry.sequence
        // Sift a hole up from the end, then move the entry into it.
        var hole = count
        count += 1
        while hole > 0 {
            let parent = (hole - 1) / 2
            guard precedes(time, sequence, parent) else { break }
            (entries + hole).moveInitialize(from: entries + parent, count: 1)
            hole = parent
        }
        (entries + hole).initialize(to: entry)
    }

    /// Removes and returns the first action. The queue must not be empty.
    func pop() -> Entry {
        let first = entries.move()
        count -= 1
        guard count > 0 else { return first }
        // Sift the hole at the root down, then move the last entry into it.
        let last = (entries + count).move()
        let time = last.time, sequence = last.sequence
        var hole = 0
        while true {
            var child = 2 * hole + 1
            guard child < count else { break }
            let right = child + 1
            if right < count, precedes((entries + right).pointee.time, (entries + right).pointee.sequence, child) { child = right }
            guard !precedes(time, sequence, child) else { break }
            (entries + hole).moveInitialize(from: entries + child, count: 1)
            hole = child
        }
        (entries + hole).initialize(to: last)
        return first
    }

    private func grow() {
        let larger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = larger
        capacity *= 2
    }
}

extension Int {
    /// Addition that saturates instead of trapping, for times far in the future.
    @inlinable
    package func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
