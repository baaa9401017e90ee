import Foundation
import MarbleDiagram
import MarbleSpec
import MarbleSyntax

// `marbles-svg` and the `--svg DIR` option of `marbles run`: SVG marble diagrams of tests,
// drawn from what the simulation produced.

/// The `marbles-svg` command line, callable in-process: parse the arguments, render, write,
/// return the exit status (as `marbles run`: 0 all passed, 1 a test failed, 2 bad input).
public enum SVGCLI {
    public static func run(arguments: [String], environment: [String: String], isTerminal: Bool, output: some OutputSink) -> Int32 {
        let printer = Printer(sink: output)
        switch SVGArgumentParser.parse(arguments) {
        case .failure(let error):
            printer.error("marbles-svg: error: \(error.message)")
            printer.error(SVGHelp.usage)
            printer.error("Run 'marbles-svg --help' for more.")
            return CLI.ExitCode.usage
        case .success(.help):
            printer.line(SVGHelp.text)
            return CLI.ExitCode.success
        case .success(.version):
            printer.line("marbles-svg \(CLI.version)")
            return CLI.ExitCode.success
        case .success(.render(let arguments)):
            // With `-o -` the SVG is standard output, so messages go to standard error.
            let toStandardOutput = arguments.destination == .standardOutput
            let style = Style.decide(isTerminal: isTerminal && !toStandardOutput, environment: environment, noColor: arguments.noColor)
            return SVGCommand(arguments: arguments, printer: printer, style: style).execute()
        }
    }
}

struct SVGArguments: Equatable {
    enum Destination: Equatable {
        case directory(String)
        case standardOutput
    }

    var paths: [String] = []
    var destination = Destination.directory(".")
    var test: String?
    var options = DiagramOptions()
    var index = false
    var noColor = false
    /// Only problems and the summary line, not every file written.
    var quiet = false
}

enum SVGCommandLine: Equatable {
    case help
    case version
    case render(SVGArguments)
}

enum SVGArgumentParser {
    static let options = ["--output", "--test", "--theme", "--background", "--frame-width", "--index", "--quiet", "--no-color", "--help", "--version"]

