/// The subscription history of a source, shared by every copy of the recorder wrapping it:
/// when each subscription began and ended, and every demand requested through them.
public final class SubscriptionLog {
    public private(set) var spans: [SubscriptionSpan] = []
    /// Every request made to the source, in order: its frame, the subscription's index, the demand.
    public private(set) var requests: [(time: VirtualTime, subscription: Int, demand: Subscribers.Demand)] = []
    /// How many values each subscription delivered downstream, by subscription index.
    /// Counted for every value of every recorded stream: the runtime exclusivity check would cost
    /// more than the count (callgrind, e2e W1), and the log is used from one thread, with no
    /// access spanning a call back into it.
    @exclusivity(unchecked) public private(set) var deliveries: [Int] = []
    /// The subscriptions still active, by index, in the order they began (what a subject sending
    /// now offers its value to, so that a runner can tell which of them got it).
    public private(set) var active: [Int] = []
    /// The subscriptions being made (inside the recorder's `receive(subscriber:)`), innermost
    /// last: whatever subscribes upstream meanwhile does so for them.
    public fileprivate(set) var subscribing: [Int] = []
    public init() {}
    func request(_ demand: Subscribers.Demand, by index: Int, at time: VirtualTime) {
        requests.append((time, index, demand))
    }
    func open(at time: VirtualTime) -> Int {
        spans.append(SubscriptionSpan(start: time))
        deliveries.append(0)
        active.append(spans.count - 1)
        return spans.count - 1
    }
    func deliver(by index: Int) {
        deliveries[index] += 1
    }
    func close(_ index: Int, at time: VirtualTime) {
        guard spans[index].end == nil else { return }
        spans[index].end = time
        active.removeAll { $0 == index }
    }
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
        log.subscribing.append(index)
        defer { log.subscribing.removeLast() }
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
