import AtomicFiles
import Foundation
import MarbleRewrite
import MarbleSpec

/// `marbles fmt [--check] PATH…`: formats each file with `MarbleFormatter` (which says how) and
/// writes the result atomically, or with `--check` only says which files would change.
struct FormatCommand {
    var arguments: FormatArguments
    var printer: Printer

    func execute() -> Int32 {
        var changed = 0
        var unchanged = 0
        var errors = 0
        for item in Discovery.discover(arguments.paths) {
            switch item {
            case .problem(let path, let message):
                errors += 1
                printer.line("\(path): error: \(message)")
            case .file(let path):
                guard let data = FileManager.default.contents(atPath: path), let source = String(data: data, encoding: .utf8),
                      Data(source.utf8) == data else {
                    errors += 1
                    printer.line("\(path): error: cannot read the file as UTF-8 text")
                    continue
                }
                switch arguments.native ? NativeConversion.convert(source) : MarbleFormatter.format(source) {
                case .failure(let problem):
                    errors += 1
                    if let place = problem.place {
                        // As `marbles run` reports it: the place, the line, a caret, the hint.
                        let diagnostic = FileDiagnostic(path: path, line: place.line, column: place.column, length: place.length,
                                                        message: problem.message, hint: place.hint, lineText: SourceLines(source)[place.line]?.text ?? "")
                        SourceExcerpt.lines(diagnostic, indent: 0, style: Style(enabled: false)).forEach(printer.line)
                        printer.line("  (fmt leaves \(path) unchanged)")
                    } else {
                        printer.line("\(path): error: \(problem.message); fmt leaves it unchanged")
                    }
                case .success(let formatted) where formatted == source:
                    unchanged += 1
                case .success(let formatted):
                    changed += 1
                    let lines = MarbleFormatter.changedLines(source, formatted)
                    // A conversion removes the notation line: lines compared by position would all differ.
                    let which = arguments.native ? "" : lines.count <= 8 ? " (line\(lines.count == 1 ? "" : "s") " + lines.map(String.init).joined(separator: ", ") + ")" : " (\(lines.count) lines)"
                    if arguments.check {
                        printer.line("would \(arguments.native ? "convert" : "reformat") \(path)" + which)
                    } else {
                        do {
                            try AtomicFile.write(Data(formatted.utf8), to: path, nonRegular: .refuse)
                            printer.line("\(arguments.native ? "converted" : "formatted") \(path)" + which)
                        } catch {
                            errors += 1
                            changed -= 1
                            printer.line("\(path): error: \(error)")
                        }
                    }
                }
            }
        }
        func files(_ n: Int) -> String { "\(n) file\(n == 1 ? "" : "s")" }
        if arguments.check {
            printer.line(changed == 0 ? "\(files(unchanged)) already formatted" : "\(files(changed)) would be reformatted, \(unchanged) already formatted")
        } else {
            printer.line("\(files(changed)) formatted, \(unchanged) already formatted")
        }
        if errors > 0 { return CLI.ExitCode.usage }
        return arguments.check && changed > 0 ? CLI.ExitCode.failure : CLI.ExitCode.success
    }
}
