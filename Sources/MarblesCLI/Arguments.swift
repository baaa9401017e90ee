import MarbleNotation
import MarbleSyntax

/// What the command line asks for.
enum Command: Equatable {
    case help(topic: HelpTopic)
    case version
    case run(RunArguments)
    case operators
    case eval(EvalArguments)
    case trace(TraceArguments)
    case fmt(FormatArguments)
    case doc(DocArguments)
    case compare(CompareArguments)
    case completion(CompletionArguments)
    case lsp
}

enum HelpTopic: Equatable, CaseIterable {
    case general, run, operators, eval, trace, fmt, doc, compare, completion, lsp

    /// The command a topic documents (`nil` for the general help).
    var command: String? {
        switch self {
        case .general: return nil
        case .run: return "run"
        case .operators: return "operators"
        case .eval: return "eval"
        case .trace: return "trace"
        case .fmt: return "fmt"
        case .doc: return "doc"
        case .compare: return "compare"
        case .completion: return "completion"
        case .lsp: return "lsp"
        }
    }
}

/// The reporters of `marbles run`.
enum ReporterKind: String, CaseIterable, Equatable, Sendable {
    case human, junit, tap, json, github

    /// Reporters whose output is made of whole lines meant for a log, which can share standard
    /// output with each other; the others are documents that need it to themselves.
    var sharesStandardOutput: Bool { self == .human || self == .github }
}

/// One `--reporter NAME [--output FILE]`.
struct ReporterRequest: Equatable {
    var kind: ReporterKind
    /// nil: standard output.
    var output: String?
}

/// `--shard I/N`: the I-th (1-based) of N parts.
struct Shard: Equatable, Sendable {
    var index: Int
    var count: Int
}

struct RunArguments: Equatable {
    /// Files and folders, as given; `marbles/` when none is given.
    var paths: [String] = []
    var noColor = false
    /// As given; none means the human reporter on standard output.
    var reporters: [ReporterRequest] = []
    var update = false
    /// Tests whose "file › test" matches any of these run (all when empty).
    var filters: [TestFilter] = []
    /// Files run at once; nil: one per core.
    var jobs: Int? = nil
    var shard: Shard? = nil
    var failFast = false
    /// `--pass-with-no-tests`: a `--filter`/`--shard` that chooses no test is a success.
    var passWithNoTests = false
    var list = false
    var slowest: Int? = nil
    /// `--quiet`: the human report leaves out passing tests and files where every test passed.
    var quiet = false
    /// `--svg DIR`: write a diagram of every failing test there (see SVGCommand.swift).
    var svgDirectory: String? = nil
    /// `--watch`: run, then re-run each file saved (see WatchSession.swift).
    var watch = false

    /// The reporters that will run: the human one when none was asked for.
    var effectiveReporters: [ReporterRequest] {
        reporters.isEmpty ? [ReporterRequest(kind: .human, output: nil)] : reporters
    }
}

struct CompareArguments: Equatable {
    var left = ""
    var right = ""
    var seed: UInt64 = 1
    var cases = 500
    var noColor = false
}

struct EvalArguments: Equatable {
    enum SourceKind: String, Equatable { case hot, cold }
    struct Source: Equatable {
        var kind: SourceKind
        var name: String
        var marbles: String
    }
    var sources: [Source] = []
    /// `values` entries, each as written after the keyword (`A = 1, B = "x"`).
    var values: [String] = []
    /// The frame length, e.g. `100ms`.
    var frame: String?
    var subscribe: String?
    var demand: String?
    /// How many frames the run lasts; nil: long enough for the sources and some more.
    var until: Int?
    /// `NAME = EXPRESSION` helpers, then the expression to evaluate, last.
    var expressions: [String] = []
    var noColor = false
    /// `--svg FILE`: also draw the result as an SVG marble diagram (`-`: to standard output, alone).
    var svg: String? = nil
}

