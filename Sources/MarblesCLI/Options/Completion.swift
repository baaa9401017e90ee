// `marbles completion bash|zsh|fish`: a script that completes the commands, the options, the
// values of options with a fixed set (`--reporter`, `--theme`), files and folders where an
// option takes one, and `.marble` (or, for `doc`, `.md`) paths, for `marbles` and
// `marbles-svg`. Everything comes from the option tables (CommandOptions.swift) and the
// command list (`CommandList`), so a new option is completed as soon as it is declared.

/// The shells `marbles completion` writes a script for.
enum CompletionShell: String, CaseIterable, Equatable, Sendable {
    case bash, zsh, fish
}

/// What a command takes besides its options.
enum Operands: Equatable, Sendable {
    /// `.marble` files and folders.
    case marblePaths
    /// Markdown files and folders.
    case markdownPaths
    /// One of a few words.
    case words([String])
    /// Text the shell cannot guess (expressions).
    case text
    /// Nothing.
    case none

    var fileExtension: String? {
        switch self {
        case .marblePaths: return "marble"
        case .markdownPaths: return "md"
        default: return nil
        }
    }
}

/// A command as the general help and the completion scripts see it.
struct CommandEntry: Sendable {
    var name: String
    /// `run [PATH…]`, as the general help lists it.
    var synopsis: String
    /// What it does, wrapped; the first line is the completion's description.
    var summary: String
    var options: [OptionInfo]
    var operands: Operands
}

/// The commands of `marbles`, in the order the help lists them.
enum CommandList {
    static let entries: [CommandEntry] = [
        CommandEntry(name: "run", synopsis: "run [PATH…]", summary: """
            run the tests in .marble files; folders are searched recursively
            (default: \(CLI.defaultFolder))
            """, options: CommandOptions.run.infos, operands: .marblePaths),
        CommandEntry(name: "eval", synopsis: "eval EXPR", summary: "run one expression over sources given on the command line",
                     options: CommandOptions.eval.infos, operands: .text),
        CommandEntry(name: "compare", synopsis: "compare P Q", summary: "search generated inputs for one on which two pipelines differ",
                     options: CommandOptions.compare.infos, operands: .text),
        CommandEntry(name: "trace", synopsis: "trace FILE", summary: "every subscription, request, value, completion and cancel of a run",
                     options: CommandOptions.trace.infos, operands: .marblePaths),
        CommandEntry(name: "fmt", synopsis: "fmt [PATH…]", summary: "align the marbles of each test frame by frame",
                     options: CommandOptions.fmt.infos, operands: .marblePaths),
        CommandEntry(name: "doc", synopsis: "doc PATH…", summary: """
            run the ```marble blocks of Markdown files and DocC articles, and
            draw their diagrams into the documents
            """, options: CommandOptions.doc.infos, operands: .markdownPaths),
        CommandEntry(name: "operators", synopsis: "operators", summary: "list the operators and publishers the .marble language knows",
                     options: CommandOptions.operators.infos, operands: .none),
        CommandEntry(name: "lsp", synopsis: "lsp", summary: "a language server for editors, on standard input and output",
                     options: CommandOptions.lsp.infos, operands: .none),
        CommandEntry(name: "completion", synopsis: "completion SHELL", summary: "print a completion script for bash, zsh or fish",
                     options: CommandOptions.completion.infos, operands: .words(CompletionShell.allCases.map(\.rawValue))),
    ]

    /// `help COMMAND`.
    static var help: CommandEntry {
        CommandEntry(name: "help", synopsis: "help [COMMAND]", summary: "show this help, or a command's", options: [],
                     operands: .words(entries.map(\.name)))
    }

    /// `marbles-svg`, a program of its own.
    static var svg: CommandEntry {
        CommandEntry(name: "marbles-svg", synopsis: "marbles-svg [PATH…]", summary: "SVG marble diagrams of the tests in .marble files",
                     options: CommandOptions.svg.infos, operands: .marblePaths)
    }

    /// The "Commands:" part of the general help.
    static var helpText: String {
        let all = entries + [help]
        let column = (all.map(\.synopsis.count).max() ?? 10) + 4
        return all.flatMap { entry in
            let lines = entry.summary.split(separator: "\n", omittingEmptySubsequences: false)
            let first = "  " + entry.synopsis + String(repeating: " ", count: column - entry.synopsis.count - 2) + (lines.first ?? "")
            return [first] + lines.dropFirst().map { String(repeating: " ", count: column) + $0 }
        }.joined(separator: "\n")
    }
}

enum CompletionScript {
    static func script(for shell: CompletionShell) -> String {
        switch shell {
        case .bash: return bash
        case .zsh: return zsh
        case .fish: return fish
        }
    }

    private static let programOptions = ["--help", "-h", "--version"]

    /// The options of `command` whose value is a fixed word, a file, a folder or free text.
    private static func valued(_ command: CommandEntry) -> [OptionInfo] { command.options.filter { $0.value != .none } }

    // MARK: bash

