extension Publishers {
    /// Shares one upstream subscription through a subject: subscribers attach to the subject
    /// (created lazily, once per `Multicast`), and `connect()` subscribes the subject to
    /// upstream. A class, as in Combine: identity matters (OpenCombine `Publishers.Multicast.swift`).
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher where SubjectType.Output == Upstream.Output, SubjectType.Failure == Upstream.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let createSubject: () -> SubjectType
        private var subject: SubjectType?

        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        private var lazySubject: SubjectType {
            if let subject { return subject }
            let created = createSubject()
            subject = created
            return created
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            lazySubject.receive(subscriber: MulticastLink(downstream: subscriber))
        }

        /// Subscribes the subject to upstream. The returned handle disconnects when cancelled
        /// (releasing it does not disconnect).
        public func connect() -> any Cancellable {
            let connection = SubjectSubscriber(lazySubject)
            upstream.receive(subscriber: connection)
            return connection
        }
    }
}

extension Publisher {
    /// A connectable publisher that shares upstream through the subject `createSubject` makes once, at the first subscription.
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S> where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// A connectable publisher that shares upstream through `subject`.
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S> where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self) { subject }
    }
}

/// A multicast subscriber's link to the subject; demand returned by downstream is requested
/// from the subject.
private final class MulticastLink<Downstream: Subscriber>: OperatorLink<Downstream.Input, Downstream.Failure, Downstream> {
    override func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard !isTerminated else { return .none }
        requestUpstream(downstream.receive(input))
        return .none
    }

    override func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard terminate() else { return }
        downstream.receive(completion: completion)
    }
}
