import AtomicFiles
import Foundation
import MarbleDiagram
import MarbleDiff
import MarbleNotation
import MarbleRewrite
import MarbleSpec

/// `marbles eval`: runs one expression over sources given on the command line, without a file,
/// and prints the sources and the result as aligned marbles (and, with `--svg FILE`, draws the
/// test as an SVG marble diagram: sources, operator box, result).
///
/// The command line becomes a one-test `.marble` text that the ordinary runner runs (an error
/// is shown in the argument it came from: `expression:1:9`, `--hot a:1:5`): `--hot a=-a-b-|` is `hot a -a-b-|`, the expression is
/// `let result = …`, and the result is subscribed at frame 0 (or as `--subscribe` says). The
/// run is `marbles run`'s: it goes on until nothing is left to do, so what a delay or a debounce
/// holds back shows; `--until FRAMES` cancels the subscription at that frame (a `!` on the
/// subscribe line), which is how a pipeline that never settles — a `Timer` — is explored.
struct EvalCommand {
    var arguments: EvalArguments
    var printer: Printer
    var style: Style

    static let path = "eval"

    func execute() -> Int32 {
        let program = Self.source(for: arguments)
        let report = MarbleRunner.run(source: program.text, path: Self.path)
        if !report.allDiagnostics.isEmpty {
            // A mistake on a line of the test's own (the result's `subscribe` line) follows from
            // one in an argument (`cannot find stream 'result'`): it is shown only alone.
            let placed = report.allDiagnostics.filter { program.relocate($0) != nil }
            for diagnostic in placed.isEmpty ? report.allDiagnostics : placed {
                lines(for: diagnostic, program: program).forEach(printer.line)
            }
            return CLI.ExitCode.usage
        }
        guard let test = report.tests.first else { return CLI.ExitCode.usage }
        let status = test.error == nil ? CLI.ExitCode.success : CLI.ExitCode.failure
        if let file = arguments.svg {
            let svg = MarbleDiagram.svg(for: test, path: Self.path, values: test.namedValues)
            if file == "-" {
                printer.sink.standardOutput(svg)
                return status
            }
            do {
                try AtomicFile.write(Data(svg.utf8), to: file, nonRegular: .writeInPlace)
            } catch {
                printer.error("marbles: error: \(error)")
                return CLI.ExitCode.usage
            }
        }
        lines(for: test, program: program).forEach(printer.line)
        if let file = arguments.svg { printer.line(style.dim("diagram: \(file)")) }
        return status
    }

    /// The diagram: every source, then the result (labelled with the expression when it is
    /// short), then what print() wrote, then a runtime error if the run stopped with one.
    func lines(for test: TestReport, program: Program) -> [String] {
        var rows = Self.sourceRows(of: test)
        let result = test.streams.first { $0.name == program.resultName }
        var observed = result?.observed ?? []
        var cancelled = false
        if arguments.subscribe != nil || program.until != nil, let span = result?.subscriptions.first {
            // A subscribe line was given, or --until: show when the subscriber attached and cancelled.
            if arguments.subscribe != nil { observed.insert(RenderedEvent(frame: span.start, event: .subscribe), at: 0) }
            if let end = span.end, !observed.contains(where: { $0.event.isTerminal }) {
                observed.append(RenderedEvent(frame: end, event: .cancel))
                cancelled = true
            }
        }
        var notes: [String] = []
        // What a run that never settles did before a limit cut it is arbitrary (and can be
        // long): only the error is shown.
        if !test.unsettled { rows.append(.aligned(label: program.resultLabel, events: observed)) }
        if test.error == nil, !cancelled, !observed.contains(where: { $0.event.isTerminal }) {
            notes.append("not finished; nothing was left to run after frame \(max(0, test.endFrame - 1))")
        }
        var output = rows.isEmpty ? [] : TextDiagramLayout(rows: rows, differences: [], notes: notes, indent: 0).lines(style: style)
        if !test.trace.isEmpty {
            output.append("")
            let width = test.trace.map { String($0.frame).count }.max() ?? 0
            for line in test.trace {
                let frame = String(line.frame)
                output.append(style.dim("frame " + String(repeating: " ", count: width - frame.count) + frame + ": " + line.text))
            }
        }
        if let error = test.error {
            if !output.isEmpty { output.append("") }
            output += lines(for: error, program: program)
            if test.unsettled { output.append(style.dim("(--until FRAMES cancels the result's subscription at that frame)")) }
        }
        return output
    }

    /// A diagnostic shown in the argument it came from; one on a line no argument wrote (the
    /// test's own lines) without a place.
    func lines(for diagnostic: FileDiagnostic, program: Program) -> [String] {
        if let placed = program.relocate(diagnostic) { return SourceExcerpt.lines(placed, indent: 0, style: style) }
        let frame = diagnostic.frame.map { " (at frame \($0))" } ?? ""
        return ["marbles: \(diagnostic.severity.rawValue): \(diagnostic.message)\(frame)"] + (diagnostic.hint.map { ["  hint: \($0)"] } ?? [])
    }

    /// A row per hot and cold source of the test, as written (a cold one on its own axis).
    static func sourceRows(of test: TestReport) -> [DiagramRow] {
        test.streams.filter { $0.kind == .hot || $0.kind == .cold }.map { stream in
            let events = stream.declared ?? []
            return stream.kind == .cold
                ? .unaligned(label: stream.name, events: events, frameNanoseconds: test.frameNanoseconds, note: "(cold: plays from each subscription)")
                : .aligned(label: stream.name, events: events)
        }
    }

