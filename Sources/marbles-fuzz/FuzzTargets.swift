import Foundation
import MarbleDiagram
import MarbleDiff
import MarbleLanguageServer
import MarbleNotation
import MarbleRewrite
import MarbleSpec
import MarbleSyntax
import MarblesCLI

// Fuzz targets for libFuzzer (`make fuzz`): each takes arbitrary bytes through one parser, a
// whole run, or a command, and must return — never trap, never hang past the limits — with its
// properties kept (a broken property traps with its name, so libFuzzer keeps the input). The
// target is chosen by MARBLES_FUZZ_TARGET:
//
// - `notation`: marble strings, every line kind; `file`: the .marble file parser;
//   `expression`: the expression parser; `run`: parse, prepare, run.
// - `svg`: every input `run` accepts, drawn: each test's SVG diagram (it must end as an SVG
//   does) and the text diff of each failing check (`marbles-svg`, `run --svg`, the human report).
// - `doc`: the input as a Markdown document through `marbles doc`: a second run over what the
//   first wrote (document and diagrams) must change nothing — which is what `--check` verifies.
// - `fmt`: `marbles fmt` moves only spaces and tabs (every line keeps its other characters and
//   its line break), and formatting its output again changes nothing.
// - `update`: `marbles run --update` changes only the marbles of `expect` lines (the statement
//   before them and a trailing comment keep their bytes; a line added or removed is an
//   `expect NAME.subscriptions` line), and a second `--update` changes nothing.
// - `argv`: the input, split at NUL bytes, as a command line (`marbles …`, or `marbles-svg …`
//   when the first argument says so) run in a scratch folder of a few files; it must exit 0, 1
//   or 2. An argument with `/` or `..` is skipped, so nothing outside the folder is touched, and
//   so is a command that waits (`watch`, `lsp`) or asks for minutes (`compare` past 100 cases).
// - `lsp`: the input as what an editor writes to `marbles lsp` (framed JSON-RPC messages): the
//   server must read it to its end and stop with 0 or 1, answering whatever it holds.
//
// Built with `-sanitize=fuzzer,address -D FUZZING`, `main` runs libFuzzer's driver. Built
// normally (as `swift build` does), `main` replays the files given as arguments through the
// same target, so a corpus or a crash found by the fuzzer is a plain regression run.

enum FuzzTarget: String {
    case notation, file, expression, run, svg, doc, fmt, update, argv, lsp

    static var selected: FuzzTarget {
        ProcessInfo.processInfo.environment["MARBLES_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:)) ?? .run
    }

    func run(_ data: Data) {
        // The server reads bytes, UTF-8 or not.
        if self == .lsp { return Probes.languageServer(data) }
        // Inputs that are not UTF-8 are reported as such by the CLI before any parser sees them.
        guard let text = String(data: data, encoding: .utf8) else { return }
        switch self {
        case .notation:
            let parser = MarbleParser(frameNanoseconds: 1_000_000)
            for kind in [MarbleLineKind.hot, .cold, .expect, .subscription, .demand] {
                _ = try? parser.parse(text, as: kind)
            }
        case .file:
            _ = MarbleFileParser.parse(text)
        case .expression:
            _ = try? MarbleFileParser.parseExpression(text, at: SourceLocation(line: 1, column: 1))
        case .run:
            _ = MarbleRunner.run(source: text, path: "fuzz.marble")
        case .svg:
            Probes.draw(text)
        case .doc:
            if let broken = FuzzProbes.docRoundTrip(text) { Probes.fail("doc", broken) }
        case .fmt:
            Probes.format(text)
        case .update:
            Probes.update(text)
        case .argv:
            Probes.commandLine(text)
        case .lsp:
            break
        }
    }
}

/// The properties of the targets beyond "never traps".
enum Probes {
    /// A broken property: traps with its name, which libFuzzer reports and keeps the input of.
    static func fail(_ target: String, _ what: String) -> Never {
        fatalError("\(target): \(what)")
    }

