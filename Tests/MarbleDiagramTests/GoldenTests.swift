import Foundation
import MarbleDiagram
import MarbleSpec
import Testing

/// Golden files pin the layout byte for byte. After a deliberate change to the drawing,
/// regenerate them with `UPDATE_GOLDEN=1 swift test --filter GoldenTests` (or `make golden`),
/// look at the new pictures, and commit them with the change.
@Suite("golden diagrams")
struct GoldenTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var source: String
        var values: [NamedValue] = []
        var options = DiagramOptions()
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "debounce", source: DiagramTests.debounce),
        Case(name: "switch-to-latest", source: DiagramTests.switchToLatest),
        Case(name: "combine-latest", source: """
            test "combineLatest waits for every input, then pairs the latest values"
              hot    letters  -a---b-----c--|
              hot    numbers  ---1---2-3----|
              let    pairs  = letters.combineLatest(numbers)
              values A = ("a", 1), B = ("b", 1), C = ("b", 2), D = ("b", 3), E = ("c", 3)
              expect pairs    ---A-B-C-D-E--|
            """, values: [NamedValue(name: "A", literal: "(\"a\", 1)"), NamedValue(name: "B", literal: "(\"b\", 1)"),
                          NamedValue(name: "C", literal: "(\"b\", 2)"), NamedValue(name: "D", literal: "(\"b\", 3)"),
                          NamedValue(name: "E", literal: "(\"c\", 3)")]),
        Case(name: "mismatch", source: """
            frame 100ms
            test "debounce, expected too early"
              hot    typing   -a-b-c-----d--e-|
              let    query  = typing.debounce(for: .milliseconds(300), scheduler: RunLoop.main)
              expect query    ----c------d----|
            """),
        Case(name: "idle-time-failure-and-cancel", source: """
            test "a long idle stretch, a failure, and a cancelled subscriber"
              hot    input   -1-(23)- 1s -4-#{"timed out"}
              let    tens  = input.map { $0 * 10 }
              let    early = input.map { $0 }
              subscribe early ^---!
              expect tens    -{10}-({20}{30})- 1s -{40}-#{"timed out"}
              expect early   -1-(23)
            """),
        Case(name: "dark-transparent", source: DiagramTests.switchToLatest, options: DiagramOptions(theme: .dark, background: .transparent)),
    ]

    static var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden", isDirectory: true)
    }

    @Test(arguments: cases)
    func matchesItsGoldenFile(_ item: Case) throws {
        let text = try svg(item.source, values: item.values, options: item.options, path: "golden/\(item.name).marble")
        try checkStandalone(text)
        let file = Self.folder.appendingPathComponent(item.name + ".svg")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            return
        }
        let golden = try #require(FileManager.default.contents(atPath: file.path).map { String(decoding: $0, as: UTF8.self) },
                                  "missing \(file.lastPathComponent); create it with UPDATE_GOLDEN=1 swift test --filter GoldenTests")
        if text != golden {
            let ours = text.split(separator: "\n", omittingEmptySubsequences: false)
            let theirs = golden.split(separator: "\n", omittingEmptySubsequences: false)
            let line = (0..<min(ours.count, theirs.count)).first { ours[$0] != theirs[$0] } ?? min(ours.count, theirs.count)
            Issue.record("""
                \(item.name).svg differs from its golden file at line \(line + 1):
                  golden: \(line < theirs.count ? String(theirs[line]) : "(end)")
                  now:    \(line < ours.count ? String(ours[line]) : "(end)")
                If the change is intended, regenerate with UPDATE_GOLDEN=1 swift test --filter GoldenTests and look at the pictures.
                """)
        }
    }
}
