/// What a reducer makes of one upstream value.
enum ReduceStep<Failure: Error> {
    /// Keep going.
    case `continue`
    /// The result is known: cancel upstream and deliver it (first, contains, allSatisfy).
    case finish
    /// The reducer threw: cancel upstream and fail.
    case fail(Failure)
}

/// The machinery shared by the reducers (first, last, reduce, collect(), count, min/max,
/// contains, allSatisfy), after Combine's `ReduceProducer`: asks upstream for `.unlimited` right
/// after downstream has its subscription, folds each value into `result` with `step`, and on
/// upstream finish (or an early `.finish` step, which cancels upstream at that instant) delivers
/// `result` (if any) and `.finished` — at once if downstream has ever requested, otherwise on its
/// first request. A failure discards the partial result and is delivered at once, demand or not.
final class ReducingLink<Input, UpstreamFailure: Error, Downstream: Subscriber>: OperatorLink<Input, UpstreamFailure, Downstream>, CustomStringConvertible {
    /// The operator's name, as `print` shows the subscription ("Collect", "First").
    let description: String
    private var result: Downstream.Input?
    private let step: (inout Downstream.Input?, Input) -> ReduceStep<Downstream.Failure>
    private let mapFailure: (UpstreamFailure) -> Downstream.Failure
    private var downstreamRequested = false
    /// The result is ready and waits for downstream's first request.
    private var isHolding = false

    init(
        name: String,
        downstream: Downstream,
        initial: Downstream.Input?,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        step: @escaping (inout Downstream.Input?, Input) -> ReduceStep<Downstream.Failure>
    ) {
        result = initial
        self.step = step
        self.mapFailure = mapFailure
        description = name
        super.init(downstream: downstream)
    }

    override func receive(subscription: any Subscription) {
        let isFirst = upstream == nil && !isTerminated
        super.receive(subscription: subscription)
        if isFirst { requestUpstream(.unlimited) }
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        guard !isTerminated else { return .none }
        switch step(&result, input) {
        case .continue:
            break
        case .finish:
            cancelUpstream()
            terminate()
            resultIsReady()
        case .fail(let error):
            cancel()
            result = nil
            downstream.receive(completion: .failure(error))
        }
        return .none
    }

    override func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard terminate() else { return }
        switch completion {
        case .finished:
            resultIsReady()
        case .failure(let error):
            result = nil
            downstream.receive(completion: .failure(mapFailure(error)))
        }
    }

    override func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        if isHolding {
            deliver()
        } else if !isTerminated {
            downstreamRequested = true
        }
    }

    override func cancel() {
        if isHolding {
            isHolding = false
            result = nil
        } else {
            super.cancel()
        }
    }

    private func resultIsReady() {
        if downstreamRequested { deliver() } else { isHolding = true }
    }

    private func deliver() {
        isHolding = false
        let result = self.result
        self.result = nil
        if let result { _ = downstream.receive(result) }
        downstream.receive(completion: .finished)
    }
}

