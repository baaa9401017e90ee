import Foundation
import Testing

/// The README's shell examples run as written, against the built `marbles`, so that the README
/// cannot drift from what the commands print.
///
/// The convention, read from the README itself: a fenced block whose first line starts with
/// `$ ` is a terminal session. Each `$ ` line is a command, run by `/bin/sh` from the
/// repository's root with `marbles` and `marbles-svg` first on `PATH`; the lines under it, to
/// the next `$ ` line, are what it prints (standard output and error, as a terminal shows them).
/// A line `…` alone stands for any number of lines. Times (`7 ms`, `time="0.006"`,
/// `duration_ms: 0.551`, `"milliseconds" : 7`) and the counts of the summary lines
/// (`602 tests in 77 files`, `602 passed, 0 failed`) are masked on both sides: they change from
/// run to run, or with every test added to the catalogue.
///
/// Each block runs in a folder of its own holding copies of `Examples/specs` and
/// `Examples/tour` (commands write reports and rewrite files there) and the catalogue
/// `marbles/` (a link: it is only read).
@Suite("the README's shell examples")
struct ReadmeShellExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Command: Sendable {
        var line: Int
        var text: String
        var expected: [String]
    }

    struct Session: Sendable, CustomTestStringConvertible {
        var line: Int
        var commands: [Command]
        var testDescription: String { "README.md:\(commands.first?.line ?? line): $ \(commands.first?.text ?? "")" }
    }

    static func sessions(in markdown: String) -> [Session] {
        var sessions: [Session] = []
        var fence: (line: Int, lines: [(Int, String)])?
        for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if fence == nil {
                if ["```", "```sh", "```console", "```shell"].contains(trimmed) { fence = (index + 1, []) }
                continue
            }
            if trimmed == "```" {
                if let block = fence, let first = block.lines.first, first.1.hasPrefix("$ ") {
                    var commands: [Command] = []
                    for (number, text) in block.lines {
                        if text.hasPrefix("$ ") {
                            commands.append(Command(line: number, text: String(text.dropFirst(2)), expected: []))
                        } else {
                            commands[commands.count - 1].expected.append(text)
                        }
                    }
                    // A blank line before the next `$ ` only sets the commands apart.
                    for index in commands.indices {
                        while commands[index].expected.last?.trimmingCharacters(in: .whitespaces) == "" { commands[index].expected.removeLast() }
                    }
                    sessions.append(Session(line: block.line, commands: commands))
                }
                fence = nil
            } else {
                fence?.lines.append((index + 1, line))
            }
        }
        return sessions
    }

    static let readmeSessions: [Session] = {
        guard let text = try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8) else { return [] }
        return sessions(in: text)
    }()

    /// What varies from run to run, replaced on both sides.
    static func masked(_ line: String) -> String {
        line.replacing(/\d+(\.\d+)? ms\b/, with: "T ms")
            .replacing(/time="[0-9.]+"/, with: #"time="T""#)
            .replacing(/duration_ms: [0-9.]+/, with: "duration_ms: T")
            .replacing(/"milliseconds" : \d+/, with: #""milliseconds" : T"#)
            .replacing(/^\d+ (tests?) in \d+ (files?)/, with: { "N \($0.output.1) in N \($0.output.2)" })
            .replacing(/^\d+ passed, \d+ failed/, with: "N passed, N failed")
    }

    /// Whether `actual` is `expected`, where a line `…` of `expected` stands for any lines.
    static func matches(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "…" {
            return actual.indices.map { actual[$0...] }.contains { matches(expected.dropFirst(), $0) }
                || matches(expected.dropFirst(), actual[actual.endIndex...])
        }
        guard let line = actual.first, line == first else { return false }
        return matches(expected.dropFirst(), actual.dropFirst())
    }

    /// A line diff of the README's lines against the actual ones (`-` only in the README, `+`
    /// only in the output), the `…` lines left out.
    static func diff(_ expected: [String], _ actual: [String]) -> String {
        let old = expected.filter { $0 != "…" }
        var lengths = Array(repeating: Array(repeating: 0, count: actual.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: actual.count - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == actual[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var lines: [String] = []
        var i = 0, j = 0
        while i < old.count || j < actual.count {
            if i < old.count, j < actual.count, old[i] == actual[j] {
                lines.append("  " + old[i]); i += 1; j += 1
            } else if j < actual.count, i == old.count || lengths[i][j + 1] >= lengths[i + 1][j] {
                lines.append("+ " + actual[j]); j += 1
            } else {
                lines.append("- " + old[i]); i += 1
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A folder with what the examples read and write, removed when the value is released.
    final class Stage {
        let folder: URL
        init() throws {
            let manager = FileManager.default
            folder = manager.temporaryDirectory.appendingPathComponent("marbles-readme-\(UUID().uuidString)", isDirectory: true)
            try manager.createDirectory(at: folder.appendingPathComponent("Examples"), withIntermediateDirectories: true)
            for name in ["specs", "tour"] {
                try manager.copyItem(at: ReadmeShellExampleTests.root.appendingPathComponent("Examples/\(name)"),
                                     to: folder.appendingPathComponent("Examples/\(name)"))
            }
            try manager.createSymbolicLink(at: folder.appendingPathComponent("marbles"),
                                           withDestinationURL: ReadmeShellExampleTests.root.appendingPathComponent("marbles"))
        }
        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    /// Runs `command` with `/bin/sh` in `folder`; standard output and error together.
    static func run(_ command: String, in folder: URL, binaries: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = binaries.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["GITHUB_WORKSPACE"] = nil
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theReadmeHasItsSessions() {
        let commands = Self.readmeSessions.flatMap(\.commands)
        #expect(commands.count >= 15, "found \(commands.count) commands in README.md's sessions")
        #expect(commands.allSatisfy { $0.text.hasPrefix("marbles") || $0.text.hasPrefix("cat ") })
    }

    @Test(arguments: readmeSessions)
    func runsAsWritten(_ session: Session) throws {
        let binaries = try EndToEndTests.executable().deletingLastPathComponent()
        let stage = try Stage()
        for command in session.commands {
            var actual = try Self.run(command.text, in: stage.folder, binaries: binaries).components(separatedBy: "\n")
            while actual.last?.trimmingCharacters(in: .whitespaces) == "" { actual.removeLast() }
            let output = actual.map(Self.masked)
            let expected = command.expected.map(Self.masked)
            let asWritten = Self.matches(expected[...], output[...])
            #expect(asWritten,
                    "README.md:\(command.line): $ \(command.text)\nprints otherwise than the README says (- README, + output; times and summary counts masked):\n\(Self.diff(expected, output))")
        }
    }
}
