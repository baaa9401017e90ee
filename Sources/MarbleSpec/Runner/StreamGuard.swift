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
        // These counters, and the activity's stack, are touched for every value of every named
        // stream; the runtime's exclusivity checks on them cost more than the counting (callgrind,
        // e2e W1 20k: ~16 M of 182 M instructions). One test runs on one thread, and no access
        // spans a call that could reach them again, so the checks can never fire.
        /// How many entries of each kind the stack holds for this stream.
        @exclusivity(unchecked) var depths = [0, 0, 0]
        @exclusivity(unchecked) var values = 0

        init(name: String, location: SourceLocation) {
            self.name = name
            self.location = location
        }
    }

    private let interpreter: Interpreter
    @exclusivity(unchecked) private var stack: [(counts: Counts, kind: Kind)] = []
    @exclusivity(unchecked) private(set) var stopped = false

    /// Every subscription to a named stream that has not ended, by the slot it was given; what
    /// `cancelOpenSubscriptions` reaches.
    private var openLinks: [(any Subscription)?] = []

    init(interpreter: Interpreter) { self.interpreter = interpreter }

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
        let depth = counts.depths[kind.rawValue] + 1
        guard depth <= Self.maximumReentry else {
            stop(kind.sentence(counts.name) + ": " + cycle(through: counts, kind), at: counts.location,
                 hint: "a stream that reaches itself through its own pipeline never settles")
            return false
        }
        counts.depths[kind.rawValue] = depth
        stack.append((counts, kind))
        return true
    }

    func leave() {
        guard let entry = stack.popLast() else { return }
        entry.counts.depths[entry.kind.rawValue] -= 1
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
        let start = stack.lastIndex { $0.counts === counts && $0.kind == kind } ?? stack.endIndex
        var names: [String] = []
        for entry in stack[start...] where names.last != entry.counts.name { names.append(entry.counts.name) }
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
        guard activity.enter(counts, .subscription) else {
            // The run is stopped: this branch of the recursion ends here.
            subscriber.receive(subscription: EmptySubscription())
            return
        }
        defer { activity.leave() }
        let link = GuardLink(downstream: subscriber, counts: counts, activity: activity)
        link.slot = activity.open(link)
        upstream.receive(subscriber: link)
    }
}

private final class GuardLink<Downstream: Subscriber>: OperatorLink<Value, StreamError, Downstream>, CustomStringConvertible
where Downstream.Input == Value, Downstream.Failure == StreamError {
    /// The name of what it guards, so `print` downstream still shows the source's name.
    var description: String { upstream.map(printName(of:)) ?? counts.name }

    private let counts: StreamActivity.Counts
    private let activity: StreamActivity
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
