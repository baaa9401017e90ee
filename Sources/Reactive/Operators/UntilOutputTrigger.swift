/// The trigger publisher's subscriber: forwards to closures.
final class UntilOutputTrigger<Input, Failure: Error>: Subscriber {
    private let onSubscription: (any Subscription) -> Void
    private let onValue: (Input) -> Void
    private let onCompletion: (Subscribers.Completion<Failure>) -> Void

    init(onSubscription: @escaping (any Subscription) -> Void, onValue: @escaping (Input) -> Void, onCompletion: @escaping (Subscribers.Completion<Failure>) -> Void) {
        self.onSubscription = onSubscription
        self.onValue = onValue
        self.onCompletion = onCompletion
    }

    func receive(subscription: any Subscription) { onSubscription(subscription) }
    func receive(_ input: Input) -> Subscribers.Demand {
        onValue(input)
        return .none
    }
    func receive(completion: Subscribers.Completion<Failure>) { onCompletion(completion) }
}
