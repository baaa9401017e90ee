extension Publishers {
    /// Shares one upstream subscription through a subject: subscribers attach to the subject
    /// (created lazily, once per `Multicast`), and `connect()` subscribes the subject to
    /// upstream. A class, as in Combine: identity matters (OC `Publishers.Multicast.swift`).
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

    /// `multicast` through a `PassthroughSubject` (Combine offers it only for publishers that cannot fail).
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        private let inner: Multicast<Upstream, PassthroughSubject<Upstream.Output, Upstream.Failure>>

        public init(upstream: Upstream) {
            inner = Multicast(upstream: upstream) { PassthroughSubject() }
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        public func connect() -> any Cancellable { inner.connect() }
    }

    /// `multicast(PassthroughSubject).autoconnect()`: the first subscriber attaches, then
    /// upstream is subscribed (so a synchronous upstream reaches the first subscriber only).
    /// Later subscribers see only later values, and a subscriber without demand misses values.
    /// After upstream completes, a new subscriber gets the completion at once: no replay, no
    /// resubscription. When every subscriber has cancelled, the next one reconnects upstream
    /// through the same subject (reference §8; HJ `testSharedDeferredFuturePublisher`).
    /// `autoconnect()` is `Publishers.Autoconnect` in Core/Autoconnect.swift.
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        private let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Upstream.Output, Upstream.Failure>>>

        public init(upstream: Upstream) {
            self.upstream = upstream
            inner = Autoconnect(upstream: Multicast(upstream: upstream) { PassthroughSubject() })
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.receive(subscriber: subscriber)
        }

        public static func == (lhs: Share, rhs: Share) -> Bool { lhs === rhs }
    }
}

extension Publisher {
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S> where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S> where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self) { subject }
    }

    public func share() -> Publishers.Share<Self> { Publishers.Share(upstream: self) }
}

extension Publisher where Failure == Never {
    public func makeConnectable() -> Publishers.MakeConnectable<Self> { Publishers.MakeConnectable(upstream: self) }
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
