/// A publisher you can push values and a completion into.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    func send(_ value: Output)
    func send(completion: Subscribers.Completion<Failure>)
    /// Called when the subject itself subscribes to an upstream (multicast); it asks for everything.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends `()` to a subject of `Void` values.
    public func send() { send(()) }
}

/// A subscriber that forwards everything to a subject; used when a subject subscribes to a
/// publisher (`publisher.subscribe(subject)`, `multicast`, `share`). Cancelling it forgets the
/// subject: what the upstream still delivers afterwards (a `delay` whose upstream had already
/// completed) reaches no one, not even a later subscriber of the same subject. After the
/// completion it forgets the subject too (OpenCombine `Helpers/SubjectSubscriber.swift`,
/// `PublisherTests.testSubscribeSubject`, run against Combine).
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
        let target = self.target
        self.target = nil
        target?.send(completion: completion)
    }

    public func request(_ demand: Subscribers.Demand) { upstream?.request(demand) }

    public func cancel() {
        target = nil
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
