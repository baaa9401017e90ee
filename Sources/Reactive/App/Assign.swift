extension Subscribers {
    /// Writes every value into a property of an object (Combine's `Subscribers.Assign`). Asks for
    /// everything; holds the object until it completes or is cancelled.
    public final class Assign<Root, Input>: Subscriber, Cancellable {
        public typealias Failure = Never

        /// The object written to, until completion or cancel.
        public private(set) var object: Root?
        /// The property written.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>
        private var subscription: (any Subscription)?

        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self.object = object
            self.keyPath = keyPath
        }

        public func receive(subscription: any Subscription) {
            guard self.subscription == nil, object != nil else { subscription.cancel(); return }
            self.subscription = subscription
            subscription.request(.unlimited)
        }

        public func receive(_ input: Input) -> Subscribers.Demand {
            object?[keyPath: keyPath] = input
            return .none
        }

        public func receive(completion: Subscribers.Completion<Never>) {
            object = nil
            subscription = nil
        }

        public func cancel() {
            let subscription = self.subscription
            object = nil
            self.subscription = nil
            subscription?.cancel()
        }
    }
}

extension Publisher where Failure == Never {
    /// Writes every value into `object[keyPath: keyPath]` (Combine's `assign(to:on:)`); the
    /// returned handle cancels it. The object is held strongly until then.
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let assign = Subscribers.Assign(object: object, keyPath: keyPath)
        receive(subscriber: assign)
        return AnyCancellable(assign)
    }
}
