/// The usual shape of an operator's inner machinery: one object that is the upstream's
/// subscriber and the downstream's subscription. Subclasses override `receive(_:)` and
/// `receive(completion:)`; requests and cancellation pass straight through unless overridden.
///
/// After a terminal event or a cancel the link is `isTerminated`: it ignores requests and, unless
/// a subclass checks `isCancelledByDownstream`, drops late events, as most of Combine's operators do.
open class OperatorLink<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription {
    public typealias Failure = UpstreamFailure

    public let downstream: Downstream
    @exclusivity(unchecked) public private(set) var upstream: (any Subscription)?
    @exclusivity(unchecked) public private(set) var isTerminated = false
    /// Terminated by downstream's cancel, and no completion has come since. Operators that, like
    /// Combine's, still forward what upstream sends after a cancel (`tryMap`, `handleEvents`,
    /// `print`) check it; `endPassThrough()` ends it.
    @exclusivity(unchecked) public private(set) var isCancelledByDownstream = false

    public init(downstream: Downstream) { self.downstream = downstream }

    open func receive(subscription: any Subscription) {
        guard upstream == nil, !isTerminated else { subscription.cancel(); return }
        upstream = subscription
        downstream.receive(subscription: self)
    }

    open func receive(_ input: Input) -> Subscribers.Demand { .none }

    open func receive(completion: Subscribers.Completion<UpstreamFailure>) {}

    open func request(_ demand: Subscribers.Demand) {
        guard !isTerminated else { return }
        upstream?.request(demand)
    }

    open func cancel() {
        guard !isTerminated else { return }
        isTerminated = true
        isCancelledByDownstream = true
        cancelUpstream()
    }

    /// Ends what a cancelled link still lets through; returns whether it was cancelled (so the
    /// event at hand — a completion after the cancel — may still pass, once).
    public func endPassThrough() -> Bool {
        guard isCancelledByDownstream else { return false }
        isCancelledByDownstream = false
        return true
    }

    /// Marks the link finished (no more events pass) and forgets the upstream without cancelling it.
    /// Returns false if it was already terminated.
    @discardableResult
    public func terminate() -> Bool {
        guard !isTerminated else { return false }
        isTerminated = true
        upstream = nil
        return true
    }

    /// Cancels the upstream subscription and forgets it.
    public func cancelUpstream() {
        let upstream = self.upstream
        self.upstream = nil
        upstream?.cancel()
    }

    /// Asks upstream for more, if still connected.
    public func requestUpstream(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        upstream?.request(demand)
    }
}

extension OperatorLink where Downstream.Failure == UpstreamFailure {
    /// Terminates the link and passes `completion` on, unless it had already terminated (by an
    /// earlier completion or a cancel): the completion of an operator whose failure is upstream's.
    public func forwardOnce(_ completion: Subscribers.Completion<UpstreamFailure>) {
        guard terminate() else { return }
        downstream.receive(completion: completion)
    }
}