struct TraceArguments: Equatable {
    var path = ""
    var test: String?
    var noColor = false
}

struct FormatArguments: Equatable {
    var paths: [String] = []
    var check = false
    /// `--native`: convert files from an RxJS notation instead of laying them out.
    var native = false
}

/// A command line that cannot be understood: the message, and which usage to show with it.
struct UsageError: Error, Equatable {
    var message: String
    var topic: HelpTopic
}

/// `marbles completion SHELL`.
struct CompletionArguments: Equatable {
    var shell: CompletionShell? = nil
}

/// `marbles operators` takes no options but `--help`.
struct OperatorsArguments: Equatable {}

/// `marbles lsp` takes no options but `--help`.
struct LanguageServerArguments: Equatable {}

/// Parses `marbles COMMAND [ARGUMENTS…]` (the program name already removed), with each
/// command's option table (CommandOptions.swift).
enum ArgumentParser {
    static let commands = ["run", "operators", "eval", "compare", "trace", "fmt", "doc", "completion", "lsp", "help"]

    static func parse(_ arguments: [String]) -> Result<Command, UsageError> {
        Result { () throws(UsageError) -> Command in try parseCommand(arguments) }
    }

    private static func parseCommand(_ arguments: [String]) throws(UsageError) -> Command {
        guard let first = arguments.first else {
            throw UsageError(message: "missing command", topic: .general)
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h":
            guard rest.isEmpty else { throw unexpected(rest[0], after: first, topic: .general) }
            return .help(topic: .general)
        case "--version":
            guard rest.isEmpty else { throw unexpected(rest[0], after: first, topic: .general) }
            return .version
        case "help": return try parseHelp(rest)
        case "run": return try parseRun(rest)
        case "operators": return try parseOperators(rest)
        case "eval": return try parseEval(rest)
        case "trace": return try parseTrace(rest)
        case "fmt": return try parseFormat(rest)
        case "doc": return try parseDoc(rest)
        case "compare": return try parseCompare(rest)
        case "completion": return try parseCompletion(rest)
        case "lsp": return try parseLanguageServer(rest)
        default:
            if first.hasPrefix("-") {
                throw UsageError(message: "unknown option '\(first)'" + suggestion(first, in: ["--help", "--version"]), topic: .general)
            }
            throw UsageError(message: "unknown command '\(first)'" + suggestion(first, in: commands), topic: .general)
        }
    }

    private static func parseHelp(_ rest: [String]) throws(UsageError) -> Command {
        guard let topic = rest.first else { return .help(topic: .general) }
        guard rest.count == 1 else { throw unexpected(rest[1], after: "help \(topic)", topic: .general) }
        guard let found = HelpTopic.allCases.first(where: { $0.command == topic }) else {
            throw UsageError(message: "no help for unknown command '\(topic)'" + suggestion(topic, in: commands), topic: .general)
        }
        return .help(topic: found)
    }

    /// Runs a command's table over its arguments; `nil` when the help was asked for.
    private static func parse<Arguments: SendableMetatype>(_ rest: [String], _ table: OptionTable<Arguments>, into initial: Arguments,
                                         positional: (inout Arguments, String) throws(OptionError) -> Void) throws(UsageError) -> Arguments? {
        switch try table.parse(rest, into: initial, positional: positional) {
        case .arguments(let arguments): return arguments
        case .help, .version: return nil
        }
    }

    // MARK: run

    private static func parseRun(_ rest: [String]) throws(UsageError) -> Command {
        guard var run = try parse(rest, CommandOptions.run, into: RunArguments(), positional: { $0.paths.append($1) }) else {
            return .help(topic: .run)
        }
        try validate(run)
        if run.paths.isEmpty { run.paths = [CLI.defaultFolder] }
        return .run(run)
    }

