import MarbleSyntax

// Each option of a command is declared once, as a row of its command's `OptionTable`: its
// names, what value follows it, its help, and what it sets. The table drives the parsing
// (`--name value`, `--name=value`, `--`), the "did you mean" of an unknown option, the options
// part of the command's `--help`, and `marbles completion bash|zsh|fish`. Adding a flag is
// one row, its use, and a test (`OptionTableTests` checks every row against the help and the
// completion scripts).

/// What follows an option's name on the command line.
///
/// A struct rather than an enum with payloads: the tables are `static let`s that live for the
/// whole process, and a multi-payload enum keeps its case in the spare bits of a payload's
/// pointer (here the choices' array), which LeakSanitizer cannot recognise as a pointer. CI's
/// ASan runs then reported every table's choices as leaked by each `marbles` run.
struct OptionValue: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// Nothing: a flag.
        case none
        /// Free text (`TEXT`, `NAME=MARBLES`).
        case text
        /// One of a few words (completed from the list).
        case choice
        /// A file path (completed as files).
        case file
        /// A folder path (completed as folders).
        case folder
    }

    let kind: Kind
    /// The word shown after the option's name in the help, if any.
    let placeholder: String?
    /// The words a `.choice` accepts; empty for the other kinds.
    let choices: [String]

    static let none = OptionValue(kind: .none, placeholder: nil, choices: [])
    static func text(_ placeholder: String) -> OptionValue { OptionValue(kind: .text, placeholder: placeholder, choices: []) }
    static func choice(_ placeholder: String, _ words: [String]) -> OptionValue {
        OptionValue(kind: .choice, placeholder: placeholder, choices: words)
    }
    static func file(_ placeholder: String) -> OptionValue { OptionValue(kind: .file, placeholder: placeholder, choices: []) }
    static func folder(_ placeholder: String) -> OptionValue { OptionValue(kind: .folder, placeholder: placeholder, choices: []) }
}

/// What the parser hands a row's action: the option as written (`-j` or `--jobs`) and its value
/// (empty for a flag).
struct OptionArgument {
    var name: String
    var text: String

    /// The value as a whole number of at least 1.
    func positiveInteger() throws(OptionError) -> Int {
        guard let value = Int(text), value >= 1 else {
            throw OptionError("\(name) takes a whole number of at least 1, not '\(text)'")
        }
        return value
    }

    /// The value, refused when empty.
    func nonEmpty(_ what: String) throws(OptionError) -> String {
        guard !text.isEmpty else { throw OptionError("option '\(name)' needs \(what)") }
        return text
    }
}

/// A mistake on a command line, before it is tied to a command's help.
struct OptionError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

/// One option: declared once, used by the parser, the help and the completion scripts.
struct Option<Arguments: SendableMetatype>: Sendable {
    /// The long name first (`--jobs`), then the short one if any (`-j`).
    let names: [String]
    let value: OptionValue
    /// The help, already wrapped: its lines are indented under each other.
    let help: String
    /// The heading it is listed under in the help ("Reports", "Options").
    let section: String
    /// What the value must be when it is missing ("a folder"); `nil`: "a value".
    let needs: String?
    let apply: @Sendable (inout Arguments, OptionArgument) throws(OptionError) -> Void

    var long: String { names[0] }

    /// A flag: `set` runs when it is given.
    static func flag(_ names: String..., section: String = "Options", help: String,
                     _ set: @escaping @Sendable (inout Arguments) -> Void) -> Option {
        Option(names: names, value: .none, help: help, section: section, needs: nil) { arguments, _ in set(&arguments) }
    }

    /// An option with a value.
    static func value(_ names: String..., takes value: OptionValue, section: String = "Options", needs: String? = nil, help: String,
                      _ apply: @escaping @Sendable (inout Arguments, OptionArgument) throws(OptionError) -> Void) -> Option {
        Option(names: names, value: value, help: help, section: section, needs: needs, apply: apply)
    }

    /// The table row without its action, for help and completion.
    var info: OptionInfo { OptionInfo(names: names, value: value, help: help, section: section) }
}

/// An option as the help and the completion scripts see it.
struct OptionInfo: Equatable, Sendable {
    var names: [String]
    var value: OptionValue
    var help: String
    var section: String

    /// `-j, --jobs N` as the help shows it.
    var label: String {
        let ordered = names.filter { !$0.hasPrefix("--") } + names.filter { $0.hasPrefix("--") }
        return ordered.joined(separator: ", ") + (value.placeholder.map { " " + $0 } ?? "")
    }

    /// The first line of the help, for completion descriptions.
    var summary: String {
        var first = String(help.prefix { $0 != "\n" })
        // A sentence cut at the line's end reads better cut at its last clause.
        if help.contains("\n"), let stop = first.lastIndex(where: { ";,(".contains($0) }) {
            first = String(first[..<stop])
        }
        return first.trimmingCharacters(in: " ")
    }
}

