import Reactive

/// Why a run that a limit stopped is an error, in words: which limit, where the run was, and
/// what kept the scheduler busy. A run that never settles cannot pass: its checks saw only part
/// of what the pipeline does, cut at an arbitrary point, so neither a pass nor a list of
/// differences would be a result (and `--update` would write a longer line every time).
struct RunStop {
    var stop: SchedulerStop
    /// The clock when the run stopped.
    var frame: Int
    /// The last frame of the test's longest line.
    var lastLineFrame: Int
    /// Actions run after the longest line ended, if the run got that far.
    var settleActions: Int?
    /// The run's action budget and how it was computed.
    var budget: (base: Int, perEvent: Int, events: Int)
    var busy: BusyNode?
    /// Named streams with a subscription still open when the run stopped.
    var subscribed: [String] = []
    /// The frame of the earliest work still queued (past the clock's limit, for a time limit).
    var pendingFrame: Int? = nil

    var message: String {
        switch stop {
        case .instantActionLimit(let limit, let at):
            return "the run never settles: more than \(limit) actions ran at frame \(at)" + culprit()
        case .actionLimit(let limit, _) where settleActions != nil && limit < total:
            let actions = settleActions ?? 0
            guard let busy else {
                return "the run never settles: work was still scheduled \(actions) actions after the test's longest line ended at frame \(lastLineFrame) "
                    + "(none of it reached a named stream or an operator\(stillSubscribed)), so the run was stopped"
            }
            return "the run never settles: \(Self.quoted(busy.label)) kept the scheduler busy after the test's longest line ended at frame \(lastLineFrame) "
                + "(\(Self.describe(busy)) in \(actions) actions), so the run was stopped"
        case .actionLimit(let limit, _):
            return "the run passed its limit of \(limit) actions (\(budget.base) + \(budget.perEvent) × the \(budget.events) "
                + "event\(budget.events == 1 ? "" : "s") the test's lines write)" + culprit()
        case .timeLimit(let limit):
            let due = pendingFrame.map { "for frame \($0)" } ?? "later"
            return "the run stopped: work is scheduled \(due), past frame \(limit), where virtual time ends" + stillSubscribed
        case .aborted:
            return "the run stopped: \(stop)"
        }
    }

    var hint: String {
        switch stop {
        case .instantActionLimit:
            return "a pipeline that resubscribes or reschedules without end at one frame (e.g. retry() on a source that fails at once) never settles"
        case .actionLimit(let limit, _) where settleActions != nil && limit < total:
            return "end what keeps going within the test: finish its source with `|`, cancel with `!` on a subscribe or connect line, or take prefix(_:)"
        case .actionLimit:
            return "a run may do work in proportion to what the test writes: a timer every frame across a long line is the usual cause; slow it, or end it sooner"
        case .timeLimit:
            return "delays, timeouts and timer intervals add up: shorten those of this pipeline"
        case .aborted:
            return "a pipeline that resubscribes or reschedules without end never settles"
        }
    }

    private var total: Int {
        let (perEvents, overflow) = budget.events.multipliedReportingOverflow(by: budget.perEvent)
        let (sum, overflowAgain) = budget.base.addingReportingOverflow(perEvents)
        return overflow || overflowAgain ? .max : sum
    }

    /// "; `f` kept the scheduler busy, subscribed again and again", from the last events logged.
    private func culprit() -> String {
        guard let busy else { return stillSubscribed }
        return "; \(Self.quoted(busy.label)) kept the scheduler busy" + (busy.subscriptions > busy.values ? ", subscribed again and again" : "")
    }

    /// "; still subscribed: `a`, `b`" (empty when nothing is).
    private var stillSubscribed: String {
        subscribed.isEmpty ? "" : "; still subscribed: " + subscribed.map { Self.quoted($0) }.joined(separator: ", ")
    }

    /// "1000 values", "subscribed 33333 times", "12 events".
    static func describe(_ busy: BusyNode) -> String {
        if busy.values > 0 { return "\(busy.values) value\(busy.values == 1 ? "" : "s")" }
        if busy.subscriptions > 0 { return "subscribed \(busy.subscriptions) time\(busy.subscriptions == 1 ? "" : "s")" }
        return "\(busy.events) event\(busy.events == 1 ? "" : "s")"
    }

    /// A stream's name or an operator's text in backticks, on one line and at most 60 characters.
    static func quoted(_ label: String) -> String {
        var text = label.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: " ") }.joined(separator: " ")
        if text.count > 60 { text = String(text.prefix(59)) + "…" }
        return "`\(text)`"
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