    static func draw(_ text: String) {
        let report = MarbleRunner.run(source: text, path: "fuzz.marble")
        for test in report.tests {
            let svg = MarbleDiagram.svg(for: test, path: "fuzz.marble", values: test.namedValues)
            guard svg.hasPrefix("<svg"), svg.hasSuffix("</svg>\n") else { fail("svg", "the diagram of \"\(test.name)\" is not a whole SVG") }
            for check in test.checks where !check.passed {
                _ = TextDiagramLayout(failing: check, of: test, labelled: test.checks.count > 1, indent: 4).lines()
            }
        }
    }

    static func format(_ text: String) {
        guard case .success(let formatted) = MarbleFormatter.format(text) else { return }
        // fmt trims trailing blanks: a last line of blanks without a newline becomes empty, and an
        // empty last line without a newline is no line (found by CI's fuzz run: "  " at the end).
        // Such a last line is left out of both sides' count.
        func lines(_ text: String) -> [SourceLines.Line] {
            var lines = SourceLines(text).lines
            if let last = lines.last, last.terminator.isEmpty, last.content.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeLast() }
            return lines
        }
        let before = lines(text)
        let after = lines(formatted)
        guard before.count == after.count else { fail("fmt", "\(before.count) lines became \(after.count)") }
        for (number, (old, new)) in zip(before, after).enumerated() {
            guard old.terminator == new.terminator, old.content.filter({ $0 != " " && $0 != "\t" }) == new.content.filter({ $0 != " " && $0 != "\t" }) else {
                fail("fmt", "line \(number + 1) changed more than its spaces: \(String(old.content).debugDescription) → \(String(new.content).debugDescription)")
            }
        }
        guard case .success(let again) = MarbleFormatter.format(formatted), again == formatted else { fail("fmt", "formatting the output again changes it") }
    }

    static func update(_ text: String) {
        let report = MarbleRunner.run(source: text, path: "fuzz.marble")
        guard case .success(let first) = SnapshotWriter.rewrite(source: text, report: report, path: "fuzz.marble", options: RunOptions()),
              first.source != text else { return }
        // Bytes outside the marbles of the rewritten `expect` lines are kept.
        var expectLines: [Int: MarbleText] = [:]
        for test in MarbleFileParser.parse(text).file.tests {
            for statement in test.statements {
                if case .expect(_, _, let marbles) = statement.kind { expectLines[marbles.location.line] = marbles }
            }
        }
        for change in SnapshotWriter.changes(from: text, to: first.source) {
            switch (change.before, change.after) {
            case (let before?, let after?):
                guard let marbles = expectLines[change.line] else { fail("update", "line \(change.line), not an expect line, changed: \(before.debugDescription)") }
                let lead = String(before.prefix(marbles.location.column - 1))
                let comment = String(before.dropFirst(marbles.location.column - 1 + marbles.text.count)).drop { $0 == " " || $0 == "\t" }
                guard after.hasPrefix(lead), after.hasSuffix(comment) else {
                    fail("update", "line \(change.line) changed outside its marbles: \(before.debugDescription) → \(after.debugDescription)")
                }
            case (let before?, nil), (nil, let before?):
                guard before.contains(".subscriptions") else { fail("update", "a line other than a .subscriptions line was added or removed: \(before.debugDescription)") }
            case (nil, nil):
                break
            }
        }
        if case .success(let second) = SnapshotWriter.rewrite(source: first.source, report: first.report, path: "fuzz.marble", options: RunOptions()),
           second.source != first.source {
            fail("update", "a second --update changes the file again")
        }
    }

