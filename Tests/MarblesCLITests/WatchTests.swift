import Foundation
import Testing
@testable import MarblesCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a watch session writes, read while it runs on another thread.
final class SharedOutput: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var out = ""
    private var err = ""

    func standardOutput(_ text: String) { lock.withLock { out += text } }
    func standardError(_ text: String) { lock.withLock { err += text } }
    var stdout: String { lock.withLock { out } }
    var stderr: String { lock.withLock { err } }
}

/// `--watch` for real: a session runs on a thread of its own, watching a sandbox; the test
/// writes files and types keys into a pipe, and reads what the session printed. Every wait is
/// bounded and fails with what was printed so far; nothing here times how fast a run is.
@Suite("marbles run --watch", .serialized)
struct WatchTests {
    /// A session started on its own thread, with a pipe for its keyboard.
    final class Session: @unchecked Sendable {
        let output = SharedOutput()
        private let keys: (read: Int32, write: Int32)
        private let finished = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var status: Int32?

        /// Starts `body(output, keysDescriptor)` on a thread.
        init(_ body: @escaping @Sendable (SharedOutput, Int32) -> Int32) {
            var ends: [Int32] = [-1, -1]
            _ = pipe(&ends)
            keys = (ends[0], ends[1])
            let thread = Thread { [output, keys, finished, self] in
                let code = body(output, keys.read)
                self.lock.withLock { self.status = code }
                finished.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }

        /// Starts `marbles ARGUMENTS` (with `--watch` among them) as the command line would.
        convenience init(marbles arguments: [String]) {
            self.init { output, keys in
                CLI.run(arguments: arguments, environment: [:], isTerminal: false, output: output, keys: keys, signals: false)
            }
        }

        /// Types `text` as if on the keyboard.
        func type(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(keys.write, $0.baseAddress, $0.count) }
        }

        /// Waits (at most `seconds`) until standard output holds `count` status lines; returns
        /// what was printed after the first `after` of them.
        @discardableResult
        func waitForRuns(_ count: Int, seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation) -> String {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if Self.runs(in: output.stdout) >= count { return output.stdout }
                if lock.withLock({ status }) != nil { break }
                usleep(20_000)
            }
            Issue.record("waited \(seconds) s for run \(count) of the watch; it printed:\n\(output.stdout)\(output.stderr)", sourceLocation: sourceLocation)
            return output.stdout
        }

        static func runs(in text: String) -> Int {
            text.components(separatedBy: " · watching ").count - 1
        }

        /// Quits with `q` and waits (bounded) for the session's exit status.
        func quit(sourceLocation: SourceLocation = #_sourceLocation) -> Int32? {
            type("q")
            let ended = finished.wait(timeout: .now() + 30) == .success
            close(keys.write)
            close(keys.read)
            if !ended { Issue.record("the watch did not end within 30 s of 'q'; it printed:\n\(output.stdout)", sourceLocation: sourceLocation) }
            return lock.withLock { status }
        }

