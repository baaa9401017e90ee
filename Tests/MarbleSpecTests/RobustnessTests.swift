import Foundation
import Testing
@testable import MarbleSpec

/// No input crashes or hangs the runner: every catalogue file, mutated at random (fixed seed),
/// either runs or reports errors. A crash would end the test process.
@Suite struct RobustnessTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let fragments = ["-", "|", "#", "(", ")", "{", "}", "^", "!", " ", "a", "1", "{42}", "#{\"x\"}", "10ms", "$0", "$1",
                            "{ _ in ", "}", ".max(1)", "Int.max", " / 0", " * 9223372036854775807", "(", "\"", "\\(", "let ",
                            "retry()", "Just(", ".publisher", "0...9223372036854775806", ".output(at: 9223372036854775807)",
                            ".prefix(-1)", ".dropFirst(-3)", ".collect(0)", ".buffer(size: 0, prefetch: .keepFull, whenFull: .dropNewest)",
                            "\n", "test \"t\"\n", "frame 0ms\n", "frame 3ms\n", ".seconds(1e300)", ".milliseconds(-5)"]

    @Test func mutatedCatalogueFilesNeverCrash() throws {
        let folder = CatalogueTests.folder
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".marble") }.sorted()
        var generator = Generator(state: 20261130)
        var ran = 0
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
                let report = runMarble(String(text), path: name)
                #expect(report.isError || report.tests.allSatisfy { !$0.name.isEmpty })
                ran += 1
            }
        }
        #expect(ran >= 4 * names.count)
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
        #expect(report.isError, "expected a diagnostic for \(expression)")
    }
}
