/// The shape of the operators Combine builds as a bare subscriber (`map`, `filter`,
/// `compactMap`, `scan`, `mapError`, `setFailureType`, `ignoreOutput`, `assertNoFailure`): the
/// upstream's subscription is handed straight to downstream, so every request and cancel —
/// also one after a cancel — reaches upstream untouched, and the operator keeps no terminated
/// state: whatever upstream still sends after a cancel (`delay` or `receive(on:)` once their
/// upstream has completed) reaches the subscriber. OpenCombine's `MapTests.testMapCancel`,
/// `FilterTests.testFilterCancelAlreadyCancelled` and `ScanTests.testScanCancel` pin this, and
/// they run against Combine.
///
/// Subclasses override `receive(_:)` and `receive(completion:)`.
open class PassThroughSubscriber<Input, Failure: Error, Downstream: Subscriber>: Subscriber {
    public let downstream: Downstream

    public init(downstream: Downstream) { self.downstream = downstream }

    open func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    open func receive(_ input: Input) -> Subscribers.Demand { .none }

    open func receive(completion: Subscribers.Completion<Failure>) {}
}
