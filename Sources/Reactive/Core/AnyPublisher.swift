/// A publisher whose concrete type is hidden.
public struct AnyPublisher<Output, Failure: Error>: Publisher {
    private let subscribeBody: (AnySubscriber<Output, Failure>) -> Void

    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
        } else {
            subscribeBody = { publisher.receive(subscriber: $0) }
        }
    }

    /// A publisher built from a subscribe function.
    public init(subscribe: @escaping (AnySubscriber<Output, Failure>) -> Void) {
        subscribeBody = subscribe
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribeBody(AnySubscriber(subscriber))
    }
}

extension Publisher {
    /// Wraps this publisher in an `AnyPublisher`, hiding its type; events pass unchanged.
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { AnyPublisher(self) }
}

/// A subscriber whose concrete type is hidden. Forwards to the wrapped subscriber.
public final class AnySubscriber<Input, Failure: Error>: Subscriber {
    private let subscriptionBody: (any Subscription) -> Void
    private let valueBody: (Input) -> Subscribers.Demand
    private let completionBody: (Subscribers.Completion<Failure>) -> Void
    /// The wrapped subscriber, for identity checks.
    public let wrapped: AnyObject?

    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        subscriptionBody = subscriber.receive(subscription:)
        valueBody = subscriber.receive(_:)
        completionBody = subscriber.receive(completion:)
        wrapped = subscriber
    }

    public init(
        receiveSubscription: @escaping (any Subscription) -> Void = { _ in },
        receiveValue: @escaping (Input) -> Subscribers.Demand = { _ in .none },
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void = { _ in }
    ) {
        subscriptionBody = receiveSubscription
        valueBody = receiveValue
        completionBody = receiveCompletion
        wrapped = nil
    }

    public func receive(subscription: any Subscription) { subscriptionBody(subscription) }
    public func receive(_ input: Input) -> Subscribers.Demand { valueBody(input) }
    public func receive(completion: Subscribers.Completion<Failure>) { completionBody(completion) }
}