    /// The input as the server's standard input (a file, read to its end), its output discarded.
    static func languageServer(_ data: Data) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("marbles-fuzz-lsp-\(getpid())").path
        guard FileManager.default.createFile(atPath: path, contents: data) else { fail("lsp", "cannot write the input to \(path)") }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = open(path, O_RDONLY)
        let output = open("/dev/null", O_WRONLY)
        defer { close(input); close(output) }
        guard input >= 0, output >= 0 else { fail("lsp", "cannot open the input or /dev/null") }
        let status = LanguageServer(input: input, output: output, version: "fuzz").run()
        guard status == 0 || status == 1 else { fail("lsp", "exit status \(status)") }
    }

    /// The scratch folder of the `argv` target, with the files its command lines name; the
    /// process works in it, and removes it when it exits.
    static let scratch: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marbles-fuzz-argv-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.changeCurrentDirectoryPath(folder)
        atexit { try? FileManager.default.removeItem(atPath: Probes.scratch) }
        return folder
    }()

    static let scratchFiles = [
        "a.marble": "test \"map doubles\"\n  hot    input   -1-2-3-|\n  let    doubled = input.map { $0 * 2 }\n  expect doubled -2-4-7-|\n",
        "dir/b.marble": "test \"debounce\"\n  hot    t   -a-b-c---|\n  let    q = t.debounce(for: 2, scheduler: RunLoop.main)\n  expect q   ------c--|\n",
        "doc.md": "# A document\n\n```marble\ntest \"filter\"\n  hot    x   -1-2-3-|\n  let    y = x.filter { $0 > 1 }\n  expect y   ---2-3-|\n```\n",
    ]

    /// Commands that wait for more input or for changes (a server, a watcher: they would never
    /// return), left out of the argv target (`lsp` has a target of its own).
    static let waitingCommands: Set<String> = ["watch", "lsp"]

    /// `compare` over more than 100 cases (its default is 500): slow by request, as a case costs
    /// milliseconds under the sanitizers, and libFuzzer's time limit would call it a hang.
    static func asksForMinutes(_ arguments: [String]) -> Bool {
        guard arguments.first == "compare" else { return false }
        var cases = 500
        for (index, argument) in arguments.enumerated() {
            let value = argument.hasPrefix("--cases=") ? String(argument.dropFirst("--cases=".count))
                : index > 0 && arguments[index - 1] == "--cases" ? argument : nil
            if let value, let number = Int(value) { cases = number }
        }
        return cases > 100
    }

    static func commandLine(_ text: String) {
        let arguments = text.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        guard let program = arguments.first, arguments.count <= 32,
              !arguments.contains(where: { $0.contains("/") || $0.contains("..") || $0.hasPrefix("~") }),
              !waitingCommands.contains(program), !asksForMinutes(arguments) else { return }
        // The folder as the command lines expect it, whatever the last one did.
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: scratch)) ?? [] { try? manager.removeItem(atPath: scratch + "/" + name) }
        for (name, contents) in scratchFiles {
            let path = scratch + "/" + name
            try? manager.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = manager.createFile(atPath: path, contents: Data(contents.utf8))
        }
        let output = CapturedOutput()
        let code = program == "marbles-svg"
            ? SVGCLI.run(arguments: Array(arguments.dropFirst()), environment: [:], isTerminal: false, output: output)
            : CLI.run(arguments: arguments, environment: [:], isTerminal: false, output: output)
        guard (0...2).contains(code) else { fail("argv", "exit status \(code) for \(arguments)") }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzTarget.selected.run(Data(bytes: bytes, count: count))
    return 0
}

#if FUZZING
/// libFuzzer's driver, called from `main` (SwiftPM names an executable's entry point itself, so
/// libFuzzer's own `main` is not the one linked).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt
#endif

/// Fuzzing: hands control to libFuzzer. Otherwise replays the files (or folders of files)
/// given as arguments through the selected target, and prints how many.
@main
struct Replay {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in fuzzOneInput(bytes, count) })
        #else
        let target = FuzzTarget.selected
        var replayed = 0
        // Absolute paths first: the argv target works in a scratch folder of its own.
        let paths = CommandLine.arguments.dropFirst().map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        for path in paths {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted().map { path + "/" + $0 } ?? [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                target.run(data)
                replayed += 1
            }
        }
        print("replayed \(replayed) inputs through the \(target.rawValue) target")
        #endif
    }
}
