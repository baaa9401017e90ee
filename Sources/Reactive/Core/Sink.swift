extension Subscribers {
    /// Requests `.unlimited` on subscription and hands every event to closures.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable {
        @exclusivity(unchecked) private var receiveValue: ((Input) -> Void)?
        @exclusivity(unchecked) private var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
        @exclusivity(unchecked) private var subscription: (any Subscription)?

        public init(receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void, receiveValue: @escaping (Input) -> Void) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
        }

        public func receive(subscription: any Subscription) {
            guard self.subscription == nil, receiveValue != nil else { subscription.cancel(); return }
            self.subscription = subscription
            subscription.request(.unlimited)
        }

        public func receive(_ input: Input) -> Subscribers.Demand {
            receiveValue?(input)
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            // Since iOS 14 a sink ignores everything after its completion.
            let body = receiveCompletion
            release()
            body?(completion)
        }

        public func cancel() {
            let subscription = self.subscription
            release()
            subscription?.cancel()
        }

        private func release() {
            receiveValue = nil
            receiveCompletion = nil
            subscription = nil
        }
    }
}

extension Publisher {
    /// Subscribes with unlimited demand, calling `receiveValue` for each value and `receiveCompletion` at the end; cancel the returned handle to stop.
    public func sink(receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void, receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        let sink = Subscribers.Sink(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        receive(subscriber: sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Subscribes with unlimited demand, calling `receiveValue` for each value (only for publishers that cannot fail).
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
