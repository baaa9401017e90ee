import Foundation
import Testing

/// Runs the built `marbles` executable as a separate process.
@Suite("the marbles executable, end to end")
struct EndToEndTests {
    struct Result {
        var code: Int32
        var stdout: String
        var stderr: String
    }

    /// The `marbles` binary: next to the test bundle (SwiftPM puts every product of a build in
    /// one folder), else in the package's `.build/debug`.
    static func executable(_ name: String = "marbles") throws -> URL {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            var folder = URL(fileURLWithPath: first).deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(folder.appendingPathComponent(name))
                folder = folder.deletingLastPathComponent()
            }
        }
        if let bundle = Bundle.main.executableURL {
            candidates.append(bundle.deletingLastPathComponent().appendingPathComponent(name))
        }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(package.appendingPathComponent(".build/debug/" + name))
        let found = candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: url.path)
        }
        return try #require(found, "the \(name) executable was not found; looked at \(candidates.map(\.path))")
    }

    /// Runs `program` (`marbles`, or `marbles-svg`) with `arguments`.
    static func run(_ arguments: [String], environment: [String: String] = [:], program: String = "marbles") throws -> Result {
        let process = Process()
        process.executableURL = try executable(program)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain standard error on another thread so that neither pipe can fill up and block.
        let errorData = ErrorCollector()
        let drain = Thread { errorData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        drain.start()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = errorData.wait()
        return Result(code: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Hands the data read on the draining thread back to the test.
    final class ErrorCollector: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()
        func set(_ value: Data) { data = value; done.signal() }
        func wait() -> Data { done.wait(); return data }
    }

    @Test func passingFileExitsZero() throws {
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let result = try Self.run(["run", sandbox.path("pass.marble")])
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("\(sandbox.path("pass.marble"))\n  ✓ map doubles\n"))
        #expect(result.stdout.hasSuffix("\n1 passed, 0 failed\n"))
        #expect(!result.stdout.contains("\u{1B}["), "a pipe is not a terminal")
    }

    @Test func failingFileExitsOneWithTheDiagram() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        let result = try Self.run(["run", sandbox.path()])
        #expect(result.code == 1)
        #expect(result.stdout.contains("""
                  expected   -2-4-7-|
                  actual     -2-4-6-|
                                  ^ frame 5: expected 7, got 6
            """))
        #expect(result.stdout.hasSuffix("\n0 passed, 1 failed\n"))
    }

    @Test func malformedFileExitsTwoAndTheOthersStillRun() throws {
        let sandbox = try Sandbox(["bad.marble": Samples.malformed, "good.marble": Samples.passing])
        let result = try Self.run(["run", sandbox.path("bad.marble"), sandbox.path("good.marble")])
        #expect(result.code == 2)
        #expect(result.stdout.hasPrefix("\(sandbox.path("bad.marble"))\n  ✗ a broken group    \(sandbox.path("bad.marble")):2:23\n"))
        #expect(result.stdout.contains(": error: a group cannot contain '-'\n"))
        #expect(result.stdout.contains("  ✓ map doubles\n"))
        #expect(result.stdout.hasSuffix("\n1 passed, 0 failed, 1 error\n"))
        let unrunnable = try Sandbox(["bad.marble": Samples.unrunnable, "good.marble": Samples.passing])
        let voided = try Self.run(["run", unrunnable.path("bad.marble"), unrunnable.path("good.marble")])
        #expect(voided.code == 2)
        #expect(voided.stdout.hasPrefix("\(unrunnable.path("bad.marble")):4:6: error: duplicate test name \"twice\"\n"))
        #expect(voided.stdout.hasSuffix("\n1 passed, 0 failed, 1 error\n"))
    }

    @Test func usageErrorsGoToStandardError() throws {
        let result = try Self.run(["run", "--bogus"])
        #expect(result.code == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("marbles: error: unknown option '--bogus' for 'marbles run'\n"))
    }

    @Test func versionAndHelp() throws {
        let version = try Self.run(["--version"])
        #expect(version.code == 0)
        #expect(version.stdout.hasPrefix("marbles "))
        let help = try Self.run(["--help"])
        #expect(help.code == 0)
        #expect(help.stdout.contains("usage: marbles run"))
    }

    @Test func reportersWriteFilesAndTheHumanReportStillShows() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing, "pass.marble": Samples.passing])
        let result = try Self.run(["run", sandbox.path(), "--reporter", "human", "--reporter", "junit", "--output", sandbox.path("out/junit.xml"),
                                   "--reporter", "tap", "--output", sandbox.path("out/report.tap")])
        #expect(result.code == 1)
        #expect(result.stdout.hasSuffix("\n1 passed, 1 failed\n"))
        #expect(try sandbox.read("out/junit.xml").hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"marbles\" tests=\"2\" failures=\"1\""))
        #expect(try sandbox.read("out/report.tap").hasPrefix("TAP version 13\nnot ok 1 - "))
    }

    @Test func updateRoundTripsThroughTheExecutable() throws {
        let sandbox = try Sandbox(["fail.marble": Samples.failing])
        let update = try Self.run(["run", sandbox.path(), "--update", "--jobs", "2"])
        #expect(update.code == 0)
        #expect(update.stdout.contains("+ expect doubled -2-4-6-|"))
        #expect(try Self.run(["run", sandbox.path()]).code == 0)
    }

    @Test func evalTraceAndFmt() throws {
        let eval = try Self.run(["eval", "--hot", "a=-1-2-|", "a.map { $0 * 10 }"])
        #expect(eval.code == 0)
        #expect(eval.stdout == "a                   -1   -2   -|\na.map { $0 * 10 }   -{10}-{20}-|\n")
        let sandbox = try Sandbox(["pass.marble": Samples.passing])
        let trace = try Self.run(["trace", sandbox.path("pass.marble")])
        #expect(trace.code == 0)
        #expect(trace.stdout.contains("receive value: (6)"))
        let check = try Self.run(["fmt", "--check", sandbox.path()])
        #expect(check.code == 1)
        #expect(try Self.run(["fmt", sandbox.path()]).code == 0)
        #expect(try Self.run(["fmt", "--check", sandbox.path()]).code == 0)
        #expect(try Self.run(["run", sandbox.path()]).code == 0)
    }
}
