/// A publisher you can push values and a completion into.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    func send(_ value: Output)
    func send(completion: Subscribers.Completion<Failure>)
    /// Called when the subject itself subscribes to an upstream (multicast); it asks for everything.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    public func send() { send(()) }
}

/// A subscriber that forwards everything to a subject; used when a subject subscribes to a
/// publisher (`publisher.subscribe(subject)`, `multicast`).
public final class SubjectSubscriber<Target: Subject>: Subscriber, Subscription {
    public typealias Input = Target.Output
    public typealias Failure = Target.Failure

    private weak var target: Target?
    @exclusivity(unchecked) private var upstream: (any Subscription)?

    public init(_ target: Target) { self.target = target }

    public func receive(subscription: any Subscription) {
        guard upstream == nil, let target else { subscription.cancel(); return }
        upstream = subscription
        target.send(subscription: self)
    }

    public func receive(_ input: Input) -> Subscribers.Demand {
        target?.send(input)
        return .none
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
        upstream = nil
        target?.send(completion: completion)
    }

    public func request(_ demand: Subscribers.Demand) { upstream?.request(demand) }

    public func cancel() {
        let upstream = self.upstream
        self.upstream = nil
        upstream?.cancel()
    }
}

extension Publisher {
    /// Subscribes `subject` to this publisher; returns a handle that cancels the connection.
    @discardableResult
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber(subject)
        receive(subscriber: subscriber)
        return AnyCancellable(subscriber)
    }
}

/// A subject's subscriber behind one virtual call (cheaper than `AnySubscriber`'s three closures).
@usableFromInline
class ConduitDownstream<Output, Failure: Error> {
    @usableFromInline init() {}
    @usableFromInline func receive(_ input: Output) -> Subscribers.Demand { .none }
    @usableFromInline func receive(completion: Subscribers.Completion<Failure>) {}
}

final class ConcreteConduitDownstream<S: Subscriber>: ConduitDownstream<S.Input, S.Failure> {
    let subscriber: S
    init(_ subscriber: S) { self.subscriber = subscriber }
    override func receive(_ input: S.Input) -> Subscribers.Demand { subscriber.receive(input) }
    override func receive(completion: Subscribers.Completion<S.Failure>) { subscriber.receive(completion: completion) }
}

/// One subscriber's link to a subject: its own demand, its own cancellation.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible {
    /// The subject's name, as `print` shows the subscription ("PassthroughSubject").
    @usableFromInline let description: String
    @exclusivity(unchecked) @usableFromInline private(set) var downstream: ConduitDownstream<Output, Failure>?
    @exclusivity(unchecked) @usableFromInline var demand: Subscribers.Demand = .none
    /// For `CurrentValueSubject`: the subject's current value has not reached this subscriber yet.
    @exclusivity(unchecked) var owesCurrentValue = false
    private let onRequest: (SubjectConduit) -> Void
    private let onCancel: (SubjectConduit) -> Void

    init<S: Subscriber>(_ downstream: S, name: String, onRequest: @escaping (SubjectConduit) -> Void, onCancel: @escaping (SubjectConduit) -> Void)
    where S.Input == Output, S.Failure == Failure {
        description = name
        self.downstream = ConcreteConduitDownstream(downstream)
        self.onRequest = onRequest
        self.onCancel = onCancel
    }

    var isActive: Bool { downstream != nil }

    /// Delivers `value` if this subscriber has demand; returns whether it did.
    @inlinable
    @discardableResult
    func offer(_ value: Output) -> Bool {
        guard let downstream else { return false }
        let demand = self.demand
        if demand.isUnlimited {
            _ = downstream.receive(value)
            return true
        }
        guard demand > 0 else { return false }
        self.demand = demand - 1
        let more = downstream.receive(value)
        if more > 0 { self.demand += more }
        return true
    }

    func finish(_ completion: Subscribers.Completion<Failure>) {
        guard let downstream else { return }
        self.downstream = nil
        downstream.receive(completion: completion)
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        guard downstream != nil, demand > 0 else { return }
        self.demand += demand
        onRequest(self)
    }

    @usableFromInline
    func cancel() {
        guard downstream != nil else { return }
        downstream = nil
        onCancel(self)
    }
}

/// How a subject's subscriptions reach the subject without keeping it alive. A `weak`
/// reference would give the subject a side table, and every retain and release of it (one
/// per value sent) would then take the runtime's slow path; instead the subject clears this
/// box in its `deinit` (single-threaded, so nothing can run in between).
final class SubjectReference<Target: AnyObject> {
    unowned(unsafe) var target: Target?
    init() {}
}

/// Subscribers of a subject, in subscription order. (Combine leaves the order unspecified;
/// the engine fixes it so runs are deterministic.)
@usableFromInline
struct ConduitList<Output, Failure: Error> {
    @usableFromInline private(set) var conduits: [SubjectConduit<Output, Failure>] = []
    init() {}
    var isEmpty: Bool { conduits.isEmpty }
    mutating func append(_ conduit: SubjectConduit<Output, Failure>) { conduits.append(conduit) }
    mutating func remove(_ conduit: SubjectConduit<Output, Failure>) { conduits.removeAll { $0 === conduit } }
    mutating func removeAll() -> [SubjectConduit<Output, Failure>] {
        defer { conduits = [] }
        return conduits
    }
}

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
