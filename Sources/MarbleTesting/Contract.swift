#if canImport(Combine)
import Combine
#else
import Reactive
#endif
import VirtualClock

/// The rules of Combine's `Publisher` and `Subscription` contract that every publisher and
/// operator must keep, checked by `PublisherContract.check`.
public enum ContractRule: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No value beyond the demand the subscriber signalled.
    case demand = "no value beyond demand"
    /// Nothing after a completion (and at most one completion).
    case afterCompletion = "nothing after a completion"
    /// After `cancel()`, nothing is delivered and every upstream subscription ends.
    case cancellation = "cancellation reaches upstream and stops delivery"
    /// `request(.none)` asks for nothing and breaks nothing.
    case requestNone = "request(.none) is harmless"
    /// A second `cancel()` breaks nothing.
    case doubleCancel = "a second cancel is harmless"
    /// `request` called from inside `receive(_:)` is served: nothing is lost or reordered.
    case reentrantRequest = "synchronous re-entrant requests are served"

    public var description: String { rawValue }
}

/// One broken rule: where, and what happened, in one sentence.
public struct ContractViolation: Sendable, Hashable, CustomStringConvertible {
    public var rule: ContractRule
    public var frame: Int
    public var sentence: String
    public init(rule: ContractRule, frame: Int, sentence: String) {
        self.rule = rule
        self.frame = frame
        self.sentence = sentence
    }
    public var description: String { "frame \(frame): \(rule) — \(sentence)" }
}

/// The failure of an upstream built by `PublisherContract.check(operator:)`.
public struct ContractError: Error, Hashable, Sendable {
    public init() {}
}

/// Checks a publisher or an operator against Combine's contract: each `ContractRule` in a
/// scenario of its own, on a fresh `TestScheduler` (so `make` is called once per scenario).
/// Broken rules are recorded as one failure at the call (and returned).
public enum PublisherContract {
    /// The upstream of an operator under check: `1…9` one every two frames, then `|`, played
    /// cold (each subscription from its own frame; values wait for demand).
    public static let upstreamMarbles = "-1-2-3-4-5-6-7-8-9-|"