    private static func validate(_ run: RunArguments) throws(UsageError) {
        if run.list {
            let conflicting = [("--update", run.update), ("--fail-fast", run.failFast), ("--slowest", run.slowest != nil), ("--quiet", run.quiet),
                               ("--reporter", !run.reporters.isEmpty), ("--svg", run.svgDirectory != nil), ("--watch", run.watch)].first { $0.1 }
            if let (option, _) = conflicting {
                throw UsageError(message: "--list only prints the tests that would run; it cannot be combined with \(option)", topic: .run)
            }
        }
        if run.watch, let document = run.reporters.first(where: { !$0.kind.sharesStandardOutput || $0.output != nil }) {
            throw UsageError(message: "--watch reports to the terminal, with the human or github reporter; "
                             + "it cannot write the \(document.kind.rawValue) reporter\(document.output.map { " to '\($0)'" } ?? "")", topic: .run)
        }
        let reporters = run.effectiveReporters
        var seenKinds: Set<String> = []
        var seenFiles: Set<String> = []
        for reporter in reporters {
            if !seenKinds.insert(reporter.kind.rawValue + "\u{0}" + (reporter.output ?? "")).inserted {
                throw UsageError(message: "the \(reporter.kind.rawValue) reporter is asked for twice", topic: .run)
            }
            if let output = reporter.output, !seenFiles.insert(output).inserted {
                throw UsageError(message: "two reporters cannot both write to '\(output)'", topic: .run)
            }
        }
        let onStandardOutput = reporters.filter { $0.output == nil }
        if onStandardOutput.count > 1, let document = onStandardOutput.first(where: { !$0.kind.sharesStandardOutput }) {
            let other = onStandardOutput.first { $0 != document }?.kind.rawValue ?? ""
            throw UsageError(message: "the \(document.kind.rawValue) and \(other) reporters would both write to standard output; give one of them --output FILE", topic: .run)
        }
        if run.slowest != nil, !reporters.contains(where: { $0.kind == .human }) {
            throw UsageError(message: "--slowest adds to the human report; add --reporter human", topic: .run)
        }
        if run.quiet, !reporters.contains(where: { $0.kind == .human }) {
            throw UsageError(message: "--quiet shortens the human report; add --reporter human", topic: .run)
        }
    }

    // MARK: operators

    private static func parseOperators(_ rest: [String]) throws(UsageError) -> Command {
        guard try parse(rest, CommandOptions.operators, into: OperatorsArguments(), positional: { _, argument throws(OptionError) in
            throw OptionError("unexpected argument '\(argument)' after 'operators'")
        }) != nil else { return .help(topic: .operators) }
        return .operators
    }

    // MARK: lsp

    private static func parseLanguageServer(_ rest: [String]) throws(UsageError) -> Command {
        guard try parse(rest, CommandOptions.lsp, into: LanguageServerArguments(), positional: { _, argument throws(OptionError) in
            throw OptionError("unexpected argument '\(argument)' after 'lsp' (the server speaks on standard input and output)")
        }) != nil else { return .help(topic: .lsp) }
        return .lsp
    }

    // MARK: completion

    private static func parseCompletion(_ rest: [String]) throws(UsageError) -> Command {
        let shells = CompletionShell.allCases.map(\.rawValue)
        guard let completion = try parse(rest, CommandOptions.completion, into: CompletionArguments(), positional: { completion, word throws(OptionError) in
            guard completion.shell == nil else { throw OptionError("unexpected argument '\(word)' after 'completion \(completion.shell?.rawValue ?? "")'") }
            guard let shell = CompletionShell(rawValue: word) else {
                throw OptionError("unknown shell '\(word)'" + suggestion(word, in: shells) + " (known: " + shells.joined(separator: ", ") + ")")
            }
            completion.shell = shell
        }) else { return .help(topic: .completion) }
        guard completion.shell != nil else {
            throw UsageError(message: "missing the shell: " + shells.joined(separator: ", "), topic: .completion)
        }
        return .completion(completion)
    }

