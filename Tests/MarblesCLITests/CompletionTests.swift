import Foundation
import Testing
@testable import MarblesCLI

/// Runs `program` with `arguments` (found on PATH) and returns its exit status and output.
func runProgram(_ program: String, _ arguments: [String], in folder: String? = nil) throws -> (code: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errors = EndToEndTests.ErrorCollector()
    let drain = Thread { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }
    drain.start()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors.wait(), as: UTF8.self))
}

/// Whether `program` is on PATH.
func installed(_ program: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains { folder in
        FileManager.default.isExecutableFile(atPath: "\(folder)/\(program)")
    }
}

/// Every option of every command's table is in the command's help and in each completion
/// script, and the scripts complete what the tables say (bash and fish run for real; zsh is
/// checked for syntax, as driving its completion needs a terminal).
@Suite("marbles completion and the option tables")
struct CompletionTests {
    /// Each command with its table's options, and how to ask for its help.
    static let commands: [(entry: CommandEntry, help: [String])] =
        (CommandList.entries + [CommandList.help]).map { ($0, [$0.name, "--help"]) }

    @Test func everyOptionIsInItsCommandsHelp() {
        for (entry, help) in Self.commands {
            let text = marbles(help).stdout
            for option in entry.options {
                #expect(text.contains("  " + option.label), "marbles \(entry.name) --help lacks \(option.label)")
            }
        }
        let svgHelp = marblesSVG("--help").stdout
        for option in CommandList.svg.options {
            #expect(svgHelp.contains("  " + option.label), "marbles-svg --help lacks \(option.label)")
        }
        let general = marbles("--help").stdout
        for entry in CommandList.entries { #expect(general.contains("\n  \(entry.synopsis) "), "marbles --help lacks \(entry.name)") }
    }

    @Test(arguments: CompletionShell.allCases)
    func everyCommandAndOptionIsInEachScript(_ shell: CompletionShell) {
        let run = marbles("completion", shell.rawValue)
        #expect(run.code == 0)
        #expect(run.stderr.isEmpty)
        let script = run.stdout
        for (entry, _) in Self.commands {
            #expect(script.contains(entry.name), "the \(shell) script lacks the command \(entry.name)")
            for option in entry.options {
                for name in option.names {
                    // bash lists names as words; zsh writes {-j,--jobs}; fish -l jobs / -s j.
                    let spelled = shell == .fish ? (name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : "-s \(name.dropFirst())") : name
                    #expect(script.contains(spelled), "the \(shell) script lacks \(name) of \(entry.name)")
                }
            }
        }
    }

    @Test func unknownShellIsAUsageErrorWithASuggestion() {
        let run = marbles("completion", "bsh")
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("marbles: error: unknown shell 'bsh'; did you mean 'bash'? (known: bash, zsh, fish)\nusage: marbles completion bash|zsh|fish\n"))
        #expect(marbles("completion").stderr.hasPrefix("marbles: error: missing the shell: bash, zsh, fish\n"))
    }

    @Test func aChoiceIsCheckedAgainstItsWords() {
        #expect(marbles("run", "--reporter", "junt").stderr.hasPrefix("marbles: error: unknown reporter 'junt'; did you mean 'junit'? (known: human, junit, tap, json, github)\n"))
        #expect(marblesSVG("--theme", "drak").stderr.hasPrefix("marbles-svg: error: unknown theme 'drak'; did you mean 'dark'? (known: auto, light, dark, both)\n"))
    }

    // MARK: bash, for real

    /// What bash's completion offers for `line` (the cursor at its end), one word per line, sorted.
    static func bashCompletions(_ lines: [String], in folder: String) throws -> [[String]] {
        let sandbox = try Sandbox(["completion.bash": marbles("completion", "bash").stdout])
        var program = "source \(sandbox.path("completion.bash"))\n"
        for line in lines {
            // COMP_WORDS as bash splits a line: at spaces, and `=` as a word of its own.
            let words = line.replacing("=", with: " = ").split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                + (line.hasSuffix(" ") ? [""] : [])
            let function = words[0] == "marbles-svg" ? "_marbles_svg" : "_marbles"
            program += "COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1); COMPREPLY=()\n"
            program += "\(function); printf '%s\\n' \"${COMPREPLY[@]}\" | sort; echo '--end--'\n"
        }
        try sandbox.write("driver.bash", program)
        let result = try runProgram("bash", ["--norc", "--noprofile", sandbox.path("driver.bash")], in: folder)
        #expect(result.stderr.isEmpty, "bash said: \(result.stderr)")
        return result.stdout.split(separator: "--end--\n", omittingEmptySubsequences: false).dropLast().map { block in
            block.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        }
    }

