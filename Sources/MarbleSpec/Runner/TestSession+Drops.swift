import Reactive
import MarbleNotation
import MarbleSyntax

/// Dropped values: the values a subject sent or a `share()` broadcast that an open subscription did not get (no demand), noted as they are sent, for the diagrams.
extension TestSession {
    /// The logs whose subscriptions reach the subject `name` directly: its own, the inner
    /// recorders of the streams that use it in closures, and `let other = name` aliases.
    func logsSeeing(_ name: String) -> [SubscriptionLog] {
        var logs = streams[name].map { [$0.log] } ?? []
        for uses in innerLogs.values { logs += uses.filter { $0.source == name }.map(\.log) }
        for stream in streams.values where stream.report.kind == .derived && stream.report.expression == name { logs.append(stream.log) }
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
                let delivered = log.deliveries[index]
                send()
                if log.deliveries[index] == delivered, log.spans[index].end == nil { noteDrop(of: value, log, index) }
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

    /// Subscription `index` of `log` was offered `value` now and did not get it.
    func noteDrop(of value: Value, _ log: SubscriptionLog, _ index: Int) {
        dropped[ObjectIdentifier(log), default: [:]][index, default: []].append(TimedEvent(scheduler.currentFrame, .value(value)))
    }

    /// What subscription `index` of `log` lost, as marble tokens.
    func droppedValues(_ log: SubscriptionLog, _ index: Int) -> [RenderedEvent] {
        dropped[ObjectIdentifier(log)]?[index].map { Comparison.render($0, table) } ?? []
    }
}