    static func parse(_ arguments: [String]) -> Result<SVGCommandLine, UsageError> {
        var result = SVGArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                result.paths.append(argument)
                continue
            }
            // `--name=value` is `--name value`.
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inlineValue = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            func value() -> Result<String, UsageError> {
                if let inlineValue { return .success(inlineValue) }
                guard index < arguments.count else { return .failure(usage("option '\(argument)' needs a value")) }
                index += 1
                return .success(arguments[index - 1])
            }
            switch argument {
            case "--":
                optionsEnded = true
            case "-h", "--help":
                return .success(.help)
            case "--version":
                return .success(.version)
            case "-o", "--output":
                switch value() {
                case .failure(let error): return .failure(error)
                case .success(let text):
                    guard !text.isEmpty else { return .failure(usage("option '\(argument)' needs a folder, or '-' for standard output")) }
                    result.destination = text == "-" ? .standardOutput : .directory(text)
                }
            case "--test":
                switch value() {
                case .failure(let error): return .failure(error)
                case .success(let text): result.test = text
                }
            case "--theme":
                switch value() {
                case .failure(let error): return .failure(error)
                case .success(let text):
                    guard let theme = DiagramOptions.Theme(rawValue: text) else {
                        return .failure(usage("unknown theme '\(text)'; use 'light' or 'dark'"))
                    }
                    result.options.theme = theme
                }
            case "--background":
                switch value() {
                case .failure(let error): return .failure(error)
                case .success(let text):
                    if text == "transparent" || text == "none" {
                        result.options.background = .transparent
                    } else if isColour(text) {
                        result.options.background = .color(text)
                    } else {
                        return .failure(usage("'\(text)' is not a colour; use a name (white), #rgb, #rrggbb, rgb(…), hsl(…) or 'transparent'"))
                    }
                }
            case "--frame-width":
                switch value() {
                case .failure(let error): return .failure(error)
                case .success(let text):
                    guard let width = Int(text), (8...200).contains(width) else {
                        return .failure(usage("the frame width must be a whole number of pixels from 8 to 200, not '\(text)'"))
                    }
                    result.options.frameWidth = Double(width)
                }
            case "--index":
                result.index = true
            case "-q", "--quiet":
                result.quiet = true
            case "--no-color":
                result.noColor = true
            default:
                let hint = Suggestions.nearest(to: argument, in: options + ["-o"]).map { "; did you mean '\($0)'?" } ?? ""
                return .failure(usage("unknown option '\(argument)'" + hint))
            }
            if inlineValue != nil, ["--index", "--quiet", "--no-color", "--"].contains(argument) {
                return .failure(usage("option '\(argument)' takes no value"))
            }
        }
        if result.paths.isEmpty { result.paths = [CLI.defaultFolder] }
        if result.index, result.destination == .standardOutput {
            return .failure(usage("--index needs an output folder, not standard output"))
        }
        return .success(.render(result))
    }

    private static func usage(_ message: String) -> UsageError {
        UsageError(message: message, topic: .general)
    }

    /// A CSS colour as far as it is safe to put in an attribute: a name, a hex colour, or a
    /// functional notation with numbers, spaces, commas, dots, slashes and percent signs.
    static func isColour(_ text: String) -> Bool {
        guard !text.isEmpty, text.count <= 64 else { return false }
        if text.hasPrefix("#") {
            let digits = text.dropFirst()
            return [3, 4, 6, 8].contains(digits.count) && digits.allSatisfy(\.isHexDigit)
        }
        if text.allSatisfy({ $0.isASCII && $0.isLetter }) { return true }
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return false }
        let name = text[..<open]
        guard ["rgb", "rgba", "hsl", "hsla"].contains(name.lowercased()) else { return false }
        return text[text.index(after: open)..<text.index(before: text.endIndex)].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || " ,./%+-".contains($0)) }
    }
}

enum SVGHelp {
    static let usage = "usage: marbles-svg [PATH…] [-o DIR | -o -] [--test NAME] [--theme light|dark] [--background COLOR|transparent] [--frame-width N] [--index] [--quiet]"

    static let text = """
        marbles-svg — SVG marble diagrams of the tests in .marble files, drawn from the simulation

        \(usage)

        Runs every test in the given .marble files and folders (folders recursively; default
        \(CLI.defaultFolder)) and draws each as a standalone SVG: the sources as time arrows, then for
        every derived stream an operator box with its pipeline and the arrow of what it
        published. A test whose expectation is not met is drawn with the expected events
        ghosted under the actual ones and the differences numbered.

        Options:
          -o, --output DIR       write one SVG per test into DIR (created if missing; default .),
                                 named FILE--TEST.svg, e.g. debounce--drops-pending-on-finish.svg
          -o -                   write the SVG to standard output (exactly one test: use --test)
          --test NAME            only the test with this name
          --theme light|dark     colours (default light)
          --background COLOR     a CSS colour, or 'transparent' (default: the theme's)
          --frame-width N        pixels per frame, 8…200 (default 32, narrowed so that a test of
                                 20 frames fits 800 px, widened for long labels)
          --index                also write DIR/index.html, a gallery of the diagrams written
          -q, --quiet            list only problems and the summary, not every file written
          --no-color             no colour in messages
          -h, --help             show this help
          --version              print the version

        Exit status (as for marbles run):
          0  every test drawn passed
          1  a test failed or stopped with a runtime error (its diagram is still written)
          2  a path, a file or the command line is bad
        """
}

/// Renders the selected tests and writes them.
struct SVGCommand {
    var arguments: SVGArguments
    var printer: Printer
    var style: Style

    private func message(_ text: String) {
        if arguments.destination == .standardOutput { printer.error(text) } else { printer.line(text) }
    }

    private struct Drawing {
        var path: String
        var test: TestReport
        var svg: String
    }

