import Foundation
import Testing
@testable import MarbleSpec

/// The format brief's worked examples pass as written, and a deliberately wrong copy of each
/// fails with a sentence naming the frame and the difference.
@Suite struct BriefExampleTests {
    static let catalogueFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("marbles/examples/format-brief.marble")

    static func source() throws -> String { try String(contentsOf: catalogueFile, encoding: .utf8) }

    @Test func everyWorkedExamplePassesAsWritten() throws {
        let report = runMarble(try Self.source(), path: "format-brief.marble")
        #expect(problems(report) == [])
        #expect(report.tests.count == 6)
        #expect(report.tests.allSatisfy { $0.outcome == .passed })
    }

    /// (test name, the line to change, its wrong replacement, the sentences expected).
    static let wrongCopies: [(String, String, String, [String])] = [
        ("combineLatest", "expect pairs    ---A-B-C-D-E--|", "expect pairs    ---A-B-C-D-E-|",
         ["pairs frame 13: expected finished, got nothing", "pairs frame 14: expected nothing after frame 13, got finished"]),
        ("flatMap", "expect flat     ----x----------x|", "expect flat     ----x--x-------x|",
         ["flat frame 7: expected x, got nothing"]),
        ("switchToLatest", "expect request.subscriptions  ---^---!", "expect request.subscriptions  ---^----!",
         ["request.subscriptions frame 8: expected the second subscription to end here, but it ended at frame 7"]),
        ("CurrentValueSubject", "expect   late     ----l--d--|", "expect   late     ----i--d--|",
         ["late frame 4: expected i, got l"]),
        ("two values", "demand  ticks   2------1----", "demand  ticks   2------2----",
         ["ticks frame 9: expected nothing, got e"]),
        ("tryMap", "expect safe      -A-B-(Z|)", "expect safe      -A-B-Z|",
         ["safe frame 5: expected Z, got Z then finished", "safe frame 6: expected finished, got nothing"]),
    ]

    @Test(arguments: 0..<6) func aWrongCopyFailsWithAnExplanation(index: Int) throws {
        let (name, line, wrong, sentences) = Self.wrongCopies[index]
        let source = try Self.source()
        #expect(source.contains(line), "the catalogue file no longer has the line being altered")
        let report = runMarble(source.replacingOccurrences(of: line, with: wrong), path: "format-brief.marble")
        let failing = report.tests.filter { $0.outcome != .passed }
        #expect(failing.count == 1)
        #expect(failing.first?.name.contains(name) == true)
        #expect(problems(report) == sentences)
    }
}