    /// Checks the publisher `make` builds (its own sources on the given scheduler), running each
    /// scenario until the clock is idle or `horizon` frames have passed.
    @discardableResult
    public static func check<P: Publisher>(
        _ name: String = "publisher", horizon: Int = 1_000, _ make: @escaping (TestScheduler) -> P,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> [ContractViolation] {
        let violations = run(horizon: horizon) { scheduler in (make(scheduler), nil) }
        return report(violations, of: name, at: MarbleSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Checks the operator `apply` builds over a cold test source (`upstreamMarbles`), which also
    /// lets it check that a cancellation ends every subscription to that upstream.
    @discardableResult
    public static func check<P: Publisher>(
        operator name: String, horizon: Int = 1_000, _ apply: @escaping (TestPublisher<Int, ContractError>, TestScheduler) -> P,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> [ContractViolation] {
        let violations = run(horizon: horizon) { scheduler in
            let upstream = scheduler.cold(upstreamMarbles, values: [Character: Int](), error: ContractError(), name: "upstream")
            return (apply(upstream, scheduler), upstream.subscriptions)
        }
        return report(violations, of: name, at: MarbleSourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    private static func report(_ violations: [ContractViolation], of name: String, at location: MarbleSourceLocation) -> [ContractViolation] {
        guard !violations.isEmpty else { return [] }
        let lines = violations.map { "  " + $0.description }
        TestLibrary.record(MarbleFailure(message: (["\(name) breaks the publisher contract:"] + lines).joined(separator: "\n"), location: location))
        return violations
    }

    /// The scenarios, each on its own scheduler; violations sorted by rule, then frame.
    private static func run<P: Publisher>(horizon: Int, _ make: (TestScheduler) -> (P, TestSubscriptions?)) -> [ContractViolation] {
        var violations: [ContractViolation] = []
        let cancelFrame = 5

        // A scenario: a fresh scheduler and publisher, a contract subscriber, a script, a run,
        // then `inspect` of what it recorded. A stream still open at the horizon, and work still
        // queued on the clock, hold the scheduler in cycles (a link holds its scheduler and its
        // subscriber, the subscriber its subscription, the clock its actions): both let go after.
        func scenario(_ script: (ContractSubscriber<P.Output, P.Failure>, VirtualTimeScheduler) -> Void,
                      inspect: (ContractSubscriber<P.Output, P.Failure>, TestSubscriptions?) -> Void = { _, _ in }) {
            let scheduler = TestScheduler()
            let (publisher, upstream) = make(scheduler)
            let subscriber = ContractSubscriber<P.Output, P.Failure>(clock: scheduler.clock)
            script(subscriber, scheduler.clock)
            scheduler.clock.schedule(at: 0) { publisher.subscribe(subscriber) }
            scheduler.run(until: horizon)
            violations += subscriber.violations
            inspect(subscriber, upstream)
            subscriber.release()
            scheduler.clock.discardPendingWork()
        }

        // Demand: one value at a time, a new request every third frame.
        scenario { subscriber, clock in
            subscriber.initialDemand = .max(1)
            for frame in stride(from: 3, through: 60, by: 3) { clock.schedule(at: frame) { subscriber.request(.max(1)) } }
        }
        // Unlimited demand: the reference for what the publisher sends.
        var unlimitedFrames: [VirtualTime] = []
        scenario({ subscriber, _ in subscriber.initialDemand = .unlimited }, inspect: { subscriber, _ in unlimitedFrames = subscriber.valueFrames })
        // Cancellation in the middle of the stream.
        scenario({ subscriber, clock in
            subscriber.initialDemand = .unlimited
            clock.schedule(at: cancelFrame) { subscriber.cancel(rule: .cancellation) }
        }, inspect: { cancelled, upstream in
            guard let upstream, cancelled.cancelledAt != nil else { return }
            for span in upstream.spans where span.end.map({ $0 > cancelFrame }) ?? true {
                violations.append(ContractViolation(rule: .cancellation, frame: cancelFrame,
                                                    sentence: span.end.map { "the upstream subscription begun at frame \(span.start) ended only at frame \($0)" }
                                                        ?? "the upstream subscription begun at frame \(span.start) was never cancelled"))
            }
        })
        // request(.none) before any demand, then real demand later.
        scenario { subscriber, clock in
            subscriber.initialDemand = .none
            clock.schedule(at: 1) { subscriber.request(.none, rule: .requestNone) }
            clock.schedule(at: 2) { subscriber.request(.none, rule: .requestNone) }
            clock.schedule(at: 8) { subscriber.request(.unlimited) }
        }
        // Two cancels in a row, and a third later.
        scenario { subscriber, clock in
            subscriber.initialDemand = .unlimited
            clock.schedule(at: cancelFrame) {
                subscriber.cancel(rule: .doubleCancel)
                subscriber.cancel(rule: .doubleCancel)
            }
            clock.schedule(at: cancelFrame + 1) { subscriber.cancel(rule: .doubleCancel) }
        }
        // One value at a time, each asked for from inside receive(_:).
        var reentrantFrames: [VirtualTime] = []
        scenario({ subscriber, _ in
            subscriber.initialDemand = .max(1)
            subscriber.requestsOnReceive = true
        }, inspect: { subscriber, _ in reentrantFrames = subscriber.valueFrames })
        if reentrantFrames.count < unlimitedFrames.count {
            let missing = unlimitedFrames[reentrantFrames.count]
            violations.append(ContractViolation(rule: .reentrantRequest, frame: missing,
                                                sentence: "asking for one more value inside receive(_:) got \(reentrantFrames.count) values, asking for .unlimited got \(unlimitedFrames.count); the first one missing was due here"))
        }
        return violations.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element, rhs.element)
            let order = ContractRule.allCases
            let (ra, rb) = (order.firstIndex(of: a.rule) ?? 0, order.firstIndex(of: b.rule) ?? 0)
            return ra != rb ? ra < rb : (a.frame, lhs.offset) < (b.frame, rhs.offset)
        }.map(\.element)
    }
}

/// The subscriber of a contract scenario: requests and cancels as scripted, and notes every
/// event that breaks a rule, with its frame.
final class ContractSubscriber<Input, Failure: Error>: Subscriber {
    let clock: VirtualTimeScheduler
    var initialDemand: Subscribers.Demand = .unlimited
    /// Asks for one more value from inside `receive(_:)` (instead of returning demand).
    var requestsOnReceive = false
    private(set) var violations: [ContractViolation] = []
    private(set) var valueFrames: [VirtualTime] = []
    private(set) var cancelledAt: VirtualTime?
    private var subscription: (any Subscription)?
    private var outstanding: Subscribers.Demand = .none
    private var completedAt: VirtualTime?
    /// The rule a scripted step exercises, blamed for what goes wrong after it.
    private var rule: ContractRule = .demand

    init(clock: VirtualTimeScheduler) { self.clock = clock }

    func receive(subscription: any Subscription) {
        guard self.subscription == nil else {
            subscription.cancel()
            return
        }
        self.subscription = subscription
        if initialDemand > 0 { request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let frame = clock.currentFrame
        if let completedAt {
            violate(.afterCompletion, "a value arrived after the completion at frame \(completedAt)")
        } else if let cancelledAt {
            violate(rule, "a value arrived after cancel() at frame \(cancelledAt)")
        } else if outstanding == .none {
            violate(rule == .requestNone ? .requestNone : .demand,
                    rule == .requestNone ? "a value arrived after request(.none), with no demand" : "a value arrived beyond the demand (none was outstanding)")
        } else {
            outstanding -= 1
        }
        valueFrames.append(frame)
        if requestsOnReceive, cancelledAt == nil, completedAt == nil { request(.max(1)) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        if let completedAt {
            violate(.afterCompletion, "a second completion arrived (the first was at frame \(completedAt))")
            return
        }
        completedAt = clock.currentFrame
    }

    func request(_ demand: Subscribers.Demand, rule: ContractRule? = nil) {
        guard let subscription, cancelledAt == nil else { return }
        if let rule { self.rule = rule }
        outstanding += demand
        subscription.request(demand)
    }

    func cancel(rule: ContractRule) {
        self.rule = rule
        if cancelledAt == nil { cancelledAt = clock.currentFrame }
        subscription?.cancel()
    }

    /// Ends the scenario: cancels a subscription still open (nothing is checked any more) and
    /// lets go of it, which breaks the cycle between the two.
    func release() {
        let subscription = self.subscription
        self.subscription = nil
        subscription?.cancel()
    }

    private func violate(_ rule: ContractRule, _ sentence: String) {
        violations.append(ContractViolation(rule: rule, frame: clock.currentFrame, sentence: sentence))
    }
}
