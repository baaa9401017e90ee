import Foundation
import Testing
@testable import MarblesCLI

/// The result of one in-process `marbles` run.
struct Outcome {
    var code: Int32
    var stdout: String
    var stderr: String

    /// Standard output with the run's duration replaced by `T`, so that it can be compared exactly.
    var report: String {
        stdout.replacing(/, \d+ ms\n/, with: ", T ms\n")
    }

    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The last non-empty line of standard output.
    var lastLine: String { lines.last { !$0.isEmpty } ?? "" }
}

/// Runs the CLI in-process.
func marbles(_ arguments: String..., environment: [String: String] = [:], terminal: Bool = false) -> Outcome {
    marbles(arguments, environment: environment, terminal: terminal)
}

func marbles(_ arguments: [String], environment: [String: String] = [:], terminal: Bool = false) -> Outcome {
    let output = CapturedOutput()
    let code = CLI.run(arguments: arguments, environment: environment, isTerminal: terminal, output: output)
    return Outcome(code: code, stdout: output.stdout, stderr: output.stderr)
}

/// A temporary folder with files in it, removed when the value is released.
final class Sandbox {
    let root: URL

    init(_ files: [String: String] = [:]) throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("marbles-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, text) in files { try write(name, text) }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func write(_ name: String, _ text: String) throws {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func folder(_ name: String) throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
    }

    /// The absolute path of `name` inside the sandbox (the root itself for "").
    func path(_ name: String = "") -> String {
        name.isEmpty ? root.path : root.appendingPathComponent(name).path
    }
}

enum Samples {
    static let passing = """
        test "map doubles"
          hot    input   -1-2-3-|
          let    doubled = input.map { $0 * 2 }
          expect doubled -2-4-6-|

        """

    static let failing = """
        test "map doubles"
          hot    input   -1-2-3-|
          let    doubled = input.map { $0 * 2 }
          expect doubled -2-4-7-|

        """

    static let malformed = """
        test "a broken group"
          hot    input   -1-(2-3)-|
          expect input   -1-|

        """

    /// A file whose structure is broken (a test name used twice): none of its tests can run.
    static let unrunnable = """
        test "twice"
          hot    x   -a-|
          expect x   -a-|
        test "twice"
          hot    y   -b-|
          expect y   -b-|

        """

    static let runtimeError = """
        test "division by zero"
          hot    input   -1-0-3-|
          let    q = input.map { 12 / $0 }
          expect q       -{12}---|

        """

    static let longIdle = """
        test "a long idle stretch"
          hot    input   -1- 1000000ms -2-|
          let    same  = input.map { $0 }
          expect same    -1- 1000000ms -3-|

        """
}

extension Outcome {
    /// Standard output with every duration (`12 ms`, `0.41 ms`) replaced by `T`.
    var untimed: String {
        stdout.replacing(/\d+(\.\d+)? ms/, with: "T ms")
    }
}

/// The package's own catalogue of specifications, `marbles/`.
let catalogueFolder: String = {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("marbles").path
}()

extension Sandbox {
    func read(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    func data(_ name: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(name))
    }

    /// Every file name in the sandbox's root, hidden ones included.
    func listing() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
    }
}

extension Samples {
    /// Several files with passing, failing, erroring and broken tests.
    static let mixed: [String: String] = [
        "a/pass.marble": passing,
        "a/fail.marble": failing,
        "b/error.marble": runtimeError,
        "b/malformed.marble": malformed,
        "c/two.marble": """
            test "first"
              hot    x   -a-b-|
              expect x   -a-b-|

            test "second fails"
              hot    x   -a-b-|
              let    y = x.map { $0 }
              expect y   -a-c-|

            test "third"
              hot    x   -1-|
              expect x   -1-|

            """,
    ]
}
