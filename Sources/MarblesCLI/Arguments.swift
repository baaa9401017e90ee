import MarbleSyntax

/// What the command line asks for.
enum Command: Equatable {
    case help(topic: HelpTopic)
    case version
    case run(RunArguments)
    case operators
}

enum HelpTopic: Equatable {
    case general, run, operators
}

struct RunArguments: Equatable {
    /// Files and folders, as given; `marbles/` when none is given.
    var paths: [String] = []
    var noColor = false
    /// `--svg DIR`: write a diagram of every failing test there (see SVGCommand.swift).
    var svgDirectory: String?
}

/// A command line that cannot be understood: the message, and which usage to show with it.
struct UsageError: Error, Equatable {
    var message: String
    var topic: HelpTopic
}

/// Parses `marbles COMMAND [ARGUMENTS…]` (the program name already removed).
enum ArgumentParser {
    static let commands = ["run", "operators", "help"]

    static func parse(_ arguments: [String]) -> Result<Command, UsageError> {
        guard let first = arguments.first else {
            return .failure(UsageError(message: "missing command", topic: .general))
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h":
            return rest.isEmpty ? .success(.help(topic: .general)) : .failure(unexpected(rest[0], after: first, topic: .general))
        case "--version":
            return rest.isEmpty ? .success(.version) : .failure(unexpected(rest[0], after: first, topic: .general))
        case "help":
            return parseHelp(rest)
        case "run":
            return parseRun(rest)
        case "operators":
            return parseOperators(rest)
        default:
            if first.hasPrefix("-") {
                return .failure(UsageError(message: "unknown option '\(first)'" + suggestion(first, in: ["--help", "--version"]), topic: .general))
            }
            return .failure(UsageError(message: "unknown command '\(first)'" + suggestion(first, in: commands), topic: .general))
        }
    }

    private static func parseHelp(_ rest: [String]) -> Result<Command, UsageError> {
        switch rest.first {
        case nil: return .success(.help(topic: .general))
        case "run"? where rest.count == 1: return .success(.help(topic: .run))
        case "operators"? where rest.count == 1: return .success(.help(topic: .operators))
        case let topic? where rest.count == 1:
            return .failure(UsageError(message: "no help for unknown command '\(topic)'" + suggestion(topic, in: commands), topic: .general))
        default:
            return .failure(unexpected(rest[1], after: "help \(rest[0])", topic: .general))
        }
    }

    private static func parseRun(_ rest: [String]) -> Result<Command, UsageError> {
        var run = RunArguments()
        var rest = rest
        switch FailureDiagrams.takeOption(from: &rest) {  // `--svg DIR`, SVGCommand.swift
        case .failure(let error): return .failure(error)
        case .success(let folder): run.svgDirectory = folder
        }
        var optionsEnded = false
        for argument in rest {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                run.paths.append(argument)
                continue
            }
            switch argument {
            case "--": optionsEnded = true
            case "--no-color": run.noColor = true
            case "--help", "-h": return .success(.help(topic: .run))
            default:
                return .failure(UsageError(message: "unknown option '\(argument)' for 'marbles run'" + suggestion(argument, in: ["--no-color", "--svg", "--help"]), topic: .run))
            }
        }
        if run.paths.isEmpty { run.paths = [CLI.defaultFolder] }
        return .success(.run(run))
    }

    private static func parseOperators(_ rest: [String]) -> Result<Command, UsageError> {
        guard let first = rest.first else { return .success(.operators) }
        if first == "--help" || first == "-h" { return .success(.help(topic: .operators)) }
        if first.hasPrefix("-") {
            return .failure(UsageError(message: "unknown option '\(first)' for 'marbles operators'" + suggestion(first, in: ["--help"]), topic: .operators))
        }
        return .failure(unexpected(first, after: "operators", topic: .operators))
    }

    private static func unexpected(_ argument: String, after: String, topic: HelpTopic) -> UsageError {
        UsageError(message: "unexpected argument '\(argument)' after '\(after)'", topic: topic)
    }

    private static func suggestion(_ word: String, in candidates: [String]) -> String {
        Suggestions.nearest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
