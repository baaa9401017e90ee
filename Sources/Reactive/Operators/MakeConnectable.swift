extension Publishers {
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
}

extension Publisher where Failure == Never {
    /// A connectable publisher that subscribes upstream only at `connect()`, sharing it through a `PassthroughSubject`.
    public func makeConnectable() -> Publishers.MakeConnectable<Self> { Publishers.MakeConnectable(upstream: self) }
}
