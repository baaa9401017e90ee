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
}

enum HelpTopic: Equatable, CaseIterable {
    case general, run, operators, eval, trace, fmt, doc, compare

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
    var path: String
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

/// Parses `marbles COMMAND [ARGUMENTS…]` (the program name already removed).
enum ArgumentParser {
    static let commands = ["run", "operators", "eval", "compare", "trace", "fmt", "doc", "help"]

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

    // MARK: run

    static let runOptions = ["--reporter", "--output", "--update", "--filter", "--jobs", "--shard", "--fail-fast",
                             "--pass-with-no-tests", "--list", "--slowest", "--svg", "--quiet", "--no-color", "--help"]

    private static func parseRun(_ rest: [String]) throws(UsageError) -> Command {
        var run = RunArguments()
        var reader = OptionReader(rest, topic: .run, command: "marbles run")
        while let item = reader.next() {
            switch item {
            case .positional(let path): run.paths.append(path)
            case .option(let name, let inline):
                switch name {
                case "--no-color": try reader.noValue(name, inline); run.noColor = true
                case "--help", "-h": return .help(topic: .run)
                case "--update", "-u": try reader.noValue(name, inline); run.update = true
                case "--fail-fast": try reader.noValue(name, inline); run.failFast = true
                case "--pass-with-no-tests": try reader.noValue(name, inline); run.passWithNoTests = true
                case "--list": try reader.noValue(name, inline); run.list = true
                case "--quiet", "-q": try reader.noValue(name, inline); run.quiet = true
                case "--reporter":
                    let value = try reader.value(for: name, inline)
                    guard let kind = ReporterKind(rawValue: value) else {
                        throw UsageError(message: "unknown reporter '\(value)'" + suggestion(value, in: ReporterKind.allCases.map(\.rawValue))
                                         + " (known: " + ReporterKind.allCases.map(\.rawValue).joined(separator: ", ") + ")", topic: .run)
                    }
                    run.reporters.append(ReporterRequest(kind: kind, output: nil))
                case "--output", "-o":
                    let value = try reader.value(for: name, inline)
                    guard let last = run.reporters.indices.last else {
                        throw UsageError(message: "--output names the file of the reporter before it; write --reporter NAME --output FILE", topic: .run)
                    }
                    guard run.reporters[last].output == nil else {
                        throw UsageError(message: "the \(run.reporters[last].kind.rawValue) reporter already writes to '\(run.reporters[last].output ?? "")'", topic: .run)
                    }
                    // `-` is standard output, as if no --output were given.
                    run.reporters[last].output = value == "-" ? nil : value
                case "--filter":
                    let value = try reader.value(for: name, inline)
                    do {
                        run.filters.append(try TestFilter(value))
                    } catch {
                        throw UsageError(message: "--filter \(value): \(error.message)", topic: .run)
                    }
                case "--jobs", "-j":
                    run.jobs = try reader.positiveInteger(for: name, inline)
                case "--slowest":
                    run.slowest = try reader.positiveInteger(for: name, inline)
                case "--shard":
                    run.shard = try parseShard(reader.value(for: name, inline))
                case "--svg":
                    let folder = try reader.value(for: name, inline, missing: "option '--svg' needs a folder")
                    guard !folder.isEmpty, folder != "--" else { throw UsageError(message: "option '--svg' needs a folder", topic: .run) }
                    run.svgDirectory = folder
                default:
                    throw reader.unknown(name, known: runOptions)
                }
            }
        }
        try validate(run)
        if run.paths.isEmpty { run.paths = [CLI.defaultFolder] }
        return .run(run)
    }

    private static func parseShard(_ text: String) throws(UsageError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
            throw UsageError(message: "--shard takes I/N with 1 ≤ I ≤ N (e.g. --shard 2/4), not '\(text)'", topic: .run)
        }
        return Shard(index: index, count: count)
    }