    func execute() -> Int32 {
        var tally = Tally()
        var drawings: [Drawing] = []
        var testNames: [String] = []
        for item in Discovery.discover(arguments.paths) {
            switch item {
            case .problem(let path, let problem):
                tally.inputErrors += 1
                message("\(path): " + style.red("error:") + " " + problem)
            case .file(let path):
                let report = MarbleRunner.run(path: path)
                tally.files += 1
                if report.isError {
                    tally.inputErrors += 1
                    report.diagnostics.flatMap { SourceExcerpt.lines($0, indent: 0, style: style) }.forEach(message)
                    continue
                }
                for test in report.tests {
                    testNames.append(test.name)
                    if let wanted = arguments.test, wanted != test.name { continue }
                    tally.tests += 1
                    switch test.outcome {
                    case .passed: tally.passed += 1
                    case .failed: tally.failed += 1
                    case .error: tally.testErrors += 1
                    }
                    if test.stoppedAtLimit { tally.limitStops += 1 }
                    let svg = MarbleDiagram.svg(for: test, path: path, values: test.namedValues, options: arguments.options)
                    drawings.append(Drawing(path: path, test: test, svg: svg))
                }
            }
        }
        if let wanted = arguments.test, drawings.isEmpty, tally.inputErrors == 0 {
            let hint = Suggestions.nearest(to: wanted, in: testNames).map { "; did you mean \"\($0)\"?" } ?? ""
            printer.error("marbles-svg: error: no test named \"\(wanted)\"" + hint)
            return CLI.ExitCode.usage
        }
        switch arguments.destination {
        case .standardOutput:
            guard drawings.count <= 1 else {
                printer.error("marbles-svg: error: -o - writes one diagram, but \(drawings.count) tests were selected; choose one with --test NAME")
                return CLI.ExitCode.usage
            }
            if let drawing = drawings.first { printer.sink.standardOutput(drawing.svg) }
        case .directory(let folder):
            var written: [(name: String, drawing: Drawing)] = []
            var used: Set<String> = []
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for drawing in drawings {
                    let name = DiagramFiles.uniqueName(MarbleDiagram.fileName(path: drawing.path, test: drawing.test.name), used: &used)
                    try DiagramFiles.write(drawing.svg, to: DiagramFiles.join(folder, name))
                    written.append((name, drawing))
                    let mark = drawing.test.outcome == .passed ? style.green("✓") : style.red("✗")
                    var line = "\(mark) \(DiagramFiles.join(folder, name))"
                    if drawing.test.outcome == .failed { line += "  " + style.dim("(expectation not met: expected events ghosted)") }
                    if drawing.test.outcome == .error { line += "  " + style.dim("(stopped with an error)") }
                    if !arguments.quiet || drawing.test.outcome != .passed { message(line) }
                }
                if arguments.index {
                    let html = DiagramFiles.index(written.map { ($0.name, $0.drawing.test.name, $0.drawing.path, $0.drawing.test.line, $0.drawing.test.outcome) })
                    try DiagramFiles.write(html, to: DiagramFiles.join(folder, "index.html"))
                    if !arguments.quiet { message("  \(DiagramFiles.join(folder, "index.html"))") }
                }
            } catch {
                printer.error("marbles-svg: error: cannot write to \(folder): \(error.localizedDescription)")
                return CLI.ExitCode.usage
            }
        }
        message("\(drawings.count) diagram\(drawings.count == 1 ? "" : "s"): " + tally.outcome)
        return tally.exitCode
    }
}

/// For `marbles run --svg DIR`: a diagram of every test that failed or stopped with an error.
struct FailureDiagrams {
    var folder: String
    var options = DiagramOptions()
    private let used = UsedNames()

    init(folder: String) {
        self.folder = folder
    }

    /// Keeps file names unique across the files of one run.
    private final class UsedNames {
        var names: Set<String> = []
    }

