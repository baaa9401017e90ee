import AtomicFiles
import Foundation
import MarbleDiagram
import MarbleSpec
import MarbleRewrite
import MarbleSyntax

// `marbles-svg` and the `--svg DIR` option of `marbles run`: SVG marble diagrams of tests,
// drawn from what the simulation produced.

/// The `marbles-svg` command line, callable in-process: parse the arguments, render, write,
/// return the exit status (as `marbles run`: 0 all passed, 1 a test failed, 2 bad input).
public enum SVGCLI {
    /// - Parameter workingDirectory: what the paths in the diagrams are relative to.
    public static func run(arguments: [String], environment: [String: String], isTerminal: Bool, output: some OutputSink,
                           workingDirectory: String = FileManager.default.currentDirectoryPath) -> Int32 {
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
            guard arguments.watch else {
                return SVGCommand(arguments: arguments, printer: printer, style: style, environment: environment, workingDirectory: workingDirectory).execute()
            }
            return WatchSession(paths: arguments.paths, extensions: [Discovery.fileExtension], printer: printer, style: style, clearsScreen: isTerminal) { paths in
                var once = arguments
                once.watch = false
                // The gallery lists every diagram, so with --index everything is drawn again.
                if !arguments.index { once.paths = paths }
                return SVGCommand(arguments: once, printer: printer, style: style, environment: environment, workingDirectory: workingDirectory).execute()
            }.execute()
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
    /// Adaptive by default: one file for light and dark readers (see `DiagramOptions.Theme.auto`).
    var options = DiagramOptions(theme: .auto)
    /// `--theme both`: `NAME.svg` light and `NAME~dark.svg` dark, the pair DocC expects.
    var bothThemes = false
    /// `--png`: also `NAME.png` beside each SVG, drawn by rsvg-convert.
    var png = false
    var index = false
    var noColor = false
    /// Only problems and the summary line, not every file written.
    var quiet = false
    /// `--watch`: draw, then redraw each file saved (see WatchSession.swift).
    var watch = false
}

enum SVGCommandLine: Equatable {
    case help
    case version
    case render(SVGArguments)
}

enum SVGArgumentParser {
    static func parse(_ arguments: [String]) -> Result<SVGCommandLine, UsageError> {
        Result { () throws(UsageError) -> SVGCommandLine in
            var result: SVGArguments
            switch try CommandOptions.svg.parse(arguments, into: SVGArguments(), positional: { $0.paths.append($1) }) {
            case .help: return .help
            case .version: return .version
            case .arguments(let parsed): result = parsed
            }
            if result.paths.isEmpty { result.paths = [CLI.defaultFolder] }
            if result.destination == .standardOutput {
                for (option, given) in [("--index", result.index), ("--png", result.png), ("--theme both", result.bothThemes), ("--watch", result.watch)] where given {
                    throw usage("\(option) needs an output folder, not standard output")
                }
            }
            return .render(result)
        }
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
    static let usage = "usage: marbles-svg [PATH…] [-o DIR | -o -] [--test NAME] [--theme auto|light|dark|both] [--background COLOR|transparent] [--frame-width N] [--bare] [--scale N] [--png] [--index] [--quiet] [--watch]"

    static let text = """
        marbles-svg — SVG marble diagrams of the tests in .marble files, drawn from the simulation

        \(usage)

        Runs every test in the given .marble files and folders (folders recursively; default
        \(CLI.defaultFolder)) and draws each as a standalone SVG: the sources as time arrows, then for
        every derived stream an operator box with its pipeline and the arrow of what it
        published. A test whose expectation is not met is drawn with the expected events
        ghosted under the actual ones and the differences numbered.

        \(CommandOptions.svg.help)

        The subtitle names each file by its path relative to the working directory (a file
        outside it by its name alone).

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
    var environment: [String: String] = [:]
    var workingDirectory = FileManager.default.currentDirectoryPath

    private func message(_ text: String) {
        if arguments.destination == .standardOutput { printer.error(text) } else { printer.line(text) }
    }

    private struct Drawing {
        /// The file's path as the diagram shows it.
        var path: String
        var test: TestReport
        /// `NAME.svg` first, then `NAME~dark.svg` for `--theme both`.
        var variants: [(suffix: String, svg: String)]
        /// The test's lines, for the gallery.
        var source: String
    }

    func execute() -> Int32 {
        var converter: String?
        if arguments.png {
            guard let found = PNGConverter.find(environment: environment) else {
                printer.error("marbles-svg: error: --png needs rsvg-convert (librsvg), which is not on PATH; "
                              + "install it (apt-get install librsvg2-bin, brew install librsvg) or leave out --png")
                return CLI.ExitCode.usage
            }
            converter = found
        }
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
                }
                let shown = DiagramFiles.shownPath(path, workingDirectory: workingDirectory)
                let excerpts = arguments.index ? TestExcerpt.excerpts(ofFileAt: path) : [:]
                for test in report.tests {
                    testNames.append(test.name)
                    if let wanted = arguments.test, wanted != test.name { continue }
                    tally.count(test)
                    // A test with a mistake did not run: there is nothing to draw.
                    guard test.diagnostics.isEmpty else {
                        test.diagnostics.flatMap { SourceExcerpt.lines($0, indent: 0, style: style) }.forEach(message)
                        continue
                    }
                    var variants: [(suffix: String, svg: String)] = []
                    for (suffix, theme) in arguments.bothThemes ? [("", DiagramOptions.Theme.light), ("~dark", .dark)] : [("", arguments.options.theme)] {
                        var options = arguments.options
                        options.theme = theme
                        variants.append((suffix, MarbleDiagram.svg(for: test, path: shown, values: test.namedValues, options: options)))
                    }
                    drawings.append(Drawing(path: shown, test: test, variants: variants, source: excerpts[test.line] ?? ""))
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
            if let drawing = drawings.first, let svg = drawing.variants.first?.svg { printer.sink.standardOutput(svg) }
        case .directory(let folder):
            var entries: [Gallery.Entry] = []
            var used: Set<String> = []
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for drawing in drawings {
                    let name = DiagramFiles.uniqueName(MarbleDiagram.fileName(path: drawing.path, test: drawing.test.name), used: &used)
                    let stem = String(name.dropLast(".svg".count))
                    var files: [String] = []
                    for variant in drawing.variants {
                        let file = stem + variant.suffix + ".svg"
                        try DiagramFiles.write(variant.svg, to: DiagramFiles.join(folder, file))
                        files.append(file)
                        if let converter {
                            let png = stem + variant.suffix + ".png"
                            try PNGConverter.convert(DiagramFiles.join(folder, file), to: DiagramFiles.join(folder, png), with: converter)
                            files.append(png)
                        }
                    }
                    let size = DiagramFiles.size(of: drawing.variants[0].svg)
                    entries.append(Gallery.Entry(file: name, darkFile: arguments.bothThemes ? stem + "~dark.svg" : nil, test: drawing.test.name,
                                                 path: drawing.path, line: drawing.test.line, outcome: drawing.test.outcome,
                                                 width: size.width, height: size.height, source: drawing.source))
                    let mark = drawing.test.outcome == .passed ? style.green("✓") : style.red("✗")
                    var line = "\(mark) " + files.map { DiagramFiles.join(folder, $0) }.joined(separator: " ")
                    if drawing.test.outcome == .failed { line += "  " + style.dim("(expectation not met: expected events ghosted)") }
                    if drawing.test.outcome == .error { line += "  " + style.dim("(stopped with an error)") }
                    if !arguments.quiet || drawing.test.outcome != .passed { message(line) }
                }
                if arguments.index {
                    try DiagramFiles.write(Gallery.html(entries), to: DiagramFiles.join(folder, "index.html"))
                    if !arguments.quiet { message("  \(DiagramFiles.join(folder, "index.html"))") }
                }
            } catch {
                printer.error("marbles-svg: error: cannot write to \(folder): \(error)")
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

    /// Writes the diagrams of the failing tests of `report` (not of those with a mistake: they
    /// did not run); returns a problem, if any.
    func write(_ report: FileReport) -> String? {
        let failing = report.tests.filter { $0.outcome != .passed && $0.diagnostics.isEmpty }
        guard !failing.isEmpty else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for test in failing {
                let shown = DiagramFiles.shownPath(report.path, workingDirectory: FileManager.default.currentDirectoryPath)
                let svg = MarbleDiagram.svg(for: test, path: shown, values: test.namedValues, options: options)
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

    /// A diagram is output: into a FIFO or a device that stands at its path, it is written in place.
    static func write(_ text: String, to path: String) throws {
        try AtomicFile.write(Data(text.utf8), to: path, nonRegular: .writeInPlace)
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

    /// How a diagram names its file: relative to the working directory, or by its name alone
    /// when it lies outside (never an absolute path, which would differ on every machine).
    static func shownPath(_ path: String, workingDirectory: String) -> String {
        let file = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: workingDirectory, isDirectory: true)).standardizedFileURL.path
        let base = URL(fileURLWithPath: workingDirectory, isDirectory: true).standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        if file.hasPrefix(prefix), file.count > prefix.count { return String(file.dropFirst(prefix.count)) }
        return URL(fileURLWithPath: file).lastPathComponent
    }

    /// The `width` and `height` of an SVG document written by `MarbleDiagram` (its root element's first two numbers).
    static func size(of svg: String) -> (width: Int, height: Int) {
        let root = svg.prefix { $0 != ">" }
        func number(_ name: String) -> Int {
            guard let range = root.range(of: " \(name)=\"") else { return 0 }
            let digits = root[range.upperBound...].prefix { $0.isNumber || $0 == "." }
            return Double(digits).map { Int($0.rounded(.up)) } ?? 0
        }
        return (number("width"), number("height"))
    }
}

/// The `values` entries that apply to each test of a file (file level first, then the test's
/// own), read from the source because the report writes values by name only.
extension TestReport {
    /// The test's value names, as the diagram draws them.
    public var namedValues: [NamedValue] { values.map { NamedValue(name: $0.name, literal: $0.literal) } }
}
