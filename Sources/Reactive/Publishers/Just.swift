/// Emits one value, then finishes, on the first request.
public struct Just<Output>: Publisher {
    public typealias Failure = Never
    public let output: Output
    public init(_ output: Output) { self.output = output }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: JustSubscription(output, downstream: subscriber))
    }
}

private final class JustSubscription<Downstream: Subscriber>: Subscription {
    private var output: Downstream.Input?
    private var downstream: Downstream?

    init(_ output: Downstream.Input, downstream: Downstream) {
        self.output = output
        self.downstream = downstream
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0, let downstream, let output else { return }
        self.downstream = nil
        self.output = nil
        _ = downstream.receive(output)
        downstream.receive(completion: .finished)
    }

    func cancel() {
        downstream = nil
        output = nil
    }
}
