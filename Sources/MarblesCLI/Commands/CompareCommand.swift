import MarbleDiff
import MarbleNotation
import MarbleSpec

/// `marbles compare PIPELINE PIPELINE`: the search is `PipelineSearch` (MarbleSpec); this prints
/// what it found — the smallest differing case's inputs and both outputs aligned frame by frame,
/// a sentence per differing frame, and the case as a test — or how many cases agreed.
struct CompareCommand {
    var arguments: CompareArguments
    var printer: Printer
    var style: Style

    func execute() -> Int32 {
        var options = PipelineSearch.Options()
        options.seed = arguments.seed
        options.cases = arguments.cases
        switch PipelineSearch.run(arguments.left, arguments.right, options: options) {
        case .failure(let error):
            lines(for: error).forEach(printer.line)
            return CLI.ExitCode.usage
        case .success(.noDifference(let cases, let skipped, let unfailed)):
            var notes: [String] = []
            if skipped > 0 { notes.append("\(skipped) of them stopped with a runtime error and tell nothing") }
            if !unfailed.isEmpty {
                let names = unfailed.map { "'\($0)'" }.joined(separator: " and ")
                notes.append("a failure of \(names) stopped every case it was in, so later cases do not fail \(unfailed.count == 1 ? "it" : "them")")
            }
            let stopped = notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
            printer.line("no difference in \(cases) cases\(stopped); seed \(arguments.seed)")
            return CLI.ExitCode.success
        case .success(.difference(let source, let report, let tried, let steps)):
            lines(for: report, source: source, tried: tried, steps: steps).forEach(printer.line)
            return CLI.ExitCode.failure
        }
    }

    func lines(for error: PipelineSearch.PipelineError) -> [String] {
        guard let argument = error.argument else {
            return ["marbles: error: \(error.message)"] + (error.hint.map { ["  hint: \($0)"] } ?? [])
        }
        let text = argument == 1 ? arguments.left : arguments.right
        let diagnostic = FileDiagnostic(path: "pipeline \(argument)", line: 1, column: error.column, length: error.length, message: error.message,
                                        hint: error.hint, lineText: text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? text)
        return SourceExcerpt.lines(diagnostic, indent: 0, style: style)
    }

    func lines(for test: TestReport, source: String, tried: Int, steps: Int) -> [String] {
        var rows = EvalCommand.sourceRows(of: test)
        let left = test.streams.first { $0.name == "left" }?.observed ?? []
        let right = test.streams.first { $0.name == "right" }?.observed ?? []
        rows.append(.aligned(label: "left", events: left))
        rows.append(.aligned(label: "right", events: right))
        let demand = test.streams.first { $0.name == "left" }?.subscriber?.demand ?? []
        if !demand.isEmpty { rows.append(.aligned(label: "demand", events: demand)) }
        let differences = Self.differences(left, right)
        let shrunk = steps == 0 ? "" : ", shrunk in \(steps) step\(steps == 1 ? "" : "s")"
        var output = [style.bold("the pipelines differ") + style.dim(" (case \(tried)\(shrunk); seed \(arguments.seed))"), ""]
        output += TextDiagramLayout(rows: rows, differences: differences, notes: [], indent: 2).lines(style: style)
        output += ["", "  left:  \(arguments.left)", "  right: \(arguments.right)", "", style.dim("as a test:")]
        output += source.split(separator: "\n").map { "  " + $0 }
        return output
    }

    /// One sentence per frame at which the outputs differ: what each side sent there.
    static func differences(_ left: [RenderedEvent], _ right: [RenderedEvent]) -> [Difference] {
        let leftByFrame = Dictionary(grouping: left, by: \.frame)
        let rightByFrame = Dictionary(grouping: right, by: \.frame)
        func said(_ events: [RenderedEvent]?) -> String {
            guard let events, !events.isEmpty else { return "nothing" }
            return events.map { event in
                switch event.event {
                case .finished: "finished"
                case .failure(let text): "failure \(text ?? "#")"
                default: event.event.text
                }
            }.joined(separator: " then ")
        }
        return Set(leftByFrame.keys).union(rightByFrame.keys).sorted().compactMap { frame in
            let l = leftByFrame[frame]?.map(\.event) ?? []
            let r = rightByFrame[frame]?.map(\.event) ?? []
            guard l != r else { return nil }
            return Difference(frame: frame, sentence: "left sent \(said(leftByFrame[frame])), right \(said(rightByFrame[frame]))")
        }
    }
}
