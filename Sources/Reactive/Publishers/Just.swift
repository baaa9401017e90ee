/// Emits one value, then finishes, on the first request.
public struct Just<Output>: Publisher {
    public typealias Failure = Never
    public let output: Output
    public init(_ output: Output) { self.output = output }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: JustSubscription(output, downstream: subscriber))
    }
}

private final class JustSubscription<Downstream: Subscriber>: Subscription {
    private var output: Downstream.Input?
    private var downstream: Downstream?

    init(_ output: Downstream.Input, downstream: Downstream) {
        self.output = output
        self.downstream = downstream
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0, let downstream, let output else { return }
        self.downstream = nil
        self.output = nil
        _ = downstream.receive(output)
        downstream.receive(completion: .finished)
    }

    func cancel() {
        downstream = nil
        output = nil
    }
}

/// Finishes at once on subscription, or never (`completeImmediately: false`).
public struct Empty<Output, Failure: Error>: Publisher {
    public let completeImmediately: Bool
    public init(completeImmediately: Bool = true) { self.completeImmediately = completeImmediately }
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: EmptySubscription())
        if completeImmediately { subscriber.receive(completion: .finished) }
    }
}

/// Fails at once on subscription, without waiting for demand.
public struct Fail<Output, Failure: Error>: Publisher {
    public let error: Failure
    public init(error: Failure) { self.error = error }
    public init(outputType: Output.Type, failure: Failure) { error = failure }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: EmptySubscription())
        subscriber.receive(completion: .failure(error))
    }
}

/// Runs its factory on every subscription and subscribes to the publisher it returns.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    public typealias Output = DeferredPublisher.Output
    public typealias Failure = DeferredPublisher.Failure
    public let createPublisher: () -> DeferredPublisher
    public init(createPublisher: @escaping () -> DeferredPublisher) { self.createPublisher = createPublisher }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().receive(subscriber: subscriber)
    }
}

extension Publishers {
    /// Emits the elements of a sequence synchronously as demand allows, then finishes. The
    /// completion follows the last element at once, even when the demand was exact.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        public typealias Output = Elements.Element
        public let sequence: Elements
        public init(sequence: Elements) { self.sequence = sequence }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            guard let first = iterator.next() else {
                subscriber.receive(subscription: EmptySubscription())
                subscriber.receive(completion: .finished)
                return
            }
            subscriber.receive(subscription: SequenceSubscription(first: first, rest: iterator, downstream: subscriber))
        }
    }
}

private final class SequenceSubscription<Iterator: IteratorProtocol, Downstream: Subscriber>: Subscription where Downstream.Input == Iterator.Element {
    private var next: Iterator.Element?
    private var iterator: Iterator
    private var downstream: Downstream?
    private var demand: Subscribers.Demand = .none
    private var isEmitting = false

    init(first: Iterator.Element, rest: Iterator, downstream: Downstream) {
        next = first
        iterator = rest
        self.downstream = downstream
    }

    func request(_ demand: Subscribers.Demand) {
        guard downstream != nil, demand > 0 else { return }
        self.demand += demand
        // A request made from inside `receive(_:)` only raises the demand; the loop below serves it.
        guard !isEmitting else { return }
        isEmitting = true
        defer { isEmitting = false }
        while self.demand > 0, let downstream, let value = next {
            self.demand -= 1
            next = iterator.next()
            self.demand += downstream.receive(value)
            if next == nil, self.downstream != nil {
                self.downstream = nil
                downstream.receive(completion: .finished)
            }
        }
    }

    func cancel() { downstream = nil }
}

extension Sequence {
    /// A publisher of this sequence's elements (`[1, 2, 3].publisher`).
    public var publisher: Publishers.Sequence<Self, Never> { Publishers.Sequence(sequence: self) }
}
