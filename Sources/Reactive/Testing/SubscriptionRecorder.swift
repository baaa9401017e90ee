/// The subscription history of a source, shared by every copy of the recorder wrapping it:
/// when each subscription began and ended, and every demand requested through them.
///
/// A runner's recording link touches it for every value (the delivery count, a request a value
/// returned, the subscriptions a subject offers a value to); the runtime's exclusivity checks on
/// these properties cost more than the bookkeeping (callgrind, e2e W1 100k: about 76
/// instructions a check, two or three checks a value). The log is used from one thread and no
/// access spans a call back into it, so they are unchecked.
public final class SubscriptionLog {
    // Read from other modules through getters: a module reading a stored property of a final
    // class directly checks exclusivity itself, not seeing `@exclusivity(unchecked)`.
    public var spans: [SubscriptionSpan] { spanStore }
    /// Every request made to the source, in order: its frame, the subscription's index, the demand.
    public var requests: [(time: VirtualTime, subscription: Int, demand: Subscribers.Demand)] { requestStore }
    /// How many values each subscription delivered downstream, by subscription index.
    public var deliveries: [Int] { deliveryStore }
    /// The subscriptions still active, by index, in the order they began (what a subject sending
    /// now offers its value to, so that a runner can tell which of them got it).
    public var active: [Int] { activeStore }
    /// The subscriptions being made (inside the recorder's `receive(subscriber:)`), innermost
    /// last: whatever subscribes upstream meanwhile does so for them.
    public var subscribing: [Int] { subscribingStore }

    @exclusivity(unchecked) private var spanStore: [SubscriptionSpan] = []
    @exclusivity(unchecked) private var requestStore: [(time: VirtualTime, subscription: Int, demand: Subscribers.Demand)] = []
    @exclusivity(unchecked) private var deliveryStore: [Int] = []
    @exclusivity(unchecked) private var activeStore: [Int] = []
    @exclusivity(unchecked) private var subscribingStore: [Int] = []
    public init() {}

    // What a recording link calls: `SubscriptionRecorder`'s, and a runner's own link that
    // records and does more in one hop.

    /// Notes a request (`demand`) made through subscription `index` at `time`.
    public func request(_ demand: Subscribers.Demand, by index: Int, at time: VirtualTime) {
        requestStore.append((time, index, demand))
    }
    /// Opens a subscription beginning at `time`; its index.
    public func open(at time: VirtualTime) -> Int {
        spanStore.append(SubscriptionSpan(start: time))
        deliveryStore.append(0)
        activeStore.append(spanStore.count - 1)
        return spanStore.count - 1
    }
    /// Counts a value delivered through subscription `index`.
    public func deliver(by index: Int) {
        deliveryStore[index] += 1
    }
    /// How many values subscription `index` has delivered.
    public func deliveries(of index: Int) -> Int { deliveryStore[index] }
    /// Whether subscription `index` has ended.
    public func hasEnded(_ index: Int) -> Bool { spanStore[index].end != nil }
    /// Ends subscription `index` at `time` (a second end is ignored).
    public func close(_ index: Int, at time: VirtualTime) {
        guard spanStore[index].end == nil else { return }
        spanStore[index].end = time
        activeStore.removeAll { $0 == index }
    }
    /// Subscription `index` is being made: what subscribes upstream until `endSubscribing()` does so for it.
    public func beginSubscribing(_ index: Int) { subscribingStore.append(index) }
    public func endSubscribing() { subscribingStore.removeLast() }
}

/// Wraps a publisher and records every subscription to it in `log`, with the frames at which it
/// started and ended. Transparent otherwise.
public struct SubscriptionRecorder<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure
    public let upstream: Upstream
    public let log: SubscriptionLog
    public let scheduler: VirtualTimeScheduler

    public init(_ upstream: Upstream, log: SubscriptionLog, scheduler: VirtualTimeScheduler) {
        self.upstream = upstream
        self.log = log
        self.scheduler = scheduler
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let index = log.open(at: scheduler.currentFrame)
        log.beginSubscribing(index)
        defer { log.endSubscribing() }
        upstream.receive(subscriber: RecordingLink(downstream: subscriber, onRequest: { [log, scheduler] demand in
            log.request(demand, by: index, at: scheduler.currentFrame)
        }, onValue: { [log] in
            log.deliver(by: index)
        }, onEnd: { [log, scheduler] in
            log.close(index, at: scheduler.currentFrame)
        }))
    }
}

private final class RecordingLink<Downstream: Subscriber>: OperatorLink<Downstream.Input, Downstream.Failure, Downstream>, CustomStringConvertible {
    /// Named after the subscription it records, so `print` downstream shows the source's name.
    var description: String { upstream.map(printName(of:)) ?? "Recording" }

    private let onRequest: (Subscribers.Demand) -> Void
    private let onValue: () -> Void
    private let onEnd: () -> Void

    init(downstream: Downstream, onRequest: @escaping (Subscribers.Demand) -> Void, onValue: @escaping () -> Void, onEnd: @escaping () -> Void) {
        self.onRequest = onRequest
        self.onValue = onValue
        self.onEnd = onEnd
        super.init(downstream: downstream)
    }

    override func request(_ demand: Subscribers.Demand) {
        guard !isTerminated else { return }
        onRequest(demand)
        super.request(demand)
    }

    /// Demand returned from `receive` is a request too (Combine adds it to the outstanding demand).
    override func receive(_ input: Input) -> Subscribers.Demand {
        guard !isTerminated else { return .none }
        onValue()
        let more = downstream.receive(input)
        if more > 0 { onRequest(more) }
        return more
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        guard terminate() else { return }
        onEnd()
        downstream.receive(completion: completion)
    }

    /// Records the end and cancels upstream, but stays transparent: whatever upstream still
    /// sends after a cancel (delay and receive(on:) deliver what they hold once upstream has
    /// completed) reaches the subscriber, exactly as without the recorder.
    override func cancel() {
        guard !isTerminated else { return }
        onEnd()
        cancelUpstream()
    }
}