/// Options that several commands share, declared once.
protocol ColourOption { var noColor: Bool { get set } }
protocol QuietOption { var quiet: Bool { get set } }
protocol WatchOption { var watch: Bool { get set } }

extension Option where Arguments: ColourOption {
    static func noColor(section: String = "Options") -> Option {
        .flag("--no-color", section: section, help: "no colour (also off when NO_COLOR is set or the output is not a terminal)") { $0.noColor = true }
    }
}

extension Option where Arguments: WatchOption {
    /// `--watch`, with what a change re-runs.
    static func watch(section: String = "Options", _ what: String) -> Option {
        .flag("-w", "--watch", section: section, help: """
            run, then \(what) on every save until q or Ctrl-C
            (only the files that changed)
            """) { $0.watch = true }
    }
}

/// A command's options: parsing, help and completion from one list.
struct OptionTable<Arguments: SendableMetatype>: Sendable {
    /// The command as messages name it: `marbles run`, `marbles-svg`.
    let command: String
    let topic: HelpTopic
    let options: [Option<Arguments>]
    /// Whether `--version` is one of the options (marbles-svg).
    var version = false

    /// What a command line asked for.
    enum Outcome {
        case arguments(Arguments)
        case help
        case version
    }

    /// Every name the table knows, the implicit `--help` (and `--version`) included.
    var names: [String] {
        options.flatMap(\.names) + ["--help", "-h"] + (version ? ["--version"] : [])
    }

    /// The rows as help and completion see them, with the implicit ones at the end.
    var infos: [OptionInfo] {
        options.map(\.info)
            + [OptionInfo(names: ["--help", "-h"], value: .none, help: "show this help", section: options.last?.section ?? "Options")]
            + (version ? [OptionInfo(names: ["--version"], value: .none, help: "print the version", section: options.last?.section ?? "Options")] : [])
    }

    /// Walks `arguments`: options (`--name value`, `--name=value`), positional arguments
    /// (handed to `positional`), and `--`, after which everything is positional. A lone `-` is
    /// positional. `-h`/`--help` anywhere asks for the help.
    func parse(_ arguments: [String], into initial: Arguments,
               positional: (inout Arguments, String) throws(OptionError) -> Void) throws(UsageError) -> Outcome {
        var result = initial
        var index = 0
        var optionsEnded = false
        do throws(OptionError) {
            while index < arguments.count {
                let argument = arguments[index]
                index += 1
                if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                    try positional(&result, argument)
                    continue
                }
                if argument == "--" {
                    optionsEnded = true
                    continue
                }
                var name = argument
                var inline: String?
                if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    inline = String(argument[argument.index(after: equals)...])
                }
                if name == "--help" || name == "-h" { return .help }
                if version && name == "--version" { return .version }
                guard let option = options.first(where: { $0.names.contains(name) }) else {
                    throw OptionError("unknown option '\(name)' for '\(command)'" + ArgumentParser.suggestion(name, in: names))
                }
                var text = ""
                if option.value == .none {
                    if inline != nil { throw OptionError("option '\(name)' takes no value") }
                } else if let inline {
                    text = inline
                } else {
                    guard index < arguments.count else { throw OptionError("option '\(name)' needs \(option.needs ?? "a value")") }
                    text = arguments[index]
                    index += 1
                }
                if option.value.kind == .choice, case let words = option.value.choices, !words.contains(text) {
                    throw OptionError("unknown \(name.drop { $0 == "-" }) '\(text)'" + ArgumentParser.suggestion(text, in: words)
                                      + " (known: " + words.joined(separator: ", ") + ")")
                }
                try option.apply(&result, OptionArgument(name: name, text: text))
            }
        } catch {
            throw UsageError(message: error.message, topic: topic)
        }
        return .arguments(result)
    }

    /// The options part of the help: each section's heading, then a line per option, its help
    /// in a column (under the label when the label is too wide).
    var help: String {
        let rows = infos
        let widest = rows.map(\.label.count).filter { $0 <= 22 }.max() ?? 10
        let column = widest + 4
        var sections: [String] = []
        var bySection: [String: [String]] = [:]
        for row in rows {
            if bySection[row.section] == nil { sections.append(row.section) }
            let helpLines = row.help.split(separator: "\n", omittingEmptySubsequences: false)
            var lines: [String] = []
            let label = "  " + row.label
            if label.count + 2 > column {
                lines.append(label)
                lines += helpLines.map { String(repeating: " ", count: column) + $0 }
            } else {
                let pad = String(repeating: " ", count: column - label.count)
                lines.append(label + pad + (helpLines.first ?? ""))
                lines += helpLines.dropFirst().map { String(repeating: " ", count: column) + $0 }
            }
            bySection[row.section, default: []] += lines
        }
        if let last = sections.last {
            let label = "  --"
            bySection[last, default: []].append(label + String(repeating: " ", count: max(2, column - label.count)) + "treat every later argument as an operand")
        }
        return sections.map { section in
            "\(section):\n" + (bySection[section] ?? []).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}