    static var bash: String {
        var script = """
            # bash completion for marbles and marbles-svg, written by `marbles completion bash`.
            # Load it with: source <(marbles completion bash)

            # Adds the folders and the files ending in .$1 that start with $2.
            _marbles_paths() {
                local IFS=$'\\n'
                compopt -o filenames 2>/dev/null
                COMPREPLY+=( $(compgen -d -- "$2") )
                [[ -n "$1" ]] && COMPREPLY+=( $(compgen -f -X "!*.$1" -- "$2") )
            }

            # Completes the word at COMP_CWORD for a command whose options are $1 and operands $2
            # ("marble", "md", "words:A B", or nothing), the words of the command line starting
            # at index $3. Sets `prev` for the caller's option values first.
            _marbles_words() {
                local options="$1" operands="$2" first="$3"
                local cur="${COMP_WORDS[COMP_CWORD]}" index
                [[ "$cur" == "=" ]] && cur=""
                for (( index = first; index < COMP_CWORD; index++ )); do
                    if [[ "${COMP_WORDS[index]}" == "--" ]]; then options=""; break; fi
                done
                if [[ -n "$options" && "$cur" == -* ]]; then
                    COMPREPLY=( $(compgen -W "$options" -- "$cur") )
                    return
                fi
                case "$operands" in
                    marble) _marbles_paths marble "$cur" ;;
                    md) _marbles_paths md "$cur" ;;
                    words:*) COMPREPLY=( $(compgen -W "${operands#words:}" -- "$cur") ) ;;
                esac
            }

            # The option before the word being completed (`--reporter j`, `--reporter=j`), and that word.
            _marbles_previous() {
                prev="${COMP_WORDS[COMP_CWORD-1]}"
                cur="${COMP_WORDS[COMP_CWORD]}"
                if [[ "$cur" == "=" ]]; then cur=""
                elif [[ "$prev" == "=" && COMP_CWORD -ge 2 ]]; then prev="${COMP_WORDS[COMP_CWORD-2]}"
                fi
            }

            """
        func valueCases(_ command: CommandEntry, indent: String) -> String {
            valued(command).map { option in
                let names = option.names.joined(separator: "|")
                let action: String
                switch option.value.kind {
                case .choice: action = "COMPREPLY=( $(compgen -W \"\(option.value.choices.joined(separator: " "))\" -- \"$cur\") )"
                case .file: action = "compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- \"$cur\") )"
                case .folder: action = "compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -d -- \"$cur\") )"
                case .text, .none: action = ":"
                }
                return "\(indent)\(names)) \(action); return ;;"
            }.joined(separator: "\n")
        }
        func operandWord(_ operands: Operands) -> String {
            switch operands {
            case .marblePaths: return "marble"
            case .markdownPaths: return "md"
            case .words(let words): return "words:" + words.joined(separator: " ")
            case .text, .none: return ""
            }
        }
        func optionWords(_ command: CommandEntry) -> String { command.options.flatMap(\.names).joined(separator: " ") }

        let commands = CommandList.entries + [CommandList.help]
        script += """
            _marbles() {
                local cur prev
                _marbles_previous
                COMPREPLY=()
                if (( COMP_CWORD == 1 )); then
                    COMPREPLY=( $(compgen -W "\(commands.map(\.name).joined(separator: " ")) \(programOptions.joined(separator: " "))" -- "$cur") )
                    return
                fi
                case "${COMP_WORDS[1]}" in

            """
        for command in commands {
            let cases = valueCases(command, indent: "                    ")
            script += "        \(command.name))\n"
            if !cases.isEmpty {
                script += "            case \"$prev\" in\n\(cases)\n            esac\n"
            }
            script += "            _marbles_words \"\(optionWords(command))\" \"\(operandWord(command.operands))\" 2 ;;\n"
        }
        let svg = CommandList.svg
        script += """
                esac
            }

            _marbles_svg() {
                local cur prev
                _marbles_previous
                COMPREPLY=()
                case "$prev" in
            \(valueCases(svg, indent: "        "))
                esac
                _marbles_words "\(optionWords(svg))" "\(operandWord(svg.operands))" 1
            }

            complete -F _marbles marbles
            complete -F _marbles_svg marbles-svg

            """
        return script
    }

    // MARK: zsh

    /// Text inside a single-quoted `_arguments` spec: no brackets or colons of its own.
    private static func zshDescription(_ text: String) -> String {
        text.replacing("'", with: "'\\''").replacing("[", with: "(").replacing("]", with: ")").replacing(":", with: "\\:")
    }

