/// The machinery shared by the operators that answer each value at once and keep a terminated
/// state (drop(while:), prefix(while:), removeDuplicates and the `try` twins of map, filter,
/// compactMap and scan), after the shape of OpenCombine's `FilterProducer`: a subclass overrides
/// `receive(_:)` only; an upstream completion is forwarded once, with its failure mapped to
/// downstream's, and `end(_:)` is how the operator itself ends the stream (a predicate's throw,
/// prefix(while:)'s first rejected value): upstream is cancelled, then downstream gets the completion.
///
/// `print` names the subscription by `description`, so one link serves an `X` and its `TryX`.
class FilteringLink<Input, UpstreamFailure: Error, Downstream: Subscriber>: OperatorLink<Input, UpstreamFailure, Downstream>, CustomStringConvertible {
    /// The operator's name, as `print` shows the subscription ("DropWhile", "TryDropWhile").
    let description: String
    private let kind: FailureKind<UpstreamFailure, Downstream.Failure>

    init(name: String, downstream: Downstream, kind: FailureKind<UpstreamFailure, Downstream.Failure>) {
        description = name
        self.kind = kind
        super.init(downstream: downstream)
    }

    final override func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard terminate() else { return }
        downstream.receive(completion: completion.mapError(kind.mapFailure))
    }

    /// Cancels upstream and sends `completion` downstream.
    final func end(_ completion: Subscribers.Completion<Downstream.Failure>) {
        cancel()
        downstream.receive(completion: completion)
    }

    /// Ends the stream with what the operator's closure threw.
    final func fail(_ error: any Error) {
        end(.failure(kind.thrown(error)))
    }
}
