import MarbleTesting
import Testing

/// Publishers that each break one rule, on purpose: the contract check must name the rule,
/// the frame and what happened.
private struct Broken: Publisher {
    typealias Output = Int
    typealias Failure = Never
    enum Flaw { case ignoresDemand, sendsAfterCompletion, ignoresCancel, dropsReentrantRequests, treatsNoneAsUnlimited, sendsOnSecondCancel, none }
    let flaw: Flaw
    let clock: VirtualTimeScheduler

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let subscription = Emitter(flaw: flaw, clock: clock, downstream: subscriber)
        subscriber.receive(subscription: subscription)
        subscription.start()
    }

    /// Sends 1…4 at frames 2, 4, 6, 8 when asked, then finishes at frame 10.
    final class Emitter<Downstream: Subscriber>: Subscription where Downstream.Input == Int, Downstream.Failure == Never {
        let flaw: Flaw
        let clock: VirtualTimeScheduler
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var pending: [Int] = []
        var sending = false
        var cancels = 0
        var finished = false
        var cancelled = false

        init(flaw: Flaw, clock: VirtualTimeScheduler, downstream: Downstream) {
            self.flaw = flaw
            self.clock = clock
            self.downstream = downstream
        }

        func start() {
            for value in 1...4 { clock.schedule(at: 2 * value) { [self] in pending.append(value); drain() } }
            clock.schedule(at: 10) { [self] in
                finished = true
                drain()
            }
        }

        func drain() {
            guard !sending, !cancelled || flaw == .ignoresCancel, let downstream else { return }
            sending = true
            defer { sending = false }
            while !pending.isEmpty, demand > 0 || flaw == .ignoresDemand {
                if demand > 0 { demand -= 1 }
                demand += downstream.receive(pending.removeFirst())
            }
            if finished, pending.isEmpty {
                downstream.receive(completion: .finished)
                if flaw == .sendsAfterCompletion { _ = downstream.receive(99) }
                if flaw != .ignoresCancel { self.downstream = nil }
            }
        }

        func request(_ demand: Subscribers.Demand) {
            if flaw == .dropsReentrantRequests, sending { return }
            self.demand += (flaw == .treatsNoneAsUnlimited && demand == .none) ? .unlimited : demand
            drain()
        }

        func cancel() {
            cancels += 1
            cancelled = true
            if flaw == .sendsOnSecondCancel, cancels == 2 { _ = downstream?.receive(42) }
            if flaw != .ignoresCancel, flaw != .sendsOnSecondCancel || cancels >= 2 { downstream = nil }
        }
    }
}

@Suite struct ContractTests {
    private func check(_ flaw: Broken.Flaw) -> (violations: [ContractViolation], issues: [Issue]) {
        var violations: [ContractViolation] = []
        let issues = recordedIssues {
            violations = PublisherContract.check("broken") { scheduler in Broken(flaw: flaw, clock: scheduler.clock) }
        }
        return (violations, issues)
    }

    @Test func aPublisherThatKeepsTheContractPasses() {
        let (violations, issues) = check(.none)
        #expect(violations.isEmpty)
        #expect(issues.isEmpty)
    }

    @Test func aValueBeyondDemandIsReportedWithItsFrame() throws {
        let (violations, issues) = check(.ignoresDemand)
        #expect(violations.first == ContractViolation(rule: .demand, frame: 8, sentence: "a value arrived beyond the demand (none was outstanding)"))
        let issue = try #require(issues.first)
        #expect(issue.message.hasPrefix("broken breaks the publisher contract:\n  frame 8: no value beyond demand — a value arrived beyond the demand (none was outstanding)"))
        #expect(issues.count == 1)
    }

    @Test func aValueAfterTheCompletionIsReported() {
        let (violations, _) = check(.sendsAfterCompletion)
        #expect(violations.contains(ContractViolation(rule: .afterCompletion, frame: 10, sentence: "a value arrived after the completion at frame 10")))
        #expect(violations.allSatisfy { $0.rule == .afterCompletion })
    }

    @Test func deliveryAfterCancelIsReported() {
        let (violations, _) = check(.ignoresCancel)
        #expect(violations.contains(ContractViolation(rule: .cancellation, frame: 6, sentence: "a value arrived after cancel() at frame 5")))
        #expect(violations.contains(ContractViolation(rule: .doubleCancel, frame: 6, sentence: "a value arrived after cancel() at frame 5")))
    }

