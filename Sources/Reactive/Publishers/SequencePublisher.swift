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
