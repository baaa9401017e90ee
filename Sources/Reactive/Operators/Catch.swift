extension Publishers {
    /// Replaces a failed upstream with the publisher `handler` returns for the error, subscribed
    /// synchronously at the failure's instant; demand still outstanding carries over to it and
    /// its completion is the final one (OpenCombine `Publishers.Catch.swift.gyb`).
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = NewPublisher.Failure
        public let upstream: Upstream
        public let handler: (Upstream.Failure) -> NewPublisher

        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let link = CatchLink<Upstream, NewPublisher, S>(downstream: subscriber) { .success(handler($0)) }
            upstream.receive(subscriber: CatchPrimary(link))
        }
    }

    /// Like `Catch`, but `handler` may throw; the thrown error becomes the failure.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error
        public let upstream: Upstream
        public let handler: (Upstream.Failure) throws -> NewPublisher

        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let link = CatchLink<Upstream, NewPublisher, S>(downstream: subscriber) { error in
                Result { try handler(error) }
            }
            upstream.receive(subscriber: CatchPrimary(link))
        }
    }
}

extension Publisher {
    /// Replaces a failure with the publisher `handler` returns for it, subscribed at once.
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P> where P.Output == Output {
        Publishers.Catch(upstream: self, handler: handler)
    }

    /// Like `catch(_:)`; a throw from `handler` fails the stream with that error.
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P> where P.Output == Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

/// The shared state of catch/tryCatch. The downstream's failure type is either the new
/// publisher's (`catch`) or `any Error` (`tryCatch`); `handle` returns the new publisher or
/// the error thrown making it.
private final class CatchLink<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscription where Downstream.Input == Upstream.Output, NewPublisher.Output == Upstream.Output {
    private enum State {
        case awaitingPrimary
        case primary(any Subscription)
        case awaitingSecondary
        case secondary(any Subscription)
        /// Cancelled by downstream: values an upstream still sends pass, completions do not
        /// (OpenCombine `Publishers.Catch`, whose value paths check no state).
        case cancelled
        case terminated
    }

    private let downstream: Downstream
    private var handle: ((Upstream.Failure) -> Result<NewPublisher, any Error>)?
    private var state = State.awaitingPrimary
    private var demand: Subscribers.Demand = .none

    init(downstream: Downstream, handle: @escaping (Upstream.Failure) -> Result<NewPublisher, any Error>) {
        self.downstream = downstream
        self.handle = handle
    }

    // MARK: Primary upstream

    func primaryReceive(subscription: any Subscription) {
        guard case .awaitingPrimary = state else { subscription.cancel(); return }
        state = .primary(subscription)
        downstream.receive(subscription: self)
    }

    func primaryReceive(_ input: Upstream.Output) -> Subscribers.Demand {
        switch state {
        case .primary, .cancelled: break
        case .awaitingPrimary, .awaitingSecondary, .secondary, .terminated: return .none
        }
        demand -= 1
        let more = downstream.receive(input)
        demand += more
        return more
    }

    func primaryReceive(completion: Subscribers.Completion<Upstream.Failure>) {
        guard case .primary = state else { return }
        switch completion {
        case .finished:
            state = .terminated
            handle = nil
            downstream.receive(completion: .finished)
        case .failure(let error):
            state = .awaitingSecondary
            guard let handle else { return }
            self.handle = nil
            switch handle(error) {
            case .success(let publisher):
                publisher.receive(subscriber: CatchSecondary(self))
            case .failure(let thrown):
                state = .terminated
                sendFailure(thrown)
            }
        }
    }

    // MARK: Replacement

    func secondaryReceive(subscription: any Subscription) {
        guard case .awaitingSecondary = state else { subscription.cancel(); return }
        state = .secondary(subscription)
        if demand > 0 { subscription.request(demand) }
    }

    func secondaryReceive(_ input: NewPublisher.Output) -> Subscribers.Demand {
        switch state {
        case .secondary, .cancelled: break
        case .awaitingPrimary, .primary, .awaitingSecondary, .terminated: return .none
        }
        return downstream.receive(input)
    }

    func secondaryReceive(completion: Subscribers.Completion<NewPublisher.Failure>) {
        guard case .secondary = state else { return }
        state = .terminated
        switch completion {
        case .finished: downstream.receive(completion: .finished)
        case .failure(let error): sendFailure(error)
        }
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        switch state {
        case .primary(let subscription):
            self.demand += demand
            subscription.request(demand)
        case .awaitingSecondary:
            self.demand += demand
        case .secondary(let subscription):
            subscription.request(demand)
        case .awaitingPrimary, .cancelled, .terminated:
            break
        }
    }

    func cancel() {
        let current = state
        handle = nil
        switch current {
        case .primary(let subscription), .secondary(let subscription):
            state = .cancelled
            subscription.cancel()
        case .awaitingPrimary, .awaitingSecondary:
            state = .cancelled
        case .cancelled, .terminated:
            break
        }
    }

    /// Sends a failure of the new publisher (`catch`) or a thrown error (`tryCatch`) downstream.
    private func sendFailure(_ error: any Error) {
        if let failure = error as? Downstream.Failure {
            downstream.receive(completion: .failure(failure))
        }
    }
}

/// The original upstream's subscriber in a catch.
private final class CatchPrimary<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber where Downstream.Input == Upstream.Output, NewPublisher.Output == Upstream.Output {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure
    private let link: CatchLink<Upstream, NewPublisher, Downstream>
    init(_ link: CatchLink<Upstream, NewPublisher, Downstream>) { self.link = link }
    func receive(subscription: any Subscription) { link.primaryReceive(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { link.primaryReceive(input) }
    func receive(completion: Subscribers.Completion<Failure>) { link.primaryReceive(completion: completion) }
}

/// The replacement publisher's subscriber in a catch.
private final class CatchSecondary<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber where Downstream.Input == Upstream.Output, NewPublisher.Output == Upstream.Output {
    typealias Input = NewPublisher.Output
    typealias Failure = NewPublisher.Failure
    private let link: CatchLink<Upstream, NewPublisher, Downstream>
    init(_ link: CatchLink<Upstream, NewPublisher, Downstream>) { self.link = link }
    func receive(subscription: any Subscription) { link.secondaryReceive(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { link.secondaryReceive(input) }
    func receive(completion: Subscribers.Completion<Failure>) { link.secondaryReceive(completion: completion) }
}