    @Test func dropppedReentrantRequestsAreReported() {
        let (violations, _) = check(.dropsReentrantRequests)
        #expect(violations == [ContractViolation(rule: .reentrantRequest, frame: 4,
                                                  sentence: "asking for one more value inside receive(_:) got 1 values, asking for .unlimited got 4; the first one missing was due here")])
    }

    @Test func requestNoneThatAsksForValuesIsReported() {
        let (violations, _) = check(.treatsNoneAsUnlimited)
        #expect(violations == [ContractViolation(rule: .requestNone, frame: 2, sentence: "a value arrived after request(.none), with no demand"),
                               ContractViolation(rule: .requestNone, frame: 4, sentence: "a value arrived after request(.none), with no demand"),
                               ContractViolation(rule: .requestNone, frame: 6, sentence: "a value arrived after request(.none), with no demand")])
    }

    @Test func aValueOnTheSecondCancelIsReported() {
        let (violations, _) = check(.sendsOnSecondCancel)
        #expect(violations == [ContractViolation(rule: .doubleCancel, frame: 5, sentence: "a value arrived after cancel() at frame 5")])
    }

    @Test func anOperatorMustCancelItsUpstream() {
        // prefix(untilOutputFrom:) on a subject that never sends keeps the upstream; a
        // handleEvents that swallows the cancel is the simplest way to break the rule.
        var violations: [ContractViolation] = []
        let issues = recordedIssues {
            violations = PublisherContract.check(operator: "swallowsCancel") { upstream, _ in LeakyCancel(upstream: upstream) }
        }
        #expect(violations.contains(ContractViolation(rule: .cancellation, frame: 5, sentence: "the upstream subscription begun at frame 0 ended only at frame 19")))
        #expect(issues.count == 1)
    }

    @Test func engineOperatorsKeepTheContractOverAColdUpstream() {
        #expect(PublisherContract.check(operator: "map") { upstream, _ in upstream.map { $0 * 2 } }.isEmpty)
    }

    /// A stream still open at the horizon, and work queued past it, are let go once a scenario
    /// is checked: the subscriber and its subscription hold each other, the clock its actions.
    @Test func aScenarioLetsGoOfAStreamStillOpenAtTheHorizon() {
        let made = Made()
        #expect(PublisherContract.check("endless", horizon: 100) { scheduler in Endless(clock: scheduler.clock, made: made) }.isEmpty)
        #expect(made.subscriptions.count == 6)
        #expect(made.subscriptions.allSatisfy { $0.object == nil })
    }
}

/// What `Endless` made, held weakly.
private final class Made {
    struct Weak { weak var object: AnyObject? }
    var subscriptions: [Weak] = []
}

/// Never sends, never finishes; each subscription also queues work past the horizon.
private struct Endless: Publisher {
    typealias Output = Int
    typealias Failure = Never
    let clock: VirtualTimeScheduler
    let made: Made

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let link = Link(downstream: subscriber)
        made.subscriptions.append(Made.Weak(object: link))
        subscriber.receive(subscription: link)
        clock.schedule(at: 1_000) { link.request(.none) }
    }

    final class Link<Downstream: Subscriber>: Subscription {
        var downstream: Downstream?
        init(downstream: Downstream) { self.downstream = downstream }
        func request(_ demand: Subscribers.Demand) {}
        func cancel() { downstream = nil }
    }
}

/// Forwards everything but never passes a cancel upstream (and stops forwarding itself).
private struct LeakyCancel<Upstream: Publisher>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure
    let upstream: Upstream
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.receive(subscriber: Link(downstream: subscriber))
    }

    final class Link<Downstream: Subscriber>: Subscriber, Subscription {
        var downstream: Downstream?
        var upstream: (any Subscription)?
        init(downstream: Downstream) { self.downstream = downstream }
        func receive(subscription: any Subscription) {
            upstream = subscription
            downstream?.receive(subscription: self)
        }
        func receive(_ input: Downstream.Input) -> Subscribers.Demand { downstream?.receive(input) ?? .none }
        func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            // The upstream ended: let go of it (the two hold each other until one lets go).
            upstream = nil
            downstream?.receive(completion: completion)
        }
        func request(_ demand: Subscribers.Demand) { upstream?.request(demand) }
        func cancel() { downstream = nil }
    }
}
