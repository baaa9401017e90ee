import Reactive

/// Brings an engine publisher's values and failure into the interpreter's types (`Value`,
/// `StreamError`) without showing up in the pipeline: downstream, `print` names the subscription
/// after the operator it wraps (`Collect`, `Just`), as Combine would.
struct Bridge<Upstream: Publisher>: Publisher {
    typealias Output = Value
    typealias Failure = StreamError
    let upstream: Upstream
    let value: (Upstream.Output) -> Value
    let failure: (Upstream.Failure) -> StreamError

    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == StreamError {
        upstream.receive(subscriber: BridgeLink<Upstream.Output, Upstream.Failure, S>(downstream: subscriber, value: value, failure: failure))
    }
}

/// Hands the upstream subscription straight through (so `print` downstream names the wrapped
/// operator, and whatever the operator still forwards after a cancel arrives unchanged).
private final class BridgeLink<Input, UpstreamFailure: Error, Downstream: Subscriber>: PassThroughSubscriber<Input, UpstreamFailure, Downstream>
where Downstream.Input == Value, Downstream.Failure == StreamError {
    private let value: (Input) -> Value
    private let failure: (UpstreamFailure) -> StreamError

    init(downstream: Downstream, value: @escaping (Input) -> Value, failure: @escaping (UpstreamFailure) -> StreamError) {
        self.value = value
        self.failure = failure
        super.init(downstream: downstream)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(value(input))
    }

    override func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        downstream.receive(completion: completion.mapError(failure))
    }
}
