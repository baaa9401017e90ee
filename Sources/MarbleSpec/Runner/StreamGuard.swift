import Reactive
import MarbleSyntax

/// What one test's named streams are doing right now, innermost last: the engine calls through
/// them synchronously (a subscription subscribes upstream, a value is delivered downstream), so
/// a stream that reaches itself — `let a = Deferred { a }`, a subject multicast into itself —
/// recurses until the stack runs out. Every named stream passes through a `StreamGuard`, which
/// keeps this stack and stops the run, with the cycle named, once a stream is inside itself
/// more than `maximumReentry` times. It also counts the values each stream passes, which bounds
/// what a test subscriber records.
final class StreamActivity {
    /// How many times a stream may be inside its own subscription (or its own delivery, or its
    /// own request). A stream is legitimately inside itself once per nested `flatMap { _ in a }`
    /// of itself; a cycle reaches any depth at once.
    static let maximumReentry = 16
    /// Values one named stream may pass in a run (over all its subscriptions): what a test
    /// subscriber records is an array of them.
    static let maximumValuesPerStream = 1_000_000

    enum Kind: Int {
        case subscription, delivery, request

        func sentence(_ name: String) -> String {
            switch self {
            case .subscription: "'\(name)' subscribes to itself"
            case .delivery: "'\(name)' receives its own output"
            case .request: "'\(name)' requests from itself"
            }
        }
    }

    /// One named stream's counts, shared by every subscription to it.
    final class Counts {
        let name: String
        /// Where the stream is named (the diagnostics' place).
        let location: SourceLocation
        /// Its place in the activity's `registered`, which the stack holds instead of the object
        /// (an entry holding a reference costs a retain and a release per value).
        fileprivate(set) var id = 0
        // These counters, and the activity's stack, are touched for every value of every named
        // stream; the runtime's exclusivity checks on them cost more than the counting (callgrind,
        // e2e W1 20k: ~16 M of 182 M instructions). One test runs on one thread, and no access
        // spans a call that could reach them again, so the checks can never fire.
        /// How many entries of each kind the stack holds for this stream.
        @exclusivity(unchecked) var subscriptionDepth = 0
        @exclusivity(unchecked) var deliveryDepth = 0
        @exclusivity(unchecked) var requestDepth = 0
        @exclusivity(unchecked) var values = 0

        init(name: String, location: SourceLocation) {
            self.name = name
            self.location = location
        }

        /// The stack's entries of `kind` for this stream, plus `change`; the new depth.
        @inline(__always)
        fileprivate func depth(_ kind: Kind, adding change: Int) -> Int {
            switch kind {
            case .subscription: subscriptionDepth += change; return subscriptionDepth
            case .delivery: deliveryDepth += change; return deliveryDepth
            case .request: requestDepth += change; return requestDepth
            }
        }
    }

    private let interpreter: Interpreter
    /// Every stream's counts, by `Counts.id`.
    @exclusivity(unchecked) private var registered: [Counts] = []
    /// The streams entered, innermost last, as `id * 3 + kind`.
    @exclusivity(unchecked) private var stack: [Int] = []
    @exclusivity(unchecked) private(set) var stopped = false

    /// Every subscription to a named stream that has not ended, by the slot it was given; what
    /// `cancelOpenSubscriptions` reaches.
    private var openLinks: [(any Subscription)?] = []

    init(interpreter: Interpreter) { self.interpreter = interpreter }

    /// The counts of a named stream, registered with this activity.
    func counts(name: String, location: SourceLocation) -> Counts {
        let counts = Counts(name: name, location: location)
        counts.id = registered.count
        registered.append(counts)
        return counts
    }

    /// Registers a subscription to a named stream; its slot, to `close` once it has ended.
    func open(_ link: any Subscription) -> Int {
        openLinks.append(link)
        return openLinks.count - 1
    }

    func close(_ slot: Int) {
        if slot < openLinks.count { openLinks[slot] = nil }
    }

