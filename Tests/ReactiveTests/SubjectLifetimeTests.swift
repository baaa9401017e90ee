import Testing
@testable import Reactive

/// A subscription may outlive its subject (the subscriber keeps it, the subject is released):
/// requesting and cancelling then do nothing, and never touch the freed subject.
@Suite struct SubjectLifetimeTests {
    final class Holder: Subscriber {
        typealias Input = Int
        typealias Failure = Never
        var subscription: (any Subscription)?
        var values: [Int] = []
        func receive(subscription: any Subscription) { self.subscription = subscription }
        func receive(_ input: Int) -> Subscribers.Demand { values.append(input); return .none }
        func receive(completion: Subscribers.Completion<Never>) {}
    }

    @Test func passthroughSubscriptionOutlivesItsSubject() {
        let holder = Holder()
        weak var released: PassthroughSubject<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            released = subject
            subject.receive(subscriber: holder)
            holder.subscription?.request(.max(1))
            subject.send(1)
        }
        #expect(released == nil, "subscriptions do not keep the subject alive")
        holder.subscription?.request(.max(2))
        holder.subscription?.cancel()
        #expect(holder.values == [1])
    }

    @Test func currentValueSubscriptionOutlivesItsSubject() {
        let holder = Holder()
        weak var released: CurrentValueSubject<Int, Never>?
        do {
            let subject = CurrentValueSubject<Int, Never>(7)
            released = subject
            subject.receive(subscriber: holder)
            holder.subscription?.request(.max(1))
        }
        #expect(released == nil)
        holder.subscription?.request(.max(1))
        holder.subscription?.cancel()
        #expect(holder.values == [7])
    }
}
