import Reactive
import MarbleNotation
import MarbleSyntax

/// Dropped values: the values a subject sent or a `share()`/multicast broadcast that an open subscription did not get (no demand), and those a CurrentValueSubject held for one until a newer value replaced them, noted as they are sent, for the diagrams.
extension TestSession {
    /// The logs whose subscriptions reach the subject `name` directly: its own, the inner
    /// recorders of the streams that use it in closures, and `let other = name` aliases.
    func logsSeeing(_ name: String) -> [SubscriptionLog] {
        var logs = streams[name].map { [$0.log] } ?? []
        // In the order the streams were defined, the same on every run.
        for user in streamOrder {
            logs += (innerLogs[user] ?? []).filter { $0.source == name }.map(\.log)
        }
        for user in streamOrder {
            guard let stream = streams[user], stream.report.kind == .derived, stream.report.expression == name else { continue }
            logs.append(stream.log)
        }
        return logs
    }

    /// Sends a value with `send` and notes it as dropped for every subscription active before
    /// and after the send that did not deliver it: a PassthroughSubject offers a value to each
    /// of its subscribers at once, and one without demand loses it. (A subscription that began
    /// during the send was not offered it; one that ended during it was cancelled, not starved.)
    func noteDrops(of value: Value, in logs: [SubscriptionLog], send: () -> Void) {
        // The common shapes first, without the buffer (callgrind: the buffer's accesses were
        // most of this function's cost on a hot line read by one subscriber): one subscription
        // watching, or none.
        if logs.count == 1, let log = logs.first {
            let active = log.active
            if active.isEmpty { return send() }
            if active.count == 1, let index = active.first {
                let delivered = log.deliveries(of: index)
                send()
                if log.deliveries(of: index) == delivered, !log.hasEnded(index) { noteDrop(of: value, log, index) }
                return
            }
        }
        // One buffer for every value sent: a long hot line costs no allocation per value. A send
        // can cause another (a subject feeding a share): each uses the part of it it appended.
        let base = offered.count
        for (position, log) in logs.enumerated() {
            for index in log.active { offered.append((position, index, log.deliveries[index])) }
        }
        send()
        for item in offered[base...] {
            let log = logs[item.log]
            guard log.deliveries[item.index] == item.delivered, log.spans[item.index].end == nil else { continue }
            noteDrop(of: value, log, item.index)
        }
        offered.removeSubrange(base...)
    }

    /// Subscription `index` of `log` was offered `value` at `frame` (now, unless held) and did not get it.
    func noteDrop(of value: Value, _ log: SubscriptionLog, _ index: Int, at frame: Int? = nil, _ loss: Loss = .noDemand) {
        dropped[ObjectIdentifier(log), default: [:]][index, default: []].append((TimedEvent(frame ?? scheduler.currentFrame, .value(value)), loss))
    }

    /// Sends `value` into a CurrentValueSubject whose value is `current`. Such a subject does not
    /// drop a value a subscriber has no demand for: it holds it and delivers it at the next request,
    /// unless a newer value replaces it first (OpenCombine CurrentValueSubjectTests, "values
    /// conflate"): that replaced value is noted as dropped, at the frame it was offered. A
    /// subscription nothing was sent to since it began was offered `current` as it began.
    func noteConflation(of value: Value, replacing current: Value, in logs: [SubscriptionLog], send: () -> Void) {
        let before = forEachHeld(current, in: logs) { log, index, held in
            noteDrop(of: held.value, log, index, at: held.frame, .replaced(by: value, frame: scheduler.currentFrame))
        }
        send()
        for (log, index, delivered) in before where log.spans[index].end == nil {
            held[ObjectIdentifier(log), default: [:]][index] = Held(value: value, frame: scheduler.currentFrame, delivered: delivered,
                                                                    taken: log.deliveries[index] > delivered)
        }
    }

    /// A CurrentValueSubject whose value is `current` is about to complete: what it still holds
    /// for a subscriber is lost (the completion is delivered without demand, the value is not).
    func noteConflationEnds(holding current: Value, in logs: [SubscriptionLog]) {
        _ = forEachHeld(current, in: logs) { log, index, held in
            noteDrop(of: held.value, log, index, at: held.frame, .completed(frame: scheduler.currentFrame))
        }
        for log in logs { held[ObjectIdentifier(log)] = nil }
    }

    /// Calls `body` for each active subscription of `logs` for which the subject still holds a
    /// value (offered, never delivered); returns every active subscription with its deliveries.
    private func forEachHeld(_ current: Value, in logs: [SubscriptionLog], _ body: (SubscriptionLog, Int, Held) -> Void)
        -> [(log: SubscriptionLog, index: Int, delivered: Int)] {
        var active: [(log: SubscriptionLog, index: Int, delivered: Int)] = []
        for log in logs {
            for index in log.active {
                let delivered = log.deliveries[index]
                let offer = held[ObjectIdentifier(log)]?[index] ?? Held(value: current, frame: log.spans[index].start, delivered: 0, taken: false)
                if !offer.taken, delivered == offer.delivered { body(log, index, offer) }
                active.append((log, index, delivered))
            }
        }
        return active
    }

    /// What subscription `index` of `log` lost, as marble tokens.
    func droppedValues(_ log: SubscriptionLog, _ index: Int) -> [RenderedEvent] {
        Comparison.render((dropped[ObjectIdentifier(log)]?[index] ?? []).map(\.event), table)
    }

    /// Why subscription `index` of `log` lost what it did, where not for plain lack of demand.
    func dropReasons(_ log: SubscriptionLog, _ index: Int) -> [RenderedEvent: DropReason] {
        var reasons: [RenderedEvent: DropReason] = [:]
        for (event, loss) in dropped[ObjectIdentifier(log)]?[index] ?? [] {
            guard let token = Comparison.render([event], table).first else { continue }
            switch loss {
            case .noDemand: continue
            case .replaced(let value, let frame):
                guard case .value(let newer)? = Comparison.render([TimedEvent(frame, .value(value))], table).first?.event else { continue }
                reasons[token] = .replaced(by: newer, frame: frame)
            case .completed(let frame): reasons[token] = .completed(frame: frame)
            }
        }
        return reasons
    }
}

/// Why a subscription lost a value (rendered as a `DropReason` once the run's value names are known).
enum Loss {
    case noDemand
    case replaced(by: Value, frame: Int)
    case completed(frame: Int)
}

/// The value a CurrentValueSubject last offered one subscription: when, the subscription's
/// deliveries just before, and whether it took it at once. Until its deliveries grow, it still
/// holds it.
struct Held {
    var value: Value
    var frame: Int
    var delivered: Int
    var taken: Bool
}
