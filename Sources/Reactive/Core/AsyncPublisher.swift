import Foundation

extension Publisher where Failure == Never {
    /// The values of this publisher as an `AsyncSequence` (Combine's `values`): each `next()`
    /// asks upstream for one value and waits for it; the sequence ends with the publisher.
    public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}

extension Publisher {
    /// The values of this publisher as a throwing `AsyncSequence` (Combine's `values`): each
    /// `next()` asks upstream for one value and waits for it; a failure is thrown by the `next()`
    /// that meets it, and the sequence ends after it.
    public var values: AsyncThrowingPublisher<Self> { AsyncThrowingPublisher(self) }
}

/// A never-failing publisher read with `for await` (Combine's `AsyncPublisher`). Each iterator
/// is its own subscription, made by `makeAsyncIterator()`; cancelling the iterating task cancels
/// it and ends the sequence, and so does the iterator going away (a loop left by `break`,
/// `return` or a throw).
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    public typealias Element = P.Output

    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let lifetime: AsyncIteratorLifetime<P.Output, Never>

        public mutating func next() async -> P.Output? {
            if case .success(let value) = await lifetime.inbox.next() { return value }
            return nil
        }
    }

    private let publisher: P

    public init(_ publisher: P) { self.publisher = publisher }

    public func makeAsyncIterator() -> Iterator {
        let inbox = AsyncValueInbox<P.Output, Never>()
        publisher.subscribe(inbox)
        return Iterator(lifetime: AsyncIteratorLifetime(inbox))
    }
}

/// A publisher read with `for try await` (Combine's `AsyncThrowingPublisher`): as
/// `AsyncPublisher`, and the publisher's failure is thrown.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    public typealias Element = P.Output

    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let lifetime: AsyncIteratorLifetime<P.Output, P.Failure>

        public mutating func next() async throws -> P.Output? {
            try await lifetime.inbox.next().get()
        }
    }

    private let publisher: P

    public init(_ publisher: P) { self.publisher = publisher }

    public func makeAsyncIterator() -> Iterator {
        let inbox = AsyncValueInbox<P.Output, P.Failure>()
        publisher.subscribe(inbox)
        return Iterator(lifetime: AsyncIteratorLifetime(inbox))
    }
}

/// What an iterator holds of its subscription: when the last copy of the iterator goes, the
/// subscription is cancelled. Without it a loop left early kept its pipeline alive for as long as
/// the publisher lived (the subscription holds the inbox, the inbox the subscription), and a
/// subject went on delivering to it. OpenCombine's iterator keeps it; `AsyncStream`'s iterator
/// ends its stream the same way when it goes (SE-0314, `onTermination`).
final class AsyncIteratorLifetime<Input, Failure: Error> {
    let inbox: AsyncValueInbox<Input, Failure>

    init(_ inbox: AsyncValueInbox<Input, Failure>) { self.inbox = inbox }

    deinit { inbox.cancel() }
}

/// The subscriber behind `values`: one unit of demand per waiting `next()`, so that upstream
/// never gets ahead of the loop. Values may arrive on any thread, hence the lock.
final class AsyncValueInbox<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    /// What a waiting `next()` is resumed with: a value, `nil` for the end, or the failure.
    /// Unchecked: the value crosses to the iterating task as it does in Combine, whose
    /// `AsyncPublisher` does not ask for a `Sendable` output either.
    struct Delivery: @unchecked Sendable {
        let result: Result<Input?, Failure>
    }

    private enum State {
        /// `next()` calls made before upstream handed over its subscription.
        case awaitingSubscription(requested: Int)
        case subscribed(any Subscription)
        /// Upstream failed while no `next()` was waiting: the next one throws it.
        case failed(Failure)
        case terminal
    }

    private let lock = NSLock()
    private var state = State.awaitingSubscription(requested: 0)
    private var waiting: [UnsafeContinuation<Delivery, Never>] = []

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let requested) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        lock.unlock()
        if requested > 0 { subscription.request(.max(requested)) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        // A value nobody waits for is beyond the demand asked: a broken upstream; dropped
        // (Combine traps here).
        guard case .subscribed = state, !waiting.isEmpty else {
            lock.unlock()
            return .none
        }
        let continuation = waiting.removeFirst()
        lock.unlock()
        continuation.resume(returning: Delivery(result: .success(input)))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        switch state {
        case .failed, .terminal:
            lock.unlock()
            return
        case .awaitingSubscription, .subscribed:
            break
        }
        let resumed = waiting
        waiting = []
        if resumed.isEmpty, case .failure(let error) = completion {
            state = .failed(error)
        } else {
            state = .terminal
        }
        lock.unlock()
        guard let first = resumed.first else { return }
        switch completion {
        case .finished: first.resume(returning: Delivery(result: .success(nil)))
        case .failure(let error): first.resume(returning: Delivery(result: .failure(error)))
        }
        for continuation in resumed.dropFirst() { continuation.resume(returning: Delivery(result: .success(nil))) }
    }

    /// Cancels upstream and ends the sequence: every waiting `next()` returns `nil`.
    func cancel() {
        lock.lock()
        let subscription: (any Subscription)?
        if case .subscribed(let current) = state { subscription = current } else { subscription = nil }
        state = .terminal
        let resumed = waiting
        waiting = []
        lock.unlock()
        subscription?.cancel()
        for continuation in resumed { continuation.resume(returning: Delivery(result: .success(nil))) }
    }

    /// Waits for the next value; cancelling the task cancels the subscription.
    func next() async -> Result<Input?, Failure> {
        let delivery = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Delivery, Never>) in
                lock.lock()
                switch state {
                case .awaitingSubscription(let requested):
                    waiting.append(continuation)
                    state = .awaitingSubscription(requested: requested + 1)
                    lock.unlock()
                case .subscribed(let subscription):
                    waiting.append(continuation)
                    lock.unlock()
                    subscription.request(.max(1))
                case .failed(let error):
                    state = .terminal
                    lock.unlock()
                    continuation.resume(returning: Delivery(result: .failure(error)))
                case .terminal:
                    lock.unlock()
                    continuation.resume(returning: Delivery(result: .success(nil)))
                }
            }
        } onCancel: {
            cancel()
        }
        return delivery.result
    }
}