    @Test func bashCompletesCommandsOptionsValuesAndPaths() throws {
        let sandbox = try Sandbox(["specs/a.marble": "", "specs/b.md": "", "specs/notes.txt": "", "top.marble": ""])
        let lines = ["marbles ", "marbles r", "marbles run --rep", "marbles run --reporter ", "marbles run --reporter=j", "marbles run sp",
                     "marbles run specs/", "marbles doc specs/", "marbles run -- --", "marbles completion ", "marbles help f",
                     "marbles-svg --theme ", "marbles-svg --w", "marbles fmt --"]
        let got = try Self.bashCompletions(lines, in: sandbox.path())
        try #require(got.count == lines.count)
        let commands = (CommandList.entries + [CommandList.help]).map(\.name) + ["--help", "-h", "--version"]
        #expect(got[0] == commands.sorted())
        #expect(got[1] == ["run"])
        #expect(got[2] == ["--reporter"])
        #expect(got[3] == ["github", "human", "json", "junit", "tap"])
        #expect(got[4] == ["json", "junit"])
        #expect(got[5] == ["specs"])
        #expect(got[6] == ["specs/a.marble"])
        #expect(got[7] == ["specs/b.md"])
        #expect(got[8] == [], "after --, only paths")
        #expect(got[9] == ["bash", "fish", "zsh"])
        #expect(got[10] == ["fmt"])
        #expect(got[11] == ["auto", "both", "dark", "light"])
        #expect(got[12] == ["--watch"])
        #expect(got[13] == ["--check", "--help", "--native"])
    }

    @Test func bashOffersEveryOptionOfEveryCommand() throws {
        let sandbox = try Sandbox()
        let entries = Self.commands.map(\.entry).filter { !$0.options.isEmpty } + [CommandList.svg]
        let got = try Self.bashCompletions(entries.map { ($0.name == "marbles-svg" ? "marbles-svg" : "marbles \($0.name)") + " -" }, in: sandbox.path())
        try #require(got.count == entries.count)
        for (entry, offered) in zip(entries, got) {
            #expect(offered == entry.options.flatMap(\.names).sorted(), "marbles \(entry.name)")
        }
    }

    // MARK: fish and zsh

    @Test(.enabled(if: installed("fish"), "fish is not installed (apt-get install fish)"))
    func fishCompletesCommandsOptionsAndValues() throws {
        let sandbox = try Sandbox(["marbles.fish": marbles("completion", "fish").stdout, "specs/a.marble": ""])
        let syntax = try runProgram("fish", ["--no-execute", sandbox.path("marbles.fish")])
        #expect(syntax.code == 0, "fish -n: \(syntax.stderr)")
        func complete(_ line: String) throws -> [String] {
            let result = try runProgram("fish", ["--no-config", "-c", "source \(sandbox.path("marbles.fish")); complete -C '\(line)'"], in: sandbox.path())
            #expect(result.stderr.isEmpty, "fish said: \(result.stderr)")
            return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
        }
        #expect(try complete("marbles r") == ["run"])
        #expect(try complete("marbles run --rep") == ["--reporter"])
        #expect(try complete("marbles run --reporter ") == ["github", "human", "json", "junit", "tap"])
        #expect(try complete("marbles-svg --theme ") == ["auto", "both", "dark", "light"])
        #expect(try complete("marbles run specs/").contains("specs/a.marble"))
        for entry in Self.commands.map(\.entry) where !entry.options.isEmpty {
            let offered = try complete("marbles \(entry.name) --")
            for option in entry.options {
                for name in option.names where name.hasPrefix("--") {
                    #expect(offered.contains(name), "fish offers no \(name) for marbles \(entry.name)")
                }
            }
        }
    }

    @Test(.enabled(if: installed("zsh"), "zsh is not installed (apt-get install zsh)"))
    func zshScriptIsValid() throws {
        let sandbox = try Sandbox(["marbles.zsh": marbles("completion", "zsh").stdout])
        let syntax = try runProgram("zsh", ["-n", sandbox.path("marbles.zsh")])
        #expect(syntax.code == 0, "zsh -n: \(syntax.stderr)")
        // Loaded after compinit, it registers both programs.
        let loaded = try runProgram("zsh", ["-f", "-c", "autoload -U compinit && compinit -u -D && source \(sandbox.path("marbles.zsh")) && print -r -- $_comps[marbles] $_comps[marbles-svg]"])
        #expect(loaded.stdout == "_marbles _marbles_svg\n", "zsh said: \(loaded.stderr)")
    }
}
