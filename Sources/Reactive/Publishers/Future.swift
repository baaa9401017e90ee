/// A single result produced once, eagerly: `attemptToFulfill` runs at init, and the first call of
/// its promise fixes the result for every subscriber, present and future (later calls are
/// ignored). A value is sent, with `.finished` right after it, as soon as a subscriber has both
/// the result and demand — inside the promise call, at subscription, or at its first request.
/// A failure is sent without waiting for demand (iOS 14+; CombineX `VersioningFutureSpec`).
/// Subscribers waiting at the promise call are served in subscription order (Combine's order
/// is unspecified).
public final class Future<Output, Failure: Error>: Publisher {
    public typealias Promise = (Result<Output, Failure>) -> Void

    private var result: Result<Output, Failure>?
    private var conduits: [FutureConduit<Output, Failure>] = []

    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in promise(result) }
    }

    private func promise(_ result: Result<Output, Failure>) {
        guard self.result == nil else { return }
        self.result = result
        for conduit in conduits { conduit.fulfill(result) }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = FutureConduit(AnySubscriber(subscriber)) { [weak self] in self?.result }
        conduit.onEnd = { [weak self, unowned conduit] in self?.conduits.removeAll { $0 === conduit } }
        conduits.append(conduit)
        subscriber.receive(subscription: conduit)
        if let result { conduit.fulfill(result) }
    }
}

/// One subscriber's link to a `Future`.
private final class FutureConduit<Output, Failure: Error>: Subscription {
    private var downstream: AnySubscriber<Output, Failure>?
    private var hasDemand = false
    private let currentResult: () -> Result<Output, Failure>?
    var onEnd: (() -> Void)?

    init(_ downstream: AnySubscriber<Output, Failure>, currentResult: @escaping () -> Result<Output, Failure>?) {
        self.downstream = downstream
        self.currentResult = currentResult
    }

    /// Delivers `result` if it may go now: always for a failure, with demand for a value.
    func fulfill(_ result: Result<Output, Failure>) {
        guard let downstream else { return }
        if case .success = result, !hasDemand { return }
        end()
        switch result {
        case .success(let output):
            _ = downstream.receive(output)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }

    func request(_ demand: Subscribers.Demand) {
        guard downstream != nil, demand > 0 else { return }
        hasDemand = true
        if let result = currentResult() { fulfill(result) }
    }

    func cancel() { end() }

    private func end() {
        downstream = nil
        let onEnd = self.onEnd
        self.onEnd = nil
        onEnd?()
    }
}
