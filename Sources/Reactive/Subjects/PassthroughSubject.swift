/// Broadcasts each value to every subscriber that has demand at that moment; a subscriber
/// without demand misses the value (nothing is buffered). Ignores everything after its completion.
public final class PassthroughSubject<Output, Failure: Error>: Subject {
    @exclusivity(unchecked) @usableFromInline var subscribers = ConduitList<Output, Failure>()
    @exclusivity(unchecked) @usableFromInline var completion: Subscribers.Completion<Failure>?
    private var upstreams: [any Subscription] = []
    private let reference = SubjectReference<PassthroughSubject>()

    public init() { reference.target = self }

    deinit { reference.target = nil }

    public var isCompleted: Bool { completion != nil }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if let completion {
            subscriber.receive(subscription: EmptySubscription())
            subscriber.receive(completion: completion)
            return
        }
        let conduit = SubjectConduit<Output, Failure>(subscriber, name: "PassthroughSubject",
                                                      onRequest: { [reference] _ in reference.target?.downstreamAskedForValues() },
                                                      onCancel: { [reference] in reference.target?.subscribers.remove($0) })
        subscribers.append(conduit)
        subscriber.receive(subscription: conduit)
    }

    /// Inlinable so that a caller sending many values runs a loop specialised for its type.
    @inlinable
    public func send(_ value: Output) {
        guard completion == nil else { return }
        let conduits = subscribers.conduits
        if conduits.count == 1 {
            conduits[0].offer(value)
        } else {
            for conduit in conduits { conduit.offer(value) }
        }
    }

    public func send(completion: Subscribers.Completion<Failure>) {
        guard self.completion == nil else { return }
        self.completion = completion
        upstreams = []
        for conduit in subscribers.removeAll() { conduit.finish(completion) }
    }

    /// A PassthroughSubject asks the publishers it is subscribed to (multicast, `subscribe(subject)`)
    /// for everything — but only once one of its own subscribers has asked for a value, so that a
    /// cold upstream connected before any demand waits instead of playing into nothing
    /// (OpenCombine `PassthroughSubjectTests.testSendSubscription`, run against Combine).
    public func send(subscription: any Subscription) {
        upstreams.append(subscription)
        if hasDownstreamDemand { subscription.request(.unlimited) }
    }

    private var hasDownstreamDemand = false

    private func downstreamAskedForValues() {
        guard !hasDownstreamDemand else { return }
        hasDownstreamDemand = true
        for upstream in upstreams { upstream.request(.unlimited) }
    }
}
