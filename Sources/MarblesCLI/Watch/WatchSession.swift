import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `marbles run --watch` (and `marbles doc --watch`, `marbles-svg --watch`): runs the command
/// once, then again on every save, over the files whose content changed (and only those); on a
/// terminal the screen is cleared before each run. A one-line status ends each run. `q` quits
/// (a key on a terminal, a line otherwise), so does Ctrl-C; `a` or Enter runs everything again.
/// A file saved half-written is run as it is (its mistakes reported like any others) and again
/// at its next save.
struct WatchSession {
    /// Files and folders, as given to the command.
    var paths: [String]
    /// What a file must end in to count below a folder (`marble`, `md`).
    var extensions: Set<String>
    var printer: Printer
    var style: Style
    /// Whether standard output is a terminal: the screen is cleared before each run.
    var clearsScreen: Bool
    /// Where keys come from (standard input), or -1.
    var input: Int32 = STDIN_FILENO
    /// Whether SIGINT and SIGTERM end the session (the command line; tests leave them alone).
    var handlesSignals = true
    var mechanism = FileWatcher.Mechanism.preferred
    /// Whether the command rewrites the files it runs (`run --update`, `doc`): what a run leaves
    /// on disk is then what the next change is compared with, so its own writes run nothing.
    var writesItsFiles = false
    /// Runs the command over these paths; returns its exit status.
    var run: ([String]) -> Int32

    /// What ended the session.
    static let interrupted: Int32 = 130

    func execute() -> Int32 {
        let watcher: FileWatcher
        do {
            watcher = try FileWatcher(paths: paths, extensions: extensions, mechanism: mechanism, input: input, signals: handlesSignals)
        } catch {
            printer.error("marbles: error: \(error)")
            return CLI.ExitCode.usage
        }
        let keyboard = input >= 0 ? TerminalKeys(descriptor: input) : nil
        defer { keyboard?.restore() }

        var contents: [String: Data] = [:]
        func remember(_ files: [String]) {
            for file in files { contents[file] = FileManager.default.contents(atPath: file) }
        }
        func runAll() {
            let files = watcher.files()
            remember(files)
            begin("running \(Self.count(files.count, "file"))")
            let status = run(paths)
            if writesItsFiles { remember(files) }
            end(status, files: files.count)
        }

        runAll()
        while true {
            switch watcher.wait() {
            case .interrupted:
                printer.line()
                return Self.interrupted
            case .inputClosed:
                continue
            case .input(let text):
                if text.contains("q") || text.contains("Q") || text.contains("\u{04}") {
                    return CLI.ExitCode.success
                }
                if text.contains("a") || text.contains("\n") || text.contains("\r") { runAll() }
            case .changed(let changed):
                var toRun: [String] = []
                var removed: [String] = []
                for file in changed.sorted() {
                    let now = FileManager.default.contents(atPath: file)
                    if now == nil && contents[file] != nil {
                        removed.append(file)
                        contents[file] = nil
                    } else if now != nil && now != contents[file] {
                        toRun.append(file)
                        contents[file] = now
                    }
                }
                guard !toRun.isEmpty || !removed.isEmpty else { continue }
                begin(toRun.isEmpty ? "removed \(removed.joined(separator: ", "))" : "\(toRun.joined(separator: ", ")) changed")
                for file in removed where !toRun.isEmpty { printer.line(style.dim("removed \(file)")) }
                let status = toRun.isEmpty ? CLI.ExitCode.success : run(toRun)
                if writesItsFiles { remember(toRun) }
                end(status, files: watcher.files().count)
            }
        }
    }

    private func begin(_ what: String) {
        if clearsScreen { printer.sink.standardOutput("\u{1B}[2J\u{1B}[3J\u{1B}[H") }
        printer.line(style.dim("[\(Self.clock())] \(what)"))
        printer.line()
    }

    /// The status line under a run.
    private func end(_ status: Int32, files: Int) {
        let outcome = status == CLI.ExitCode.success ? style.green("passed") : style.red(status == CLI.ExitCode.failure ? "failed" : "errors")
        printer.line()
        printer.line("\(outcome) · watching \(Self.count(files, "file")) · q quits, a runs all")
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    private static func clock() -> String {
        let components = Calendar.current.dateComponents([.hour, .minute, .second], from: Date())
        return String(format: "%02d:%02d:%02d", components.hour ?? 0, components.minute ?? 0, components.second ?? 0)
    }
}

/// A terminal read key by key, without echo, while the watch runs; put back as it was after.
/// Ctrl-C still interrupts (the signal is left on).
final class TerminalKeys {
    private let descriptor: Int32
    private var saved: termios?

    init(descriptor: Int32) {
        self.descriptor = descriptor
        guard isatty(descriptor) == 1 else { return }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return }
        saved = settings
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &settings.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        _ = tcsetattr(descriptor, TCSANOW, &settings)
    }

    func restore() {
        guard var settings = saved else { return }
        _ = tcsetattr(descriptor, TCSANOW, &settings)
        saved = nil
    }

    deinit { restore() }
}
