extension Publishers {
    /// How `buffer` asks upstream for values.
    public enum PrefetchStrategy: Hashable, Sendable {
        /// Ask for `size` at subscription, then one more for every value delivered downstream.
        case keepFull
        /// Ask for `.unlimited` at subscription, and nothing after.
        case byRequest
    }

    /// What `buffer` does with a value that arrives when it is full.
    public enum BufferingStrategy<Failure: Error> {
        /// Drop the incoming value.
        case dropNewest
        /// Drop the oldest buffered value and keep the incoming one.
        case dropOldest
        /// Cancel upstream and fail with this error, after the buffered values (see `Buffer`).
        case customError(() -> Failure)
    }

    /// Holds up to `size` values FIFO and delivers them as downstream demand arrives.
    ///
    /// Follows OpenCombine's compatibility-tested algorithm, which also reproduces Apple's
    /// measured request pattern (CombineX `FailingBufferSpec`: `.byRequest` asks upstream only
    /// for the initial `.unlimited`; `.keepFull` asks for `size`, then, after each drain, for as
    /// many as were delivered — `[.max(10), .max(10)]`):
    /// - upstream is asked *before* downstream gets its subscription;
    /// - `.customError` when full: the failure is recorded and upstream cancelled, but it is only
    ///   delivered by a later downstream request, after as many buffered values as that demand
    ///   covers (the rest are dropped). Without a further request it is never delivered
    ///   (Apple, CombineX `SuspiciousBufferSpec`);
    /// - an upstream failure is delivered at once if downstream demand is 0, dropping the buffer;
    /// - `.finished` waits until the buffer is empty *and* downstream has demand, so with zero
    ///   demand even an empty buffer holds it back until the next request (OpenCombine
    ///   `BufferTests.testReceiveValueAfterCompleting`).
    public struct Buffer<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let size: Int
        public let prefetch: PrefetchStrategy
        public let whenFull: BufferingStrategy<Upstream.Failure>

        public init(upstream: Upstream, size: Int, prefetch: PrefetchStrategy, whenFull: BufferingStrategy<Upstream.Failure>) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }

        private final class Link<Downstream: Subscriber>: Subscriber, Subscription where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
            typealias Input = Upstream.Output
            typealias Failure = Upstream.Failure

            let downstream: Downstream
            let size: Int
            let prefetch: PrefetchStrategy
            let whenFull: BufferingStrategy<Upstream.Failure>

            var upstream: (any Subscription)?
            /// Upstream has completed, or was cancelled (by downstream or by `.customError`).
            var isUpstreamClosed = false
            /// Downstream has cancelled or received its completion.
            var isDownstreamClosed = false
            var values: [Upstream.Output] = []
            var head = 0
            var downstreamDemand: Subscribers.Demand = .none
            var terminal: Subscribers.Completion<Upstream.Failure>?
            var isDraining = false

            init(downstream: Downstream, size: Int, prefetch: PrefetchStrategy, whenFull: BufferingStrategy<Upstream.Failure>) {
                self.downstream = downstream
                self.size = size
                self.prefetch = prefetch
                self.whenFull = whenFull
            }

            var count: Int { values.count - head }

            func receive(subscription: any Subscription) {
                guard upstream == nil, !isUpstreamClosed, !isDownstreamClosed else { subscription.cancel(); return }
                upstream = subscription
                subscription.request(prefetch == .keepFull ? .max(size) : .unlimited)
                downstream.receive(subscription: self)
            }

            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isUpstreamClosed, !isDownstreamClosed else { return .none }
                if count >= size {
                    switch whenFull {
                    case .dropNewest:
                        return drain()
                    case .dropOldest:
                        if count > 0 { removeFirst(1) }
                    case .customError(let makeError):
                        terminal = .failure(makeError())
                        closeUpstream(cancelling: true)
                        return .none
                    }
                }
                values.append(input)
                return drain()
            }

            func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard !isUpstreamClosed, !isDownstreamClosed else { return }
                terminal = completion
                closeUpstream(cancelling: false)
                _ = drain()
            }

            func request(_ demand: Subscribers.Demand) {
                guard !isDownstreamClosed, demand > 0 else { return }
                downstreamDemand += demand
                let more = drain()
                if more > 0, !isUpstreamClosed { upstream?.request(more) }
            }

            func cancel() {
                guard !isDownstreamClosed else { return }
                isDownstreamClosed = true
                values = []
                head = 0
                if !isUpstreamClosed { closeUpstream(cancelling: true) }
            }

            /// Delivers what demand allows, and the completion when its time has come. Returns how
            /// much more to ask upstream for (`.keepFull`: one per delivered value).
            private func drain() -> Subscribers.Demand {
                // Re-entered from a delivery (a value or completion sent synchronously in
                // reaction to it): the running loop picks the new state up, in order.
                guard !isDraining else { return .none }
                var upstreamDemand: Subscribers.Demand = .none
                while !isDownstreamClosed {
                    guard downstreamDemand > 0 else {
                        if case .failure = terminal { complete() }
                        return upstreamDemand
                    }
                    guard count > 0 else {
                        if terminal != nil { complete() }
                        return upstreamDemand
                    }
                    let batch = Array(values[head ..< head + Swift.min(count, downstreamDemand.max ?? count)])
                    removeFirst(batch.count)
                    downstreamDemand -= batch.count
                    isDraining = true
                    var delivered = 0
                    for value in batch where !isDownstreamClosed {
                        downstreamDemand += downstream.receive(value)
                        delivered += 1
                    }
                    isDraining = false
                    if prefetch == .keepFull { upstreamDemand += delivered }
                }
                return upstreamDemand
            }

            private func complete() {
                guard let terminal, !isDownstreamClosed else { return }
                isDownstreamClosed = true
                values = []
                head = 0
                downstream.receive(completion: terminal)
            }

            private func removeFirst(_ n: Int) {
                head += n
                if head == values.count {
                    values = []
                    head = 0
                } else if head > 64, head * 2 > values.count {
                    values.removeFirst(head)
                    head = 0
                }
            }

            private func closeUpstream(cancelling: Bool) {
                isUpstreamClosed = true
                let upstream = self.upstream
                self.upstream = nil
                if cancelling { upstream?.cancel() }
            }
        }
    }
}

extension Publisher {
    /// Buffers up to `size` values between a fast upstream and a slow downstream (see `Publishers.Buffer`).
    public func buffer(size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}
