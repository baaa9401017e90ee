extension Publishers {
    /// Connects its upstream when the first subscriber arrives (after attaching it), and
    /// cancels the connection when every subscriber has cancelled; the next subscriber
    /// connects again. Only cancels count down: a subscriber that received a completion still
    /// counts. A class, as in Combine: its identity holds the connection.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        public let upstream: Upstream
        private var connection: (any Cancellable)?
        private var subscriberCount = 0

        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let isFirst = connection == nil
            subscriberCount += 1
            upstream.receive(subscriber: Link(downstream: subscriber, parent: self))
            if isFirst, connection == nil, subscriberCount > 0 { connection = upstream.connect() }
        }

        fileprivate func subscriberCancelled() {
            subscriberCount -= 1
            guard subscriberCount <= 0 else { return }
            subscriberCount = 0
            let connection = self.connection
            self.connection = nil
            connection?.cancel()
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Output, Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Failure {
            private let parent: Autoconnect
            private var hasCancelled = false

            init(downstream: Downstream, parent: Autoconnect) {
                self.parent = parent
                super.init(downstream: downstream)
            }

            override func receive(_ input: Output) -> Subscribers.Demand {
                isTerminated ? .none : downstream.receive(input)
            }

            override func receive(completion: Subscribers.Completion<Failure>) {
                guard terminate() else { return }
                downstream.receive(completion: completion)
            }

            override func cancel() {
                guard !hasCancelled else { return }
                hasCancelled = true
                parent.subscriberCancelled()
                super.cancel()
            }
        }
    }
}

extension ConnectablePublisher {
    /// Connects on the first subscription and disconnects when every subscriber has cancelled.
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}
