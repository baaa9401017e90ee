import Foundation
import MarbleRewrite
import MarbleSpec
import MarbleSyntax

/// `marbles run`: discover the files, choose the tests, run the files (several at once),
/// report in discovery order to every reporter, summarise.
struct RunCommand {
    var arguments: RunArguments
    var printer: Printer
    /// Colour for reporters writing to standard output.
    var style: Style
    var environment: [String: String] = [:]

    /// One unit of work: a path that cannot run, or a file with the tests chosen in it.
    enum WorkItem: Sendable {
        case problem(path: String, message: String)
        case file(path: String, selected: Set<String>?)
    }

    enum WorkResult: Sendable {
        case problem(path: String, message: String)
        case file(FileResult)
    }

    var jobs: Int { arguments.jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount) }

    func execute() -> Int32 {
        let items = plan()
        if arguments.list { return list(items.items, surveys: items.surveys) }
        if !arguments.passWithNoTests, let message = nothingChosen(items) {
            // Nothing runs, so nothing may pass: a mistyped filter must not turn CI green.
            for case .problem(let path, let problem) in items.items { printer.error("\(path): error: \(problem)") }
            printer.error("marbles: error: " + message)
            return CLI.ExitCode.usage
        }

        let targets = arguments.effectiveReporters.map { request in
            request.output.map(ReportTarget.file) ?? .standardOutput(printer)
        }
        let reporters: [any Reporter] = zip(arguments.effectiveReporters, targets).map { request, target in
            switch request.kind {
            case .human: return HumanReporter(target: target, style: request.output == nil ? style : Style(enabled: false), quiet: arguments.quiet)
            case .junit: return JUnitReporter(target: target)
            case .tap: return TAPReporter(target: target)
            case .json: return JSONReporter(target: target)
            case .github: return GitHubReporter(target: target, workspace: environment["GITHUB_WORKSPACE"])
            }
        }
        let humanOnStandardOutput = arguments.effectiveReporters.contains { $0.kind == .human }
        let diagrams = arguments.svgDirectory.map(FailureDiagrams.init(folder:))

        let clock = ContinuousClock()
        let started = clock.now
        var summary = RunSummary(tally: Tally(), milliseconds: 0)
        var timed: [TimedTest] = []
        let update = arguments.update
        let failFast = arguments.failFast
        // Only the JSON report lists what a passing test's streams did.
        let keepsPassingReports = arguments.effectiveReporters.contains { $0.kind == .json }

        Parallel.forEach(items.items, jobs: jobs, work: { item in Self.perform(item, update: update, keepsPassingReports: keepsPassingReports) }) { _, result in
            switch result {
            case .problem(let path, let message):
                summary.tally.inputErrors += 1
                reporters.forEach { $0.problem(path: path, message: message) }
                if failFast { summary.stoppedEarly = true }
            case .file(var file):
                if failFast, let stop = file.report.tests.firstIndex(where: { $0.outcome != .passed }) {
                    file.report.tests = Array(file.report.tests.prefix(through: stop))
                    summary.stoppedEarly = true
                }
                if failFast, file.report.isError { summary.stoppedEarly = true }
                summary.tally.count(file.report)
                if case .unwritable = file.update { summary.tally.inputErrors += 1 }
                if case .updated(let changes) = file.update {
                    summary.updatedFiles += 1
                    summary.updatedLines += changes.count
                    if !humanOnStandardOutput {
                        for change in changes { printer.error("marbles: updated \(file.report.path):\(change.line)") }
                    }
                }
                if let count = arguments.slowest {
                    // The slowest so far only: a million tests need not be remembered to find ten.
                    timed = Array((timed + file.report.tests.map { TimedTest(path: file.report.path, name: $0.name, line: $0.line, seconds: $0.seconds) })
                        .sorted { $0.seconds > $1.seconds }.prefix(count))
                }
                reporters.forEach { $0.file(file) }
                if let diagrams, let problem = diagrams.write(file.report) {
                    summary.tally.inputErrors += 1
                    reporters.forEach { $0.problem(path: diagrams.folder, message: problem) }
                }
            }
            return !summary.stoppedEarly
        }

        summary.milliseconds = Self.milliseconds(clock.now - started)
        if let count = arguments.slowest {
            summary.slowest = Array(timed.sorted { $0.seconds > $1.seconds }.prefix(count))
        }
        reporters.forEach { $0.finish(summary) }
        var status = summary.tally.exitCode
        for target in targets {
            do {
                try target.close()
            } catch {
                printer.error("marbles: error: \(error)")
                status = CLI.ExitCode.usage
            }
        }
        return status
    }

    /// Runs one item (on any thread).
    static func perform(_ item: WorkItem, update: Bool, keepsPassingReports: Bool = true) -> WorkResult {
        switch item {
        case .problem(let path, let message):
            return .problem(path: path, message: message)
        case .file(let path, let selected):
            var options = RunOptions()
            options.selectedTests = selected
            // `--update` reads every check of every test.
            options.keepsPassingReports = keepsPassingReports || update
            let clock = ContinuousClock()
            let started = clock.now
            if update {
                let (report, change) = SnapshotWriter.update(path: path, options: options)
                return .file(FileResult(report: report, seconds: (clock.now - started).secondsValue, update: change))
            }
            let report = MarbleRunner.run(path: path, options: options)
            return .file(FileResult(report: report, seconds: (clock.now - started).secondsValue, update: nil))
        }
    }

    // MARK: Choosing the tests

    /// Why `--filter`/`--shard` chose nothing to run, if they did.
    func nothingChosen(_ plan: Plan) -> String? {
        guard !arguments.filters.isEmpty || arguments.shard != nil else { return nil }
        guard !plan.items.contains(where: { if case .file = $0 { return true } else { return false } }) else { return nil }
        func tests(_ n: Int) -> String { "\(n) test\(n == 1 ? "" : "s")" }
        let filters = arguments.filters.map { "--filter '\($0.text)'" }.joined(separator: " / ")
        let chosen: String
        let plural = arguments.filters.count > 1
        if let shard = arguments.shard, plan.matched > 0 {
            chosen = "shard \(shard.index)/\(shard.count) gets none of the \(tests(plan.matched))"
                + (arguments.filters.isEmpty ? "" : " \(filters) \(plural ? "choose" : "chooses")")
        } else if arguments.filters.isEmpty {
            chosen = "there are no tests to share out"
        } else {
            chosen = "\(filters) \(plural ? "match" : "matches") none of the \(tests(plan.searched)) (as \"FILE › TEST\")"
        }
        return chosen + ", so nothing ran; --pass-with-no-tests makes that a success"
    }

    /// The work in discovery order, the files' tests when they were parsed to choose among them,
    /// how many tests they hold (`searched`) and how many the filters match before sharding.
    struct Plan {
        var items: [WorkItem]
        var surveys: [String: FileSelection]
        var searched = 0
        var matched = 0
    }

    /// The work in discovery order; with `--filter`, `--shard` or `--list`, each file is parsed
    /// first to learn its tests.
    func plan() -> Plan {
        let discovered = Discovery.discover(arguments.paths)
        guard !arguments.filters.isEmpty || arguments.shard != nil || arguments.list else {
            return Plan(items: discovered.map { item in
                switch item {
                case .problem(let path, let message): return .problem(path: path, message: message)
                case .file(let path): return .file(path: path, selected: nil)
                }
            }, surveys: [:])
        }
        let paths = discovered.compactMap { item -> String? in
            if case .file(let path) = item { return path }
            return nil
        }
        let surveyed = Parallel.map(paths, jobs: jobs, Self.survey)
        let chosen = Selection.choose(surveyed, filters: arguments.filters, shard: arguments.shard)
        let byPath = Dictionary(chosen.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let items = discovered.compactMap { item -> WorkItem? in
            switch item {
            case .problem(let path, let message): return .problem(path: path, message: message)
            case .file(let path): return byPath[path].map { .file(path: path, selected: $0.selected) }
            }
        }
        let matched = Selection.choose(surveyed, filters: arguments.filters, shard: nil).reduce(0) { $0 + $1.selectedTests.count }
        return Plan(items: items, surveys: byPath, searched: surveyed.reduce(0) { $0 + $1.allTests.count }, matched: matched)
    }

    /// A file's tests, learnt by parsing it (nothing runs). A mistake inside a test costs that
    /// test only when it runs; one that breaks the file's structure means no test can be chosen.
    @Sendable static func survey(_ path: String) -> FileSelection {
        guard let data = FileManager.default.contents(atPath: path), let source = String(data: data, encoding: .utf8) else {
            return FileSelection(path: path, allTests: [], selected: nil, hasErrors: true)
        }
        let (file, _) = MarbleFileParser.parse(source)
        return FileSelection(path: path, allTests: file.tests.map { ($0.name, $0.location.line) }, selected: nil,
                             hasErrors: !file.structureErrors.isEmpty || file.tests.isEmpty)
    }

    /// `--list`: the tests that would run, one per line as `file › test`, then how many.
    private func list(_ items: [WorkItem], surveys: [String: FileSelection]) -> Int32 {
        var tests = 0
        var files = 0
        var problems = 0
        for item in items {
            switch item {
            case .problem(let path, let message):
                problems += 1
                printer.line("\(path): error: \(message)")
            case .file(let path, _):
                guard let survey = surveys[path] else { continue }
                if survey.hasErrors {
                    problems += 1
                    printer.line("\(path): error: the file cannot run as it is (run it to see why)")
                    continue
                }
                files += 1
                for test in survey.selectedTests {
                    tests += 1
                    printer.line(TestFilter.subject(path: path, test: test.name))
                }
            }
        }
        printer.line()
        var totals = "\(tests) test\(tests == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s")"
        if let shard = arguments.shard { totals += " (shard \(shard.index) of \(shard.count))" }
        printer.line(totals)
        return problems > 0 ? CLI.ExitCode.usage : CLI.ExitCode.success
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}

extension Duration {
    var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension Tally {
    /// Adds a file's outcome.
    mutating func count(_ report: FileReport) {
        files += 1
        if report.isError { inputErrors += 1 }
        for test in report.tests { count(test) }
    }
}
