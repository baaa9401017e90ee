extension Publishers {
    /// Emits everything from `prefix`, then — subscribed synchronously when `prefix` finishes —
    /// everything from `suffix`. A failure of `prefix` is forwarded and `suffix` is never
    /// subscribed; demand still outstanding carries over to `suffix` (OpenCombine `Publishers.Concatenate.swift`).
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
        public typealias Output = Suffix.Output
        public typealias Failure = Suffix.Failure
        public let prefix: Prefix
        public let suffix: Suffix

        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let link = ConcatenateLink(downstream: subscriber, suffix: suffix)
            prefix.receive(subscriber: ConcatenatePart(link, isSuffix: false))
        }
    }
}

extension Publisher {
    /// Emits `elements` after upstream finishes, then finishes.
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Emits the elements of `elements` after upstream finishes, then finishes.
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>> where S.Element == Output {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Subscribes `publisher` when upstream finishes and forwards it; outstanding demand carries over.
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P> where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }

    /// Emits `elements` first, then subscribes upstream and forwards it.
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Emits the elements of `elements` first, then subscribes upstream and forwards it.
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self> where S.Element == Output {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Forwards `publisher` first, then subscribes upstream when it finishes.
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self> where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }
}

/// The shared state of a concatenation; downstream's subscription throughout.
private final class ConcatenateLink<Suffix: Publisher, Downstream: Subscriber>: Subscription where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
    private enum Phase {
        case awaitingPrefix
        case prefix(any Subscription)
        case awaitingSuffix
        case suffix(any Subscription)
        case terminated
    }

    private let downstream: Downstream
    private var suffix: Suffix?
    private var phase = Phase.awaitingPrefix
    private var demand: Subscribers.Demand = .none

    init(downstream: Downstream, suffix: Suffix) {
        self.downstream = downstream
        self.suffix = suffix
    }

    func receive(subscription: any Subscription, isSuffix: Bool) {
        switch (phase, isSuffix) {
        case (.awaitingPrefix, false):
            phase = .prefix(subscription)
            downstream.receive(subscription: self)
        case (.awaitingSuffix, true):
            phase = .suffix(subscription)
            if demand > 0 { subscription.request(demand) }
        default:
            subscription.cancel()
        }
    }

    func receive(_ input: Suffix.Output, isSuffix: Bool) -> Subscribers.Demand {
        switch (phase, isSuffix) {
        case (.prefix, false):
            // Combine drops a prefix value that arrives without demand.
            guard demand > 0 else { return .none }
            demand -= 1
            let more = downstream.receive(input)
            demand += more
            return more
        case (.suffix, true):
            return downstream.receive(input)
        default:
            return .none
        }
    }

    func receive(completion: Subscribers.Completion<Suffix.Failure>, isSuffix: Bool) {
        switch (phase, isSuffix, completion) {
        case (.prefix, false, .finished):
            phase = .awaitingSuffix
            let suffix = self.suffix
            self.suffix = nil
            suffix?.receive(subscriber: ConcatenatePart(self, isSuffix: true))
        case (.prefix, false, .failure), (.suffix, true, _):
            phase = .terminated
            suffix = nil
            downstream.receive(completion: completion)
        default:
            break
        }
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        switch phase {
        case .prefix(let subscription), .suffix(let subscription):
            self.demand += demand
            subscription.request(demand)
        case .awaitingSuffix:
            self.demand += demand
        case .awaitingPrefix, .terminated:
            break
        }
    }

    func cancel() {
        let current = phase
        phase = .terminated
        suffix = nil
        switch current {
        case .prefix(let subscription), .suffix(let subscription): subscription.cancel()
        case .awaitingPrefix, .awaitingSuffix, .terminated: break
        }
    }
}

/// The prefix's or the suffix's subscriber in a concatenation.
private final class ConcatenatePart<Suffix: Publisher, Downstream: Subscriber>: Subscriber where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
    typealias Input = Suffix.Output
    typealias Failure = Suffix.Failure
    private let link: ConcatenateLink<Suffix, Downstream>
    private let isSuffix: Bool

    init(_ link: ConcatenateLink<Suffix, Downstream>, isSuffix: Bool) {
        self.link = link
        self.isSuffix = isSuffix
    }

    func receive(subscription: any Subscription) { link.receive(subscription: subscription, isSuffix: isSuffix) }
    func receive(_ input: Input) -> Subscribers.Demand { link.receive(input, isSuffix: isSuffix) }
    func receive(completion: Subscribers.Completion<Failure>) { link.receive(completion: completion, isSuffix: isSuffix) }
}
