extension Publishers {
    /// All values as one array, delivered at upstream finish (`[]` if there were none).
    public struct Collect<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "Collect", downstream: subscriber, initial: [], kind: .plain) { result, input in
                result?.append(input)
                return .continue
            })
        }
    }

    /// Chunks of `count` values, each emitted synchronously when its last value arrives; at
    /// finish a non-empty partial chunk is emitted before `.finished`; a failure discards it.
    /// Each downstream request for n chunks asks upstream for n × `count` values.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let count: Int

        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, count: count))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
            let count: Int
            var chunk: [Upstream.Output] = []
            init(downstream: Downstream, count: Int) {
                self.count = count
                super.init(downstream: downstream)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                chunk.append(input)
                guard chunk.count == count else { return .none }
                let full = chunk
                chunk = []
                return downstream.receive(full) * count
            }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                if endPassThrough() {
                    // Combine's CollectByCount drops values after a cancel but still passes a
                    // completion upstream sends, without the chunk the cancel discarded
                    // (OpenCombine `CollectByCountTests.testCancelThenFinish`).
                    downstream.receive(completion: completion)
                    return
                }
                guard terminate() else { return }
                let rest = chunk
                chunk = []
                if case .finished = completion, !rest.isEmpty { _ = downstream.receive(rest) }
                downstream.receive(completion: completion)
            }
            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated else { return }
                requestUpstream(demand * count)
            }
            override func cancel() {
                chunk = []
                super.cancel()
            }
        }
    }
}

extension Publisher {
    /// Emits one array of every value when upstream finishes (`[]` if there were none); a failure discards it.
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }

    /// Emits arrays of `count` values, and the partial array when upstream finishes; a failure discards the partial array.
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}
