import Testing
@testable import Reactive

// Support for the fast-path suites (MergeFastPathTests in MergeTests.swift, DebounceFastPathTests
// in DebounceTests.swift): behaviour pinned around merge's unlimited-demand path (no slots
// touched) and debounce's single re-armed timer (no allocation per value). Those tests hold for
// the straightforward implementations too (cancel-and-reschedule, optional slots); no timings.

/// Records values and completions with their frames; keeps no subscription unless told to.
final class FrameRecorder<Input, Failure: Error>: Subscriber {
    let scheduler: VirtualTimeScheduler
    var log: [String] = []
    /// Weak: the subscription holds this recorder as its downstream, and what publishes to it keeps
    /// it alive while it runs; a strong reference would be a retain cycle left after every test.
    weak var subscription: (any Subscription)?
    private let keepsSubscription: Bool
    private let initialDemand: Subscribers.Demand
    /// Called for every value; returns the extra demand to give back.
    var onValue: (FrameRecorder, Input) -> Subscribers.Demand = { _, _ in .none }

    init(scheduler: VirtualTimeScheduler, initialDemand: Subscribers.Demand = .unlimited, keepsSubscription: Bool = true) {
        self.scheduler = scheduler
        self.initialDemand = initialDemand
        self.keepsSubscription = keepsSubscription
    }

    func receive(subscription: any Subscription) {
        if keepsSubscription { self.subscription = subscription }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        log.append("\(input)@\(scheduler.currentFrame)")
        return onValue(self, input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: log.append("|@\(scheduler.currentFrame)")
        case .failure: log.append("#@\(scheduler.currentFrame)")
        }
    }
}

/// A publisher that breaks the contract: it finishes, then sends a value anyway.
struct SendsAfterFinishing: Publisher {
    typealias Output = String
    typealias Failure = Never
    let scheduler: VirtualTimeScheduler
    let at: VirtualTime

    func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == Never {
        subscriber.receive(subscription: EmptySubscription())
        scheduler.schedule(at: at) {
            subscriber.receive(completion: .finished)
            _ = subscriber.receive("late")
        }
    }
}

/// A publisher that sends one value at subscription and keeps no reference to its subscriber.
struct SendsOnceAndForgets: Publisher {
    typealias Output = String
    typealias Failure = Never
    let value: String

    func receive<S: Subscriber>(subscriber: S) where S.Input == String, S.Failure == Never {
        subscriber.receive(subscription: EmptySubscription())
        _ = subscriber.receive(value)
    }
}