    /// Cancels every subscription to a named stream that has not ended, for a test that is over.
    /// A subscription and its subscriber hold each other until one ends it (as in Combine), so one
    /// that nobody will end — a `drop(untilOutputFrom:)` trigger let go after its value, a cold
    /// line holding events for demand that never comes — would keep its pipeline alive, and with
    /// it the test. Cancelled here, at the named stream's own link (the subscriber's side of the
    /// named stream's chain), each link lets go of the next up to the source.
    func cancelOpenSubscriptions() {
        // By index: a cancel closes its own slot, and may open more (they are cancelled too).
        var slot = 0
        while slot < openLinks.count {
            if let link = openLinks[slot] {
                openLinks[slot] = nil
                link.cancel()
            }
            slot += 1
        }
        openLinks = []
    }

    /// Enters a stream for `kind`; false (and the run stopped, with a diagnostic) when that
    /// makes a cycle too deep. Every `true` must be balanced by `leave()`.
    func enter(_ counts: Counts, _ kind: Kind) -> Bool {
        guard !stopped else { return false }
        guard counts.depth(kind, adding: 1) <= Self.maximumReentry else {
            _ = counts.depth(kind, adding: -1)
            stop(kind.sentence(counts.name) + ": " + cycle(through: counts, kind), at: counts.location,
                 hint: "a stream that reaches itself through its own pipeline never settles")
            return false
        }
        stack.append(counts.id * 3 + kind.rawValue)
        return true
    }

    func leave() {
        guard let entry = stack.popLast() else { return }
        _ = registered[entry / 3].depth(Kind(rawValue: entry % 3) ?? .delivery, adding: -1)
    }

    /// Runs `subscribe` inside a subscription to the stream of `counts`; when that makes a cycle
    /// too deep (or the run is stopped) `subscriber` gets an empty subscription instead, and this
    /// branch of the recursion ends here.
    func subscribe<S: Subscriber>(_ subscriber: S, to counts: Counts, _ subscribe: () -> Void) where S.Input == Value, S.Failure == StreamError {
        guard enter(counts, .subscription) else {
            subscriber.receive(subscription: EmptySubscription())
            return
        }
        defer { leave() }
        subscribe()
    }

    /// Counts a value passing a stream; false (and the run stopped) past the limit.
    func countValue(_ counts: Counts) -> Bool {
        guard !stopped else { return false }
        counts.values += 1
        guard counts.values <= Self.maximumValuesPerStream else {
            stop("'\(counts.name)' passed more than \(Self.maximumValuesPerStream) values", at: counts.location,
                 hint: "a test records what its streams deliver; a source this busy (a Timer every frame over a long run, say) would exhaust memory")
            return false
        }
        return true
    }

    /// The streams on the innermost cycle through `counts`: from its previous entry of the
    /// same kind to now, e.g. `a → b → a`, each stream once in a row.
    private func cycle(through counts: Counts, _ kind: Kind) -> String {
        let start = stack.lastIndex(of: counts.id * 3 + kind.rawValue) ?? stack.endIndex
        var names: [String] = []
        for entry in stack[start...] where names.last != registered[entry / 3].name { names.append(registered[entry / 3].name) }
        if names.last != counts.name || names.count == 1 { names.append(counts.name) }
        return names.joined(separator: " → ")
    }

    private func stop(_ message: String, at location: SourceLocation, hint: String) {
        stopped = true
        var diagnostic = SpecDiagnostic(message, at: location, hint: hint)
        diagnostic.isLimit = true
        interpreter.report(diagnostic)
    }
}

/// A named stream as the rest of the test sees it: passes everything through, entering and
/// leaving `activity` around each synchronous call into the stream.
struct StreamGuard: Publisher {
    typealias Output = Value
    typealias Failure = StreamError

    let upstream: Stream
    let counts: StreamActivity.Counts
    let activity: StreamActivity

    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == StreamError {
        activity.subscribe(subscriber, to: counts) {
            let link = GuardLink(downstream: subscriber, counts: counts, activity: activity)
            link.slot = activity.open(link)
            upstream.receive(subscriber: link)
        }
    }
}

