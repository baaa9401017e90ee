import Foundation
import Testing
import TestSupport
@testable import MarbleSpec

/// No input crashes or hangs the runner: every catalogue file, mutated at random (fixed seed),
/// either runs or reports errors. A crash would end the test process.
@Suite struct RobustnessTests {
    static let fragments = ["-", "|", "#", "(", ")", "{", "}", "^", "!", " ", "a", "1", "{42}", "#{\"x\"}", "10ms", "$0", "$1",
                            "{ _ in ", "}", ".max(1)", "Int.max", " / 0", " * 9223372036854775807", "(", "\"", "\\(", "let ",
                            "retry()", "Just(", ".publisher", "0...9223372036854775806", ".output(at: 9223372036854775807)",
                            ".prefix(-1)", ".dropFirst(-3)", ".collect(0)", ".buffer(size: 0, prefetch: .keepFull, whenFull: .dropNewest)",
                            "\n", "test \"t\"\n", "frame 0ms\n", "frame 3ms\n", ".seconds(1e300)", ".milliseconds(-5)"]

    /// Every mutant either runs or is reported, and what is reported points into the mutant: a
    /// diagnostic's line is one of its lines (or the end), its column is on that line and its
    /// excerpt is that line's text. The same mutant gives the same report twice, and the
    /// mutation is neither so mild that nothing breaks nor so harsh that nothing runs.
    @Test func mutatedCatalogueFilesNeverCrash() throws {
        let folder = CatalogueTests.folder
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".marble") }.sorted()
        #expect(names.count > 50)
        var generator = TestSupport.SeededGenerator(seed: 20261130)
        var fileErrors = 0, ranToTheEnd = 0
        for name in names {
            let original = Array(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
            for _ in 0..<4 {
                var text = original
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let position = Int.random(in: 0...text.count, using: &generator)
                    if Bool.random(using: &generator), position < text.count {
                        text.removeSubrange(position..<min(text.count, position + Int.random(in: 1...6, using: &generator)))
                    } else {
                        let fragment = Self.fragments[Int.random(in: 0..<Self.fragments.count, using: &generator)]
                        text.insert(contentsOf: fragment, at: position)
                    }
                }
                let source = String(text)
                let report = runMarble(source, path: name)
                let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let located = report.allDiagnostics + report.tests.compactMap(\.error)
                for diagnostic in located {
                    #expect(!diagnostic.message.isEmpty, "\(name): an empty message")
                    #expect(diagnostic.path == name)
                    #expect((1...lines.count + 1).contains(diagnostic.line), "\(name):\(diagnostic.line): outside the file")
                    if diagnostic.line <= lines.count, !diagnostic.lineText.isEmpty {
                        #expect(diagnostic.lineText == lines[diagnostic.line - 1], "\(name):\(diagnostic.line): the excerpt is not that line")
                        #expect((1...lines[diagnostic.line - 1].count + 1).contains(diagnostic.column),
                                "\(name):\(diagnostic.line):\(diagnostic.column): the column is off the line")
                    }
                }
                #expect(report.isError || !report.tests.isEmpty, "\(name): neither an error nor a test")
                #expect(report.tests.allSatisfy { !$0.name.isEmpty })
                #expect(problems(runMarble(source, path: name)) == problems(report), "\(name): a second run reports otherwise")
                if !report.allDiagnostics.isEmpty { fileErrors += 1 } else if report.tests.allSatisfy({ $0.error == nil }) { ranToTheEnd += 1 }
            }
        }
        #expect(fileErrors > names.count / 2, "the mutation rarely breaks a file")
        #expect(ranToTheEnd > 0, "no mutant still runs")
    }

    @Test(arguments: [
        "Just(1).output(at: 9223372036854775807)",
        "Just(1).output(in: 0...9223372036854775806)",
        "Just(1).prefix(-1)",
        "Just(1).dropFirst(-3)",
        "Just(1).collect(0)",
        "Just(1).buffer(size: 0, prefetch: .keepFull, whenFull: .dropNewest)",
        "Just(1).delay(for: .seconds(1e300), scheduler: RunLoop.main)",
        "Just(1).delay(for: .milliseconds(-5), scheduler: RunLoop.main)",
        "Just(1).retry(-1)",
        "Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8), Just(9))",
        "Timer.publish(every: 0, on: .main, in: .common).autoconnect()",
    ])
    func outOfRangeArgumentsAreErrorsNotTraps(_ expression: String) {
        let report = runMarble("test \"t\"\n  let x = \(expression)\n  expect x -")
        #expect(report.tests.map { $0.diagnostics.isEmpty } == [false], "expected a diagnostic for \(expression)")
    }
}