extension Publishers {
    /// All values as one array, delivered at upstream finish (`[]` if there were none).
    public struct Collect<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "Collect", downstream: subscriber, initial: [], mapFailure: { $0 }) { result, input in
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

    /// Folds all values into one result, delivered at upstream finish (`initial` if there were none).
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let initial: Output
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "Reduce", downstream: subscriber, initial: initial, mapFailure: { $0 }) { result, input in
                if let current = result { result = next(current, input) }
                return .continue
            })
        }
    }

    /// Like `Reduce`, but the closure may throw, which cancels upstream and fails the stream.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error
        public let upstream: Upstream
        public let initial: Output
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        public init(upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let next = nextPartialResult
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "TryReduce", downstream: subscriber, initial: initial, mapFailure: { $0 }) { result, input in
                do {
                    if let current = result { result = try next(current, input) }
                    return .continue
                } catch {
                    return .fail(error)
                }
            })
        }
    }

    /// The number of values, delivered at upstream finish (0 if there were none).
    public struct Count<Upstream: Publisher>: Publisher {
        public typealias Output = Int
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "Count", downstream: subscriber, initial: 0, mapFailure: { $0 }) { result, _ in
                result = (result ?? 0) + 1
                return .continue
            })
        }
    }

    /// The greatest value by `areInIncreasingOrder`, delivered at upstream finish; `min` uses the
    /// flipped order. A value replaces the current one only if strictly greater, so ties keep the
    /// first received. An empty upstream gives `.finished` only.
    public struct Comparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let isLess = areInIncreasingOrder
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "Comparison", downstream: subscriber, initial: nil, mapFailure: { $0 }) { result, input in
                if let current = result, !isLess(current, input) { return .continue }
                result = input
                return .continue
            })
        }
    }

    /// Like `Comparison`, but the ordering may throw, which cancels upstream and fails the stream.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error
        public let upstream: Upstream
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let isLess = areInIncreasingOrder
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "TryComparison", downstream: subscriber, initial: nil, mapFailure: { $0 }) { result, input in
                do {
                    if let current = result, try !isLess(current, input) { return .continue }
                    result = input
                    return .continue
                } catch {
                    return .fail(error)
                }
            })
        }
    }

    /// `true` as soon as a value equals `output` (upstream is cancelled at that instant), `false`
    /// at upstream finish otherwise.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let output: Upstream.Output

        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let wanted = output
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "Contains", downstream: subscriber, initial: false, mapFailure: { $0 }) { result, input in
                guard input == wanted else { return .continue }
                result = true
                return .finish
            })
        }
    }

    /// `true` as soon as a value satisfies `predicate` (upstream is cancelled at that instant),
    /// `false` at upstream finish otherwise.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Upstream.Output) -> Bool

        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "ContainsWhere", downstream: subscriber, initial: false, mapFailure: { $0 }) { result, input in
                guard predicate(input) else { return .continue }
                result = true
                return .finish
            })
        }
    }

    /// Like `ContainsWhere`, but the predicate may throw, which cancels upstream and fails the stream.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = any Error
        public let upstream: Upstream
        public let predicate: (Upstream.Output) throws -> Bool

        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "TryContainsWhere", downstream: subscriber, initial: false, mapFailure: { $0 }) { result, input in
                do {
                    guard try predicate(input) else { return .continue }
                } catch {
                    return .fail(error)
                }
                result = true
                return .finish
            })
        }
    }

    /// `false` as soon as a value fails `predicate` (upstream is cancelled at that instant),
    /// `true` at upstream finish otherwise (also for an empty upstream).
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Upstream.Output) -> Bool

        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "AllSatisfy", downstream: subscriber, initial: true, mapFailure: { $0 }) { result, input in
                guard !predicate(input) else { return .continue }
                result = false
                return .finish
            })
        }
    }

    /// Like `AllSatisfy`, but the predicate may throw, which cancels upstream and fails the stream.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        public typealias Output = Bool
        public typealias Failure = any Error
        public let upstream: Upstream
        public let predicate: (Upstream.Output) throws -> Bool

        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.receive(subscriber: ReducingLink<Upstream.Output, Upstream.Failure, S>(name: "TryAllSatisfy", downstream: subscriber, initial: true, mapFailure: { $0 }) { result, input in
                do {
                    guard try !predicate(input) else { return .continue }
                } catch {
                    return .fail(error)
                }
                result = false
                return .finish
            })
        }
    }

    /// Forwards only the completion. Hands the upstream subscription straight to downstream and
    /// then asks it for `.unlimited` itself, so upstream sees the subscriber's own requests (at
    /// subscription and later) besides that `.unlimited`, and every cancel (OpenCombine
    /// `IgnoreOutputTests.testDemand`, run against Combine).
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        public typealias Output = Never
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber))
        }

        private final class Link<Downstream: Subscriber>: PassThroughSubscriber<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Never, Downstream.Failure == Upstream.Failure {
            override func receive(subscription: any Subscription) {
                downstream.receive(subscription: subscription)
                subscription.request(.unlimited)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand { .none }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }

    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }

    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }

    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }

    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }

    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publisher where Output: Comparable {
    public func min() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: >)
    }

    public func max() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: <)
    }
}

extension Publisher where Output: Equatable {
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}
