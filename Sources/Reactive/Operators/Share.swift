extension Publishers {
    /// `multicast(PassthroughSubject).autoconnect()`: the first subscriber attaches, then
    /// upstream is subscribed (so a synchronous upstream reaches the first subscriber only).
    /// Later subscribers see only later values, and a subscriber without demand misses values.
    /// After upstream completes, a new subscriber gets the completion at once: no replay, no
    /// resubscription. When every subscriber has cancelled, the next one reconnects upstream
    /// through the same subject (heckj/swiftui-notes `testSharedDeferredFuturePublisher`).
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
    /// Shares one upstream subscription among every subscriber, connected at the first and cancelled when the last cancels.
    public func share() -> Publishers.Share<Self> { Publishers.Share(upstream: self) }
}
