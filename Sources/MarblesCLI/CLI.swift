import MarbleLanguageServer
import MarbleSpec
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `marbles` command line, callable in-process: parse the arguments, run the command,
/// write to `output`, return the exit status.
public enum CLI {
    public static let version = "0.1.0"
    /// The folder `marbles run` runs when given no path.
    public static let defaultFolder = "marbles/"

    public enum ExitCode {
        /// Every test passed (or the command succeeded).
        public static let success: Int32 = 0
        /// A test failed or stopped with a runtime error; `fmt --check` found a file to reformat.
        public static let failure: Int32 = 1
        /// The command line, a path or a file was bad.
        public static let usage: Int32 = 2
    }

    /// Runs `marbles` with `arguments` (without the program name).
    ///
    /// - Parameters:
    ///   - environment: the process environment; `NO_COLOR` (any value) turns colour off.
    ///   - isTerminal: whether standard output is a terminal; colour is used only then.
    public static func run(arguments: [String], environment: [String: String], isTerminal: Bool, output: some OutputSink) -> Int32 {
        run(arguments: arguments, environment: environment, isTerminal: isTerminal, output: output, keys: STDIN_FILENO, signals: true)
    }

    /// `run`, with where `--watch` reads its keys from and whether SIGINT/SIGTERM end it (a
    /// test hands it a pipe and leaves the process's signals alone).
    static func run(arguments: [String], environment: [String: String], isTerminal: Bool, output: some OutputSink,
                    keys: Int32, signals: Bool) -> Int32 {
        let printer = Printer(sink: output)
        switch ArgumentParser.parse(arguments) {
        case .failure(let error):
            printer.error("marbles: error: \(error.message)")
            printer.error(Help.usage(for: error.topic))
            printer.error("Run '\(Help.command(for: error.topic))' for more.")
            return ExitCode.usage
        case .success(.help(let topic)):
            printer.line(Help.text(for: topic))
            return ExitCode.success
        case .success(.version):
            printer.line("marbles \(version)")
            return ExitCode.success
        case .success(.operators):
            OperatorList.lines(Catalogue.signatures).forEach(printer.line)
            return ExitCode.success
        case .success(.run(let run)):
            let style = Style.decide(isTerminal: isTerminal, environment: environment, noColor: run.noColor)
            guard run.watch else { return RunCommand(arguments: run, printer: printer, style: style, environment: environment).execute() }
            return WatchSession(paths: run.paths, extensions: [Discovery.fileExtension], printer: printer, style: style, clearsScreen: isTerminal,
                                input: keys, handlesSignals: signals, writesItsFiles: run.update) { paths in
                var once = run
                once.watch = false
                // A changed file may hold none of the tests a filter chooses: that is no mistake here.
                if paths != run.paths { (once.paths, once.passWithNoTests) = (paths, true) }
                return RunCommand(arguments: once, printer: printer, style: style, environment: environment).execute()
            }.execute()
        case .success(.eval(let eval)):
            let style = Style.decide(isTerminal: isTerminal, environment: environment, noColor: eval.noColor)
            return EvalCommand(arguments: eval, printer: printer, style: style).execute()
        case .success(.trace(let trace)):
            let style = Style.decide(isTerminal: isTerminal, environment: environment, noColor: trace.noColor)
            return TraceCommand(arguments: trace, printer: printer, style: style).execute()
        case .success(.fmt(let format)):
            return FormatCommand(arguments: format, printer: printer).execute()
        case .success(.compare(let compare)):
            let style = Style.decide(isTerminal: isTerminal, environment: environment, noColor: compare.noColor)
            return CompareCommand(arguments: compare, printer: printer, style: style).execute()
        case .success(.lsp):
            // The protocol owns standard output from here; a client that goes away must not kill
            // the process with SIGPIPE in the middle of a write.
            signal(SIGPIPE, SIG_IGN)
            return LanguageServer(input: STDIN_FILENO, output: STDOUT_FILENO, version: version).run()
        case .success(.completion(let completion)):
            guard let shell = completion.shell else { return ExitCode.usage }
            output.standardOutput(CompletionScript.script(for: shell))
            return ExitCode.success
        case .success(.doc(let doc)):
            let style = Style.decide(isTerminal: isTerminal, environment: environment, noColor: doc.noColor)
            guard doc.watch else { return DocCommand(arguments: doc, printer: printer, style: style).execute() }
            return WatchSession(paths: doc.paths, extensions: ["md"], printer: printer, style: style, clearsScreen: isTerminal,
                                input: keys, handlesSignals: signals, writesItsFiles: true) { paths in
                var once = doc
                once.watch = false
                // Every document still names its diagrams as in a whole run (names that slug alike differ).
                if paths != doc.paths { once.only = Set(paths) }
                return DocCommand(arguments: once, printer: printer, style: style).execute()
            }.execute()
        }
    }
}