    // MARK: compare

    private static func parseCompare(_ rest: [String]) throws(UsageError) -> Command {
        var pipelines: [String] = []
        guard var compare = try parse(rest, CommandOptions.compare, into: CompareArguments(), positional: { _, pipeline in pipelines.append(pipeline) }) else {
            return .help(topic: .compare)
        }
        guard pipelines.count == 2 else {
            throw UsageError(message: pipelines.count < 2 ? "compare needs two pipelines, e.g. 'a.map { $0 + 1 }.map { $0 * 2 }' 'a.map { ($0 + 1) * 2 }'"
                                                         : "compare takes two pipelines, not \(pipelines.count)", topic: .compare)
        }
        compare.left = pipelines[0]
        compare.right = pipelines[1]
        return .compare(compare)
    }

    // MARK: eval

    private static func parseEval(_ rest: [String]) throws(UsageError) -> Command {
        guard let eval = try parse(rest, CommandOptions.eval, into: EvalArguments(), positional: { $0.expressions.append($1) }) else {
            return .help(topic: .eval)
        }
        guard !eval.expressions.isEmpty else {
            throw UsageError(message: "missing the expression to evaluate, e.g. 'a.debounce(for: 3, scheduler: RunLoop.main)'", topic: .eval)
        }
        return .eval(eval)
    }

    // MARK: trace

    private static func parseTrace(_ rest: [String]) throws(UsageError) -> Command {
        guard let trace = try parse(rest, CommandOptions.trace, into: TraceArguments(), positional: { trace, value throws(OptionError) in
            guard trace.path.isEmpty else { throw OptionError("unexpected argument '\(value)' after '\(trace.path)'") }
            trace.path = value
        }) else { return .help(topic: .trace) }
        guard !trace.path.isEmpty else { throw UsageError(message: "missing the .marble file to trace", topic: .trace) }
        return .trace(trace)
    }

    // MARK: fmt

    private static func parseFormat(_ rest: [String]) throws(UsageError) -> Command {
        guard var format = try parse(rest, CommandOptions.fmt, into: FormatArguments(), positional: { $0.paths.append($1) }) else {
            return .help(topic: .fmt)
        }
        if format.paths.isEmpty { format.paths = [CLI.defaultFolder] }
        return .fmt(format)
    }

    // MARK: doc

    private static func parseDoc(_ rest: [String]) throws(UsageError) -> Command {
        guard let doc = try parse(rest, CommandOptions.doc, into: DocArguments(), positional: { $0.paths.append($1) }) else {
            return .help(topic: .doc)
        }
        if doc.check && doc.update { throw UsageError(message: "--check writes nothing, so it cannot --update; use one of them", topic: .doc) }
        if doc.check && doc.watch { throw UsageError(message: "--check writes nothing and exits; it cannot --watch", topic: .doc) }
        if doc.paths.isEmpty { throw UsageError(message: "missing the Markdown files or folders to check", topic: .doc) }
        if doc.catalogue != nil {
            guard doc.paths.count == 1, doc.paths[0].hasSuffix(".md") else {
                throw UsageError(message: "--catalogue generates one page: give one .md file to write, e.g. docs/operators.md", topic: .doc)
            }
            if doc.update { throw UsageError(message: "--catalogue pages are generated: update the .marble files, not the page", topic: .doc) }
            if doc.watch { throw UsageError(message: "--catalogue pages are generated: watch the .marble files with marbles run --watch", topic: .doc) }
        }
        return .doc(doc)
    }

    // MARK: Helpers

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    static func unexpected(_ argument: String, after: String, topic: HelpTopic) -> UsageError {
        UsageError(message: "unexpected argument '\(argument)' after '\(after)'", topic: topic)
    }

    static func suggestion(_ word: String, in candidates: [String]) -> String {
        Suggestions.nearest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String { self[...].trimmingCharacters(in: set) }
}