    /// Removes `--svg DIR` (or `--svg=DIR`) from the arguments of `marbles run`, up to a `--`;
    /// returns DIR, nil without the option, or a usage error when DIR is missing.
    static func takeOption(from arguments: inout [String]) -> Result<String?, UsageError> {
        var folder: String?
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let argument = arguments[index]
            if argument == "--svg" {
                guard index + 1 < arguments.count, !arguments[index + 1].isEmpty, arguments[index + 1] != "--" else {
                    return .failure(UsageError(message: "option '--svg' needs a folder", topic: .run))
                }
                folder = arguments[index + 1]
                arguments.removeSubrange(index...(index + 1))
            } else if argument.hasPrefix("--svg=") {
                let value = String(argument.dropFirst("--svg=".count))
                guard !value.isEmpty else { return .failure(UsageError(message: "option '--svg' needs a folder", topic: .run)) }
                folder = value
                arguments.remove(at: index)
            } else {
                index += 1
            }
        }
        return .success(folder)
    }

    /// Writes the diagrams of the failing tests of `report`; returns a problem, if any.
    func write(_ report: FileReport) -> String? {
        let failing = report.tests.filter { $0.outcome != .passed }
        guard !failing.isEmpty else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for test in failing {
                let svg = MarbleDiagram.svg(for: test, path: report.path, values: test.namedValues, options: options)
                let name = DiagramFiles.uniqueName(MarbleDiagram.fileName(path: report.path, test: test.name), used: &used.names)
                try DiagramFiles.write(svg, to: DiagramFiles.join(folder, name))
            }
        } catch {
            return "cannot write diagrams to \(folder): \(error.localizedDescription)"
        }
        return nil
    }
}

enum DiagramFiles {
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// `name`, or `name` with `-2`, `-3`… before `.svg` when it is taken.
    static func uniqueName(_ name: String, used: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while used.contains(candidate) {
            candidate = String(name.dropLast(4)) + "-\(number).svg"
            number += 1
        }
        used.insert(candidate)
        return candidate
    }

    /// A gallery page: one figure per diagram, captioned with the test's name and its file, grouped by file.
    static func index(_ items: [(file: String, test: String, path: String, line: Int, outcome: TestReport.Outcome)]) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Marble diagrams</title>
            <style>
            body { font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1f2328; background: #ffffff; }
            h1 { font-size: 1.6rem; } h2 { font-size: 1.1rem; margin-top: 2.5rem; border-bottom: 1px solid #d0d7de; padding-bottom: .3rem; }
            figure { margin: 1.5rem 0; } figure img { max-width: 100%; height: auto; border: 1px solid #d0d7de; border-radius: 6px; }
            figcaption { font-size: .9rem; color: #656d76; margin-top: .4rem; } figcaption strong { color: #1f2328; }
            code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .85em; }
            .failed { color: #cf222e; }
            </style>
            </head>
            <body>
            <h1>Marble diagrams</h1>
            <p>Every test of the catalogue, drawn from what the simulation produced (\(items.count) diagram\(items.count == 1 ? "" : "s")). Regenerate with <code>make diagrams</code>.</p>

            """
        var currentPath: String?
        for item in items {
            if item.path != currentPath {
                html += "<h2><code>\(XMLText.escape(item.path))</code></h2>\n"
                currentPath = item.path
            }
            let status: String
            switch item.outcome {
            case .passed: status = ""
            case .failed: status = " <span class=\"failed\">(expectation not met)</span>"
            case .error: status = " <span class=\"failed\">(stopped with an error)</span>"
            }
            html += """
                <figure id="\(XMLText.escape(String(item.file.dropLast(4))))">
                <img src="\(XMLText.escape(item.file))" alt="\(XMLText.escape("Marble diagram: " + item.test))" loading="lazy">
                <figcaption><strong>\(XMLText.escape(item.test))</strong> — <code>\(XMLText.escape(item.path)):\(item.line)</code>\(status)</figcaption>
                </figure>

                """
        }
        html += "</body>\n</html>\n"
        return html
    }
}

/// The `values` entries that apply to each test of a file (file level first, then the test's
/// own), read from the source because the report writes values by name only.
extension TestReport {
    /// The test's value names, as the diagram draws them.
    var namedValues: [NamedValue] { values.map { NamedValue(name: $0.name, literal: $0.literal) } }
}