    private static func zshSpecs(_ command: CommandEntry) -> [String] {
        var specs: [String] = []
        for option in command.options {
            let description = zshDescription(option.summary)
            let action: String
            let name = zshDescription(option.value.placeholder?.lowercased() ?? "")
            switch option.value.kind {
            case .none: action = ""
            case .choice: action = ":\(name):(\(option.value.choices.joined(separator: " ")))"
            case .file: action = ":\(name):_files"
            case .folder: action = ":\(name):_files -/"
            case .text: action = ":\(name): "
            }
            // Options that may be repeated are marked with `*`; the others leave the list once given.
            let names = option.names.count == 1 ? option.names[0] : "{" + option.names.joined(separator: ",") + "}"
            let exclusion = option.names.count == 1 ? "" : "(" + option.names.joined(separator: " ") + ")"
            let repeatable = ["--reporter", "--output", "--filter", "--hot", "--cold", "--values"].contains(option.names[0])
            let spec = "'\(repeatable ? "*" : exclusion)'\(names)'[\(description)]\(action)'"
            specs.append(spec)
        }
        switch command.operands {
        case .marblePaths: specs.append("'*:.marble file or folder:_files -g \"*.marble(-.)\"'")
        case .markdownPaths: specs.append("'*:Markdown file or folder:_files -g \"*.md(-.)\"'")
        case .words(let words): specs.append("'1:argument:(\(words.joined(separator: " ")))'")
        case .text: specs.append("'*:expression: '")
        case .none: break
        }
        return specs
    }

    static var zsh: String {
        let commands = CommandList.entries + [CommandList.help]
        var script = """
            #compdef marbles marbles-svg
            # zsh completion for marbles and marbles-svg, written by `marbles completion zsh`.
            # Load it after compinit with: source <(marbles completion zsh)

            _marbles() {
              local -a commands
              commands=(

            """
        for command in commands {
            script += "    '\(command.name):\(zshDescription(command.summary.split(separator: "\n").first.map(String.init) ?? ""))'\n"
        }
        script += """
              )
              if (( CURRENT == 2 )); then
                _describe -t commands 'marbles command' commands
                compadd -- \(programOptions.joined(separator: " "))
                return
              fi
              local command=${words[2]}
              shift words
              (( CURRENT-- ))
              case $command in

            """
        for command in commands {
            script += "    \(command.name))\n      _arguments -s \\\n"
            script += zshSpecs(command).map { "        " + $0 }.joined(separator: " \\\n")
            script += "\n      ;;\n"
        }
        script += """
              esac
            }

            _marbles_svg() {
              _arguments -s \\

            """
        script += zshSpecs(CommandList.svg).map { "    " + $0 }.joined(separator: " \\\n")
        script += """

            }

            compdef _marbles marbles
            compdef _marbles_svg marbles-svg

            """
        return script
    }

    // MARK: fish

    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    private static func fishLines(_ command: CommandEntry, program: String, condition: String?) -> [String] {
        let when = condition.map { " -n " + fishQuoted($0) } ?? ""
        var lines: [String] = []
        for option in command.options {
            var line = "complete -c \(program)\(when)"
            for name in option.names {
                line += name.hasPrefix("--") ? " -l \(name.dropFirst(2))" : " -s \(name.dropFirst())"
            }
            switch option.value.kind {
            case .none: break
            case .choice: line += " -x -a " + fishQuoted(option.value.choices.joined(separator: " "))
            case .file: line += " -r -F"
            case .folder: line += " -x -a '(__fish_complete_directories)'"
            case .text: line += " -x"
            }
            lines.append(line + " -d " + fishQuoted(option.summary))
        }
        switch command.operands {
        case .marblePaths: lines.append("complete -c \(program)\(when) -a '(__fish_complete_suffix .marble)'")
        case .markdownPaths: lines.append("complete -c \(program)\(when) -a '(__fish_complete_suffix .md)'")
        case .words(let words): lines.append("complete -c \(program)\(when) -a " + fishQuoted(words.joined(separator: " ")))
        case .text, .none: break
        }
        return lines
    }

    static var fish: String {
        let commands = CommandList.entries + [CommandList.help]
        var lines = [
            "# fish completion for marbles and marbles-svg, written by `marbles completion fish`.",
            "# Install it with: marbles completion fish > ~/.config/fish/completions/marbles.fish",
            "",
            "# The command line so far names no command yet.",
            "function __marbles_needs_command",
            "    test (count (commandline -opc)) -eq 1",
            "end",
            "# The command line so far is `marbles $argv[1] …`.",
            "function __marbles_using",
            "    set -l tokens (commandline -opc)",
            "    test (count $tokens) -ge 2; and test \"$tokens[2]\" = \"$argv[1]\"",
            "end",
            "",
            "complete -c marbles -f",
            "complete -c marbles -n __marbles_needs_command -l help -s h -d 'show the help'",
            "complete -c marbles -n __marbles_needs_command -l version -d 'print the version'",
        ]
        for command in commands {
            lines.append("complete -c marbles -n __marbles_needs_command -a \(command.name) -d "
                         + fishQuoted(command.summary.split(separator: "\n").first.map(String.init) ?? ""))
        }
        for command in commands {
            lines.append("")
            lines += fishLines(command, program: "marbles", condition: "__marbles_using \(command.name)")
        }
        lines += ["", "complete -c marbles-svg -f"] + fishLines(CommandList.svg, program: "marbles-svg", condition: nil)
        return lines.joined(separator: "\n") + "\n"
    }
}
