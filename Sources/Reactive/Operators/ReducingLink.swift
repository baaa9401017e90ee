/// What a reducer makes of one upstream value (a throw from the step fails the stream instead).
enum ReduceStep {
    /// Keep going.
    case `continue`
    /// The result is known: cancel upstream and deliver it (first, contains, allSatisfy).
    case finish
}

/// The machinery shared by the reducers (first, last, reduce, collect(), count, min/max,
/// contains, allSatisfy), after Combine's `ReduceProducer`: asks upstream for `.unlimited` right
/// after downstream has its subscription, folds each value into `result` with `step`, and on
/// upstream finish (or an early `.finish` step, which cancels upstream at that instant) delivers
/// `result` (if any) and `.finished` — at once if downstream has ever requested, otherwise on its
/// first request. A failure discards the partial result and is delivered at once, demand or not;
/// a throw from `step` (a `try` reducer's closure) cancels upstream and fails the same way.
final class ReducingLink<Input, UpstreamFailure: Error, Downstream: Subscriber>: OperatorLink<Input, UpstreamFailure, Downstream>, CustomStringConvertible {
    /// The operator's name, as `print` shows the subscription ("Collect", "First").
    let description: String
    private var result: Downstream.Input?
    private let step: (inout Downstream.Input?, Input) throws -> ReduceStep
    private let kind: FailureKind<UpstreamFailure, Downstream.Failure>
    private var downstreamRequested = false
    /// The result is ready and waits for downstream's first request.
    private var isHolding = false

    init(
        name: String,
        downstream: Downstream,
        initial: Downstream.Input?,
        kind: FailureKind<UpstreamFailure, Downstream.Failure>,
        step: @escaping (inout Downstream.Input?, Input) throws -> ReduceStep
    ) {
        result = initial
        self.step = step
        self.kind = kind
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
        do {
            guard try step(&result, input) == .finish else { return .none }
            cancelUpstream()
            terminate()
            resultIsReady()
        } catch {
            cancel()
            result = nil
            downstream.receive(completion: .failure(kind.thrown(error)))
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
            downstream.receive(completion: .failure(kind.mapFailure(error)))
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