    /// The text of the one-test file, and how to read its result.
    struct Program {
        var text: String
        var resultName: String
        var resultLabel: String
        /// Where `--until` cancels the subscription.
        var until: Int?
        /// The lines each argument wrote.
        var origins: [Origin] = []

        /// An argument's part of the text: from line `firstLine` on, its lines; the first one
        /// after `prefix` characters (`  let result = `), the others as they are.
        struct Origin {
            var label: String
            var text: String
            var firstLine: Int
            var prefix: Int
        }

        /// `diagnostic` placed in the argument whose line it is on (nil for the test's own lines).
        func relocate(_ diagnostic: FileDiagnostic) -> FileDiagnostic? {
            for origin in origins {
                let lines = origin.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let line = diagnostic.line - origin.firstLine
                guard lines.indices.contains(line) else { continue }
                var placed = diagnostic
                placed.path = origin.label
                placed.line = line + 1
                placed.column = line == 0 ? max(1, diagnostic.column - origin.prefix) : diagnostic.column
                placed.lineText = lines[line]
                return placed
            }
            return nil
        }
    }

    static func source(for arguments: EvalArguments) -> Program {
        let frameNanoseconds = arguments.frame.flatMap { try? MarbleDuration.nanoseconds($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 1_000_000
        var lines: [String] = []
        var origins: [Program.Origin] = []
        var lineCount = 0
        /// Appends a line (which may hold line breaks) that argument `label`, `text`, wrote after `prefix`.
        func append(_ prefix: String, _ text: String, from label: String?, shown: String? = nil) {
            if let label { origins.append(.init(label: label, text: shown ?? text, firstLine: lineCount + 1, prefix: prefix.count)) }
            lines.append(prefix + text)
            lineCount += 1 + text.filter(\.isNewline).count
        }
        func numbered(_ label: String, _ index: Int, of count: Int) -> String { count == 1 ? label : "\(label) \(index + 1)" }
        if let frame = arguments.frame { append("frame ", frame, from: "--frame") }
        for (index, values) in arguments.values.enumerated() {
            append("values ", values, from: numbered("--values", index, of: arguments.values.count))
        }
        append("test \"eval\"", "", from: nil)

        for source in arguments.sources {
            // `hot a -a-|` and `a=-a-|` put the name and the marbles at the same offsets.
            append("  \(source.kind.rawValue) ", "\(source.name) \(source.marbles)", from: "--\(source.kind.rawValue) \(source.name)",
                   shown: "\(source.name)=\(source.marbles)")
        }
        let taken = Set(arguments.sources.map(\.name))
        var resultName = "result"
        var resultLabel = ""
        for (index, expression) in arguments.expressions.enumerated() {
            let isLast = index == arguments.expressions.count - 1
            let label = numbered("expression", index, of: arguments.expressions.count)
            if let binding = binding(in: expression) {
                append("  let ", "\(binding.name) = \(binding.expression)", from: label)
                if isLast {
                    resultName = binding.name
                    resultLabel = binding.name
                }
            } else if isLast {
                while taken.contains(resultName) { resultName += "_" }
                append("  let \(resultName) = ", expression, from: label)
                let trimmed = expression.trimmingCharacters(in: " ")
                resultLabel = trimmed.count <= 48 && !trimmed.contains(where: \.isNewline) ? trimmed : resultName
            } else {
                append("  let _\(index) = ", expression, from: label)
            }
        }

        let subscribe = arguments.subscribe ?? "^"
        let parsedSubscribe = try? MarbleParser(frameNanoseconds: frameNanoseconds).parse(subscribe, as: .subscription)
        let subscribeEnd = parsedSubscribe?.endFrame ?? 1
        var subscribeLine = subscribe
        var until: Int?
        if let frame = arguments.until, parsedSubscribe?.events.contains(where: { $0.event == .cancel }) != true {
            // Cancel at `frame` (or just after the subscription, if that is later).
            if frame > subscribeEnd {
                // As time progressions, each within what Int64 nanoseconds count (a time
                // progression longer than that cannot be written).
                var remaining = Int64(frame - subscribeEnd)
                while remaining > 0 {
                    let chunk = min(remaining, Int64.max / frameNanoseconds)
                    subscribeLine += " " + MarbleDuration.describe(nanoseconds: chunk * frameNanoseconds)
                    remaining -= chunk
                }
            }
            subscribeLine += " !"
            until = max(frame, subscribeEnd)
        }
        append("  subscribe \(resultName) ", subscribeLine, from: arguments.subscribe == nil ? nil : "--subscribe", shown: arguments.subscribe)
        if let demand = arguments.demand { append("  demand \(resultName) ", demand, from: "--demand") }
        return Program(text: lines.joined(separator: "\n") + "\n", resultName: resultName, resultLabel: resultLabel, until: until, origins: origins)
    }

    /// `NAME = EXPRESSION` (not `==`).
    static func binding(in text: String) -> (name: String, expression: String)? {
        guard let match = text.wholeMatch(of: /\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)(.*)/.dotMatchesNewlines()) else { return nil }
        return (String(match.1), String(match.2).trimmingCharacters(in: " "))
    }
}