private class GuardLink<Downstream: Subscriber>: OperatorLink<Value, StreamError, Downstream>, CustomStringConvertible
where Downstream.Input == Value, Downstream.Failure == StreamError {
    /// The name of what it guards, so `print` downstream still shows the source's name.
    var description: String { upstream.map(printName(of:)) ?? counts.name }

    fileprivate let counts: StreamActivity.Counts
    fileprivate let activity: StreamActivity
    /// Where `activity` holds it while it is open.
    var slot = 0

    init(downstream: Downstream, counts: StreamActivity.Counts, activity: StreamActivity) {
        self.counts = counts
        self.activity = activity
        super.init(downstream: downstream)
    }

    /// Unlike other links, values after a cancel still pass (as through `RecordingLink`): what
    /// delay and receive(on:) deliver once upstream has completed reaches the subscriber.
    override func receive(_ input: Value) -> Subscribers.Demand {
        guard activity.countValue(counts), activity.enter(counts, .delivery) else { return .none }
        defer { activity.leave() }
        return downstream.receive(input)
    }

    override func receive(completion: Subscribers.Completion<StreamError>) {
        guard terminate() else { return }
        activity.close(slot)
        guard activity.enter(counts, .delivery) else { return }
        defer { activity.leave() }
        downstream.receive(completion: completion)
    }

    override func cancel() {
        guard !isTerminated else { return }
        activity.close(slot)
        cancelUpstream()
    }

    override func request(_ demand: Subscribers.Demand) {
        guard !isTerminated, activity.enter(counts, .request) else { return }
        defer { activity.leave() }
        super.request(demand)
    }
}

/// A named stream's recorder and guard in one link (`SubscriptionRecorder` inside a
/// `StreamGuard`, as an untraced run binds every named stream): each value pays one hop and one
/// dynamic dispatch for both, not two links and the type-erased hop between them (callgrind,
/// e2e W1 100k: about 260 instructions a value and named stream for the recorder's link and the
/// hop). It does exactly what the pair does, in the same order; a traced run keeps the pair, with
/// the tracer's link between them.
struct GuardedRecorder: Publisher {
    typealias Output = Value
    typealias Failure = StreamError

    let upstream: Stream
    let log: SubscriptionLog
    let scheduler: VirtualTimeScheduler
    let counts: StreamActivity.Counts
    let activity: StreamActivity

    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == StreamError {
        activity.subscribe(subscriber, to: counts) {
            let index = log.open(at: scheduler.currentFrame)
            log.beginSubscribing(index)
            defer { log.endSubscribing() }
            let link = GuardedRecordingLink(downstream: subscriber, index: index, log: log, scheduler: scheduler, counts: counts, activity: activity)
            link.slot = activity.open(link)
            upstream.receive(subscriber: link)
        }
    }
}

/// `RecordingLink` (outside) and `GuardLink` (inside) as one link. The recorder's half lets
/// nothing through once upstream has completed; values after a cancel still pass (what delay and
/// receive(on:) deliver once upstream has completed reaches the subscriber).
private final class GuardedRecordingLink<Downstream: Subscriber>: GuardLink<Downstream>
where Downstream.Input == Value, Downstream.Failure == StreamError {
    private let index: Int
    private let log: SubscriptionLog
    private let scheduler: VirtualTimeScheduler

    init(downstream: Downstream, index: Int, log: SubscriptionLog, scheduler: VirtualTimeScheduler,
         counts: StreamActivity.Counts, activity: StreamActivity) {
        self.index = index
        self.log = log
        self.scheduler = scheduler
        super.init(downstream: downstream, counts: counts, activity: activity)
    }

    override func receive(_ input: Value) -> Subscribers.Demand {
        guard !isTerminated else { return .none }
        log.deliver(by: index)
        guard activity.countValue(counts), activity.enter(counts, .delivery) else { return .none }
        let more = downstream.receive(input)
        activity.leave()
        // Demand returned from `receive` is a request too (Combine adds it to the outstanding demand).
        if more > 0 { log.request(more, by: index, at: scheduler.currentFrame) }
        return more
    }

    override func receive(completion: Subscribers.Completion<StreamError>) {
        guard !isTerminated else { return }
        log.close(index, at: scheduler.currentFrame)
        super.receive(completion: completion)
    }

    /// Records the end and cancels upstream; stays transparent to what upstream still sends.
    override func cancel() {
        guard !isTerminated else { return }
        log.close(index, at: scheduler.currentFrame)
        super.cancel()
    }

    override func request(_ demand: Subscribers.Demand) {
        guard !isTerminated, activity.enter(counts, .request) else { return }
        defer { activity.leave() }
        // The pair's recorder saw a request only while the guard still had it as upstream.
        guard let upstream else { return }
        log.request(demand, by: index, at: scheduler.currentFrame)
        upstream.request(demand)
    }
}
