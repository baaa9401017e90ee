/// Holds a current value; a new subscriber receives it as soon as it has demand, and a
/// subscriber without demand receives the latest value when it next asks (values conflate).
/// After completion it sends nothing and does not replay its value.
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    @exclusivity(unchecked) private var subscribers = ConduitList<Output, Failure>()
    @exclusivity(unchecked) private var completion: Subscribers.Completion<Failure>?
    private var upstreams: [any Subscription] = []
    @exclusivity(unchecked) private var current: Output
    private let reference = SubjectReference<CurrentValueSubject>()

    public init(_ value: Output) {
        current = value
        reference.target = self
    }

    deinit { reference.target = nil }

    /// The current value; setting it sends it (as Combine's `value` setter does).
    public var value: Output {
        get { current }
        set { send(newValue) }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if let completion {
            subscriber.receive(subscription: EmptySubscription())
            subscriber.receive(completion: completion)
            return
        }
        let conduit = SubjectConduit<Output, Failure>(
            subscriber,
            name: "CurrentValueSubject",
            onRequest: { [reference] conduit in reference.target?.deliverOwedValue(to: conduit) },
            onCancel: { [reference] in reference.target?.subscribers.remove($0) })
        conduit.owesCurrentValue = true
        subscribers.append(conduit)
        subscriber.receive(subscription: conduit)
    }

    public func send(_ value: Output) {
        guard completion == nil else { return }
        current = value
        for conduit in subscribers.conduits {
            conduit.owesCurrentValue = true
            deliverOwedValue(to: conduit)
        }
    }

    public func send(completion: Subscribers.Completion<Failure>) {
        guard self.completion == nil else { return }
        self.completion = completion
        upstreams = []
        for conduit in subscribers.removeAll() { conduit.finish(completion) }
    }

    public func send(subscription: any Subscription) {
        upstreams.append(subscription)
        subscription.request(.unlimited)
    }

    private func deliverOwedValue(to conduit: SubjectConduit<Output, Failure>) {
        guard conduit.owesCurrentValue, conduit.isActive, conduit.demand > 0 else { return }
        conduit.owesCurrentValue = false
        conduit.offer(current)
    }
}