        /// The part of `text` after its `index`th status line (0: all of it).
        static func after(_ index: Int, in text: String) -> String {
            let parts = text.components(separatedBy: " · watching ")
            guard index > 0 else { return text }
            guard index < parts.count else { return "" }
            // The rest of the status line, then the next run.
            let rest = parts[index...].joined(separator: " · watching ")
            return String(rest.drop { $0 != "\n" })
        }
    }

    /// A save rewrites the file as an editor does: a temporary file renamed over it.
    static func save(_ text: String, to path: String) throws {
        let temporary = path + ".tmp~"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// A save that writes the file in place (open, truncate, write, close).
    static func overwrite(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func aSaveRerunsOnlyTheFileThatChanged() throws {
        let sandbox = try Sandbox(["specs/a.marble": Samples.passing, "specs/b.marble": Samples.passing])
        let session = Session(marbles: ["run", "--watch", sandbox.path("specs")])
        let first = session.waitForRuns(1)
        #expect(first.contains("running 2 files"), "\(first)")
        #expect(first.contains(sandbox.path("specs/a.marble")) && first.contains(sandbox.path("specs/b.marble")))
        #expect(first.contains("passed · watching 2 files · q quits, a runs all"))

        try Self.overwrite(Samples.failing, to: sandbox.path("specs/b.marble"))
        let second = Session.after(1, in: session.waitForRuns(2))
        #expect(second.contains("\(sandbox.path("specs/b.marble")) changed"), "\(second)")
        #expect(!second.contains(sandbox.path("specs/a.marble")), "only the file saved runs again:\n\(second)")
        #expect(second.contains("expected   -2-4-7-|") && second.contains("actual     -2-4-6-|"), "the failure in full:\n\(second)")
        #expect(second.contains("failed · watching 2 files"))

        // Saved again with the same bytes (an editor's save without a change): nothing runs.
        try Self.overwrite(Samples.failing, to: sandbox.path("specs/b.marble"))
        // An editor's save (rename over) of the other file runs it alone.
        try Self.save(Samples.passing.replacingOccurrences(of: "map doubles", with: "map doubles again"), to: sandbox.path("specs/a.marble"))
        let third = Session.after(2, in: session.waitForRuns(3))
        #expect(third.contains("\(sandbox.path("specs/a.marble")) changed"), "\(third)")
        #expect(third.contains("map doubles again") && !third.contains(sandbox.path("specs/b.marble")), "\(third)")
        #expect(Session.runs(in: session.output.stdout) == 3, "the unchanged save ran nothing:\n\(session.output.stdout)")
        #expect(session.quit() == CLI.ExitCode.success)
    }

    @Test func aHalfWrittenFileIsReportedAndRetriedOnTheNextSave() throws {
        let sandbox = try Sandbox(["a.marble": Samples.passing])
        let path = sandbox.path("a.marble")
        let session = Session(marbles: ["run", "--watch", path])
        session.waitForRuns(1)
        // The first half of the file, as a save cut short leaves it.
        let half = String(Samples.passing.prefix(Samples.passing.count / 2))
        try Self.overwrite(half, to: path)
        let second = Session.after(1, in: session.waitForRuns(2))
        #expect(second.contains("\(path):"), "the mistake with its place:\n\(second)")
        #expect(second.contains("errors · watching 1 file"), "\(second)")
        try Self.overwrite(Samples.passing, to: path)
        let third = Session.after(2, in: session.waitForRuns(3))
        #expect(third.contains("✓ map doubles") && third.contains("passed · watching 1 file"), "\(third)")
        #expect(session.quit() == CLI.ExitCode.success)
    }

    @Test func aFileAddedToAWatchedFolderRunsAndKeysRerunEverything() throws {
        let sandbox = try Sandbox(["specs/a.marble": Samples.passing, "specs/notes.txt": "x"])
        let session = Session(marbles: ["run", "--watch", sandbox.path("specs")])
        session.waitForRuns(1)
        // Not a .marble file: no run.
        try Self.overwrite("y", to: sandbox.path("specs/notes.txt"))
        try sandbox.folder("specs/more")
        try Self.overwrite(Samples.failing, to: sandbox.path("specs/more/new.marble"))
        let second = Session.after(1, in: session.waitForRuns(2))
        #expect(second.contains("new.marble changed") && second.contains("failed · watching 2 files"), "\(second)")
        #expect(!second.contains("notes.txt"))
        session.type("a")
        let third = Session.after(2, in: session.waitForRuns(3))
        #expect(third.contains("running 2 files") && third.contains(sandbox.path("specs/a.marble")), "\(third)")
        #expect(session.quit() == CLI.ExitCode.success)
    }

    /// Where inotify is not used: the same loop, scanning sizes and modification times.
    @Test func pollingSeesASaveToo() throws {
        let sandbox = try Sandbox(["a.marble": Samples.passing])
        let path = sandbox.path("a.marble")
        let session = Session { output, keys in
            let printer = Printer(sink: output)
            return WatchSession(paths: [path], extensions: ["marble"], printer: printer, style: Style(enabled: false), clearsScreen: false,
                                input: keys, handlesSignals: false, mechanism: .polling) { paths in
                RunCommand(arguments: RunArguments(paths: paths), printer: printer, style: Style(enabled: false), environment: [:]).execute()
            }.execute()
        }
        session.waitForRuns(1)
        // A different size, so that a coarse modification time cannot hide it.
        try Self.overwrite(Samples.failing + "\n", to: path)
        let second = Session.after(1, in: session.waitForRuns(2))
        #expect(second.contains("\(path) changed") && second.contains("failed · watching 1 file"), "\(second)")
        #expect(session.quit() == CLI.ExitCode.success)
    }

    @Test func watchIsRefusedWhereItCannotWork() {
        #expect(marbles("run", "--watch", "--list").stderr.contains("--list only prints the tests that would run; it cannot be combined with --watch"))
        #expect(marbles("run", "--watch", "--reporter", "junit").stderr.contains("--watch reports to the terminal"))
        #expect(marbles("doc", "--watch", "--check", "x.md").stderr.contains("it cannot --watch"))
    }
}