    private static func validate(_ run: RunArguments) throws(UsageError) {
        if run.list {
            let conflicting = [("--update", run.update), ("--fail-fast", run.failFast), ("--slowest", run.slowest != nil), ("--quiet", run.quiet),
                               ("--reporter", !run.reporters.isEmpty), ("--svg", run.svgDirectory != nil)].first { $0.1 }
            if let (option, _) = conflicting {
                throw UsageError(message: "--list only prints the tests that would run; it cannot be combined with \(option)", topic: .run)
            }
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
        guard let first = rest.first else { return .operators }
        if first == "--help" || first == "-h" { return .help(topic: .operators) }
        if first.hasPrefix("-") {
            throw UsageError(message: "unknown option '\(first)' for 'marbles operators'" + suggestion(first, in: ["--help"]), topic: .operators)
        }
        throw unexpected(first, after: "operators", topic: .operators)
    }

    // MARK: compare

    static let compareOptions = ["--seed", "--cases", "--no-color", "--help"]

    private static func parseCompare(_ rest: [String]) throws(UsageError) -> Command {
        var compare = CompareArguments()
        var reader = OptionReader(rest, topic: .compare, command: "marbles compare")
        var pipelines: [String] = []
        while let item = reader.next() {
            switch item {
            case .positional(let pipeline): pipelines.append(pipeline)
            case .option(let name, let inline):
                switch name {
                case "--help", "-h": return .help(topic: .compare)
                case "--no-color": try reader.noValue(name, inline); compare.noColor = true
                case "--cases": compare.cases = try reader.positiveInteger(for: name, inline)
                case "--seed":
                    let text = try reader.value(for: name, inline)
                    guard let seed = UInt64(text) else {
                        throw UsageError(message: "--seed takes a whole number of at least 0, not '\(text)'", topic: .compare)
                    }
                    compare.seed = seed
                default: throw reader.unknown(name, known: compareOptions)
                }
            }
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

    static let evalOptions = ["--hot", "--cold", "--values", "--frame", "--subscribe", "--demand", "--until", "--svg", "--no-color", "--help"]

    private static func parseEval(_ rest: [String]) throws(UsageError) -> Command {
        var eval = EvalArguments()
        var reader = OptionReader(rest, topic: .eval, command: "marbles eval")
        while let item = reader.next() {
            switch item {
            case .positional(let expression): eval.expressions.append(expression)
            case .option(let name, let inline):
                switch name {
                case "--help", "-h": return .help(topic: .eval)
                case "--no-color": try reader.noValue(name, inline); eval.noColor = true
                case "--hot", "--cold":
                    let value = try reader.value(for: name, inline)
                    let kind: EvalArguments.SourceKind = name == "--hot" ? .hot : .cold
                    guard let equals = value.firstIndex(of: "=") else {
                        throw UsageError(message: "\(name) takes NAME=MARBLES (e.g. \(name) 'a=-a-b-|'), not '\(value)'", topic: .eval)
                    }
                    let source = value[..<equals].trimmingCharacters(in: " ")
                    guard isIdentifier(source) else {
                        throw UsageError(message: "'\(source)' is not a stream name; \(name) takes NAME=MARBLES", topic: .eval)
                    }
                    eval.sources.append(.init(kind: kind, name: source, marbles: String(value[value.index(after: equals)...]).trimmingCharacters(in: " ")))
                case "--values": eval.values.append(try reader.value(for: name, inline))
                case "--frame": eval.frame = try reader.value(for: name, inline)
                case "--subscribe": eval.subscribe = try reader.value(for: name, inline)
                case "--demand": eval.demand = try reader.value(for: name, inline)
                case "--until":
                    let frame = try reader.positiveInteger(for: name, inline)
                    guard frame < VirtualTimeEnd.last else {
                        throw UsageError(message: "--until takes a frame below \(VirtualTimeEnd.last), where virtual time ends, not \(frame)", topic: .eval)
                    }
                    eval.until = frame
                case "--svg":
                    let file = try reader.value(for: name, inline, missing: "option '--svg' needs a file, or '-' for standard output")
                    guard !file.isEmpty else { throw UsageError(message: "option '--svg' needs a file, or '-' for standard output", topic: .eval) }
                    eval.svg = file
                default: throw reader.unknown(name, known: evalOptions)
                }
            }
        }
        guard !eval.expressions.isEmpty else {
            throw UsageError(message: "missing the expression to evaluate, e.g. 'a.debounce(for: 3, scheduler: RunLoop.main)'", topic: .eval)
        }
        return .eval(eval)
    }

    // MARK: trace

    private static func parseTrace(_ rest: [String]) throws(UsageError) -> Command {
        var path: String?
        var test: String?
        var noColor = false
        var reader = OptionReader(rest, topic: .trace, command: "marbles trace")
        while let item = reader.next() {
            switch item {
            case .positional(let value):
                guard path == nil else { throw unexpected(value, after: path ?? "", topic: .trace) }
                path = value
            case .option(let name, let inline):
                switch name {
                case "--help", "-h": return .help(topic: .trace)
                case "--no-color": try reader.noValue(name, inline); noColor = true
                case "--test": test = try reader.value(for: name, inline)
                default: throw reader.unknown(name, known: ["--test", "--no-color", "--help"])
                }
            }
        }
        guard let path else { throw UsageError(message: "missing the .marble file to trace", topic: .trace) }
        return .trace(TraceArguments(path: path, test: test, noColor: noColor))
    }

    // MARK: fmt

    private static func parseFormat(_ rest: [String]) throws(UsageError) -> Command {
        var format = FormatArguments()
        var reader = OptionReader(rest, topic: .fmt, command: "marbles fmt")
        while let item = reader.next() {
            switch item {
            case .positional(let path): format.paths.append(path)
            case .option(let name, let inline):
                switch name {
                case "--help", "-h": return .help(topic: .fmt)
                case "--check": try reader.noValue(name, inline); format.check = true
                case "--native": try reader.noValue(name, inline); format.native = true
                default: throw reader.unknown(name, known: ["--check", "--native", "--help"])
                }
            }
        }
        if format.paths.isEmpty { format.paths = [CLI.defaultFolder] }
        return .fmt(format)
    }

    // MARK: doc

    private static func parseDoc(_ rest: [String]) throws(UsageError) -> Command {
        var doc = DocArguments()
        var reader = OptionReader(rest, topic: .doc, command: "marbles doc")
        while let item = reader.next() {
            switch item {
            case .positional(let path): doc.paths.append(path)
            case .option(let name, let inline):
                switch name {
                case "--help", "-h": return .help(topic: .doc)
                case "--check": try reader.noValue(name, inline); doc.check = true
                case "-u", "--update": try reader.noValue(name, inline); doc.update = true
                case "--no-color": try reader.noValue(name, inline); doc.noColor = true
                case "--quiet", "-q": try reader.noValue(name, inline); doc.quiet = true
                case "--out":
                    let folder = try reader.value(for: name, inline)
                    guard !folder.isEmpty else { throw UsageError(message: "--out needs a folder", topic: .doc) }
                    doc.out = folder
                case "--catalogue":
                    let folder = try reader.value(for: name, inline)
                    guard !folder.isEmpty else { throw UsageError(message: "--catalogue needs a folder of catalogue files", topic: .doc) }
                    doc.catalogue = folder
                default: throw reader.unknown(name, known: ["--check", "--update", "--out", "--catalogue", "--quiet", "--no-color", "--help"])
                }
            }
        }
        if doc.check && doc.update { throw UsageError(message: "--check writes nothing, so it cannot --update; use one of them", topic: .doc) }
        if doc.paths.isEmpty { throw UsageError(message: "missing the Markdown files or folders to check", topic: .doc) }
        if doc.catalogue != nil {
            guard doc.paths.count == 1, doc.paths[0].hasSuffix(".md") else {
                throw UsageError(message: "--catalogue generates one page: give one .md file to write, e.g. docs/operators.md", topic: .doc)
            }
            if doc.update { throw UsageError(message: "--catalogue pages are generated: update the .marble files, not the page", topic: .doc) }
        }
        return .doc(doc)
    }

    // MARK: Helpers

    private static func isIdentifier(_ text: String) -> Bool {
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

/// Walks the arguments of one command: options (`--name value`, `--name=value`), positional
/// arguments, and `--`, after which everything is positional. A lone `-` is positional.
struct OptionReader {
    enum Item {
        case positional(String)
        /// The option's name, and its value when written as `--name=value`.
        case option(String, inline: String?)
    }

    private let arguments: [String]
    private var index = 0
    private var optionsEnded = false
    let topic: HelpTopic
    let command: String

    init(_ arguments: [String], topic: HelpTopic, command: String) {
        self.arguments = arguments
        self.topic = topic
        self.command = command
    }

    mutating func next() -> Item? {
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" { return .positional(argument) }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                return .option(String(argument[..<equals]), inline: String(argument[argument.index(after: equals)...]))
            }
            return .option(argument, inline: nil)
        }
        return nil
    }

    /// The value of an option: its `=value`, else the next argument.
    mutating func value(for option: String, _ inline: String?, missing: String? = nil) throws(UsageError) -> String {
        if let inline { return inline }
        guard index < arguments.count else {
            throw UsageError(message: missing ?? "\(option) needs a value", topic: topic)
        }
        index += 1
        return arguments[index - 1]
    }

    mutating func positiveInteger(for option: String, _ inline: String?) throws(UsageError) -> Int {
        let text = try value(for: option, inline)
        guard let value = Int(text), value >= 1 else {
            throw UsageError(message: "\(option) takes a whole number of at least 1, not '\(text)'", topic: topic)
        }
        return value
    }

    func noValue(_ option: String, _ inline: String?) throws(UsageError) {
        if inline != nil { throw UsageError(message: "\(option) takes no value", topic: topic) }
    }

    func unknown(_ option: String, known: [String]) -> UsageError {
        UsageError(message: "unknown option '\(option)' for '\(command)'" + ArgumentParser.suggestion(option, in: known), topic: topic)
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
