import Foundation
import MarbleDiff
import MarbleNotation
import MarbleSpec
import MarbleSyntax

/// `marbles trace FILE [--test NAME]`: runs the tests of a file with every named stream and
/// every operator traced, and prints per test
///
/// 1. a timeline per stream and operator (per subscription when there were several), aligned
///    by frame: `^` where it was subscribed, its values, `|` or `#`, and `!` where its
///    subscriber cancelled — the line that goes quiet first is where a pipeline went silent;
/// 2. the event log in the order things happened, as `print()` would write it at each of them:
///    subscriptions, requests with their demand, values, completions, cancels, and the lines
///    of the test's own `print` operators in their places.
struct TraceCommand {
    var arguments: TraceArguments
    var printer: Printer
    var style: Style

    /// Labels longer than this are cut in the middle.
    static let labelLimit = 44

    func execute() -> Int32 {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: arguments.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            printer.line("\(arguments.path): " + style.red("error:") + " " + (isDirectory.boolValue ? "is a folder; trace takes one .marble file" : "no such file"))
            return CLI.ExitCode.usage
        }
        var options = RunOptions()
        options.traceEvents = true
        if let wanted = arguments.test {
            switch choose(wanted) {
            case .success(let name): options.selectedTests = [name]
            case .failure(let refusal):
                printer.line("\(arguments.path): " + style.red("error:") + " " + refusal.message)
                return CLI.ExitCode.usage
            }
        }
        let report = MarbleRunner.run(path: arguments.path, options: options)
        // The file's own mistakes, then each test: its trace, or (it did not run) its mistakes.
        report.diagnostics.flatMap { SourceExcerpt.lines($0, indent: 0, style: style) }.forEach(printer.line)
        for (index, test) in report.tests.enumerated() {
            if index > 0 || report.isError { printer.line() }
            lines(for: test, path: report.path).forEach(printer.line)
        }
        return report.allDiagnostics.isEmpty ? CLI.ExitCode.success : CLI.ExitCode.usage
    }

    struct Refusal: Error {
        var message: String
    }

    /// The test `--test` names: the one with exactly that name, else the only one whose name
    /// contains it.
    private func choose(_ wanted: String) -> Result<String, Refusal> {
        let names = RunCommand.survey(arguments.path).allTests.map(\.name)
        if names.contains(wanted) { return .success(wanted) }
        let matching = names.filter { $0.localizedCaseInsensitiveContains(wanted) }
        if matching.count == 1 { return .success(matching[0]) }
        if matching.isEmpty {
            let hint = Suggestions.nearest(to: wanted, in: names).map { "; did you mean \"\($0)\"?" } ?? ""
            return .failure(Refusal(message: "no test named \"\(wanted)\"" + hint))
        }
        return .failure(Refusal(message: "\"\(wanted)\" matches \(matching.count) tests: " + matching.map { "\"\($0)\"" }.joined(separator: ", ")))
    }

    func lines(for test: TestReport, path: String) -> [String] {
        let outcome: String
        switch test.outcome {
        case .passed: outcome = style.green("✓ passed")
        case .failed: outcome = style.red("✗ failed")
        case .error: outcome = style.red("✗ stopped with an error")
        }
        var output = [style.bold(TestFilter.subject(path: path, test: test.name)) + "   " + outcome, ""]
        guard test.diagnostics.isEmpty else {
            // It did not run: nothing to trace.
            return output + test.diagnostics.flatMap { SourceExcerpt.lines($0, indent: 2, style: style) }
        }
        output += timelines(test)
        output.append("")
        output += log(test)
        if let error = test.error {
            output.append("")
            output += SourceExcerpt.lines(error, indent: 2, style: style)
        }
        return output
    }

    /// Which subscriptions each node had, to number them only when there were several.
    private func subscriptionCounts(_ events: [TraceEvent]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for event in events where event.nodeKind != .output {
            counts[event.node] = max(counts[event.node] ?? 0, event.subscription)
        }
        return counts
    }

    private func label(_ event: TraceEvent, counts: [String: Int]) -> String {
        let name = Self.shorten(event.node)
        return (counts[event.node] ?? 0) > 1 ? "\(name) #\(event.subscription)" : name
    }

    static func shorten(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        guard flat.count > labelLimit else { return flat }
        let half = (labelLimit - 1) / 2
        return String(flat.prefix(half)) + "…" + String(flat.suffix(labelLimit - 1 - half))
    }

    /// A long `{literal}` shortened for a timeline (the log shows it whole): `{<publishe…}`.
    static func abbreviate(_ token: String) -> String {
        token.count > 12 && token.hasPrefix("{") ? String(token.prefix(10)) + "…}" : token
    }

    /// One aligned timeline per node and subscription, in the order they were first subscribed.
    private func timelines(_ test: TestReport) -> [String] {
        let counts = subscriptionCounts(test.events)
        var order: [String] = []
        var events: [String: [RenderedEvent]] = [:]
        for event in test.events where event.nodeKind != .output {
            let key = label(event, counts: counts)
            if events[key] == nil {
                order.append(key)
                events[key] = []
            }
            let printable: PrintableEvent?
            switch event.kind {
            case .subscription: printable = .subscribe
            case .value(let token): printable = .value(Self.abbreviate(token))
            case .finished: printable = .finished
            case .failure(let error): printable = .failure(error)
            case .cancel: printable = .cancel
            case .request, .printed: printable = nil
            }
            if let printable { events[key]?.append(RenderedEvent(frame: event.frame, event: printable)) }
        }
        guard !order.isEmpty else { return ["  (nothing was subscribed)"] }
        let rows = order.map { DiagramRow.aligned(label: $0, events: events[$0] ?? []) }
        return TextDiagramLayout(rows: rows, differences: [], notes: [], indent: 2).lines(style: style)
    }

    /// Every event, one per line: frame, node, what happened.
    private func log(_ test: TestReport) -> [String] {
        let counts = subscriptionCounts(test.events)
        let entries = test.events.map { event -> (frame: String, node: String, text: String) in
            let node = event.nodeKind == .output ? "(print)" : label(event, counts: counts)
            return (String(event.frame), node, Self.describe(event.kind))
        }
        let frameWidth = max("frame".count, entries.map(\.frame.count).max() ?? 0)
        let nodeWidth = max("stream or operator".count, entries.map(\.node.count).max() ?? 0)
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return right ? padding + text : text + padding
        }
        var output = ["  " + style.dim(pad("frame", frameWidth, right: true) + "  " + pad("stream or operator", nodeWidth) + "  event")]
        for entry in entries {
            output.append("  " + style.dim(pad(entry.frame, frameWidth, right: true)) + "  " + pad(entry.node, nodeWidth) + "  " + entry.text)
        }
        return output
    }

    /// The words Combine's `print()` uses.
    static func describe(_ kind: TraceEvent.Kind) -> String {
        switch kind {
        case .subscription: return "receive subscription"
        case .request(let demand, let synchronous): return "request \(demand)" + (synchronous ? " (synchronous)" : "")
        case .value(let token): return "receive value: (\(token))"
        case .finished: return "receive finished"
        case .failure(let error): return "receive error" + (error.map { ": (\($0))" } ?? "")
        case .cancel: return "receive cancel"
        case .printed(let text): return text
        }
    }
}
