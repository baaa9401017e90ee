import Testing
import MarbleSyntax
@testable import MarbleSpec

/// Issue 29, item 11: a report is the same on every run. Swift seeds the order of a set's or a
/// dictionary's elements per process and per instance, so each input here runs several times
/// in one process (each run builds its sets and dictionaries anew) and every report must match
/// the first, and say what it should.
@Suite struct DeterminismTests {
    /// The reports of `runs` runs of `source`, timings left out.
    func reports(_ source: String, runs: Int = 8) -> [String] {
        (0..<runs).map { _ in
            let report = runMarble(source)
            // Every mistake, the file's and each test's; then each test that ran, unless it passed
            // silently (no print output).
            let diagnostics = report.allDiagnostics.map { "\($0.line):\($0.column): \($0.message)" + ($0.hint.map { " | " + $0 } ?? "") }
            let tests = report.tests.filter { $0.diagnostics.isEmpty && ($0.outcome != .passed || !$0.trace.isEmpty) }.map { test in
                "\(test.name): \(test.outcome) " + test.trace.map { "\($0.frame): \($0.text)" }.joined(separator: "; ")
                    + (test.error.map { " \($0.line):\($0.column): \($0.message) | \($0.hint ?? "")" } ?? "")
            }
            return (diagnostics + tests).joined(separator: "\n")
        }
    }

    /// Every run of `source` reports `expected`.
    func expectEveryRun(_ source: String, reports expected: String, runs: Int = 8, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let all = reports(source, runs: runs)
        #expect(Set(all).count == 1, "\(Set(all))", sourceLocation: sourceLocation)
        #expect(all.first == expected, sourceLocation: sourceLocation)
    }

    /// A mistake in a file-level extension: reported once (not once per test), with a hint
    /// drawn only from what is in scope there (the file's types, not a test's streams).
    @Test func aFileLevelErrorInAnExtensionIsReportedOnceWithTheSameHint() {
        let source = """
            struct User { let name: String }
            extension User {
              var label: String { typin }
              var shout: String { nmae + "!" }
            }
            test "one"
              hot    typing  -a-|
              expect typing  -a-|
            test "two"
              hot    typinh  -a-|
              expect typinh  -a-|

            """
        expectEveryRun(source, reports: "3:23: cannot find 'typin' in scope\n4:23: cannot find 'nmae' in scope | did you mean 'name'?")
    }

    /// A computed property declared inside a test sees that test's types, not its streams.
    @Test func aTestLevelPropertySeesTheTestsTypesButNotItsStreams() {
        let source = """
            test "one"
              struct Box { let v: Int }
              extension Box { var again: Box { Box(v: v) } }
              extension Box { var stream: Int { typing } }
              hot    typing  -a-|
              expect typing  -a-|

            """
        expectEveryRun(source, reports: "4:37: cannot find 'typing' in scope", runs: 2)
    }

    /// Two names equally near a misspelling: the hint names the first alphabetically, on every run.
    @Test func aDidYouMeanHintBetweenEquallyNearNamesIsAlwaysTheSame() {
        let source = """
            test "t"
              hot    cat  -a-|
              hot    bat  -a-|
              hot    mat  -a-|
              let    x = hat.map { $0 }
              expect x  -a-|

            """
        expectEveryRun(source, reports: "5:14: cannot find 'hat' in scope | did you mean 'bat'?", runs: 12)
        // The answer does not depend on the order of the candidates.
        let names = ["mat", "cat", "bat", "hatch", "bath"]
        for rotation in names.indices {
            let order = Array(names[rotation...] + names[..<rotation])
            #expect(Suggestions.nearest(to: "hat", in: order) == "bat")
            #expect(Suggestions.nearest(to: "hat", in: order.reversed()) == "bat")
        }
        // Case still counts first: the spelling nearer with case respected wins.
        #expect(Suggestions.nearest(to: "Hat", in: ["bat", "Cat"]) == "Cat")
    }

    /// flatMap cancels its inners, and asks them for more, in the order they began: what they
    /// do then (a `print` here) comes in the same order on every run.
    @Test func flatMapCancelsItsInnersInTheOrderTheyBegan() {
        let source = """
            test "t"
              hot    a  -a-b-c-d-#
              cold   i  ----------x|
              let    f = a.flatMap { v in i.handleEvents(receiveCancel: { print("cancel \\(v)") }) }
              expect f  ---------#

            """
        expectEveryRun(source, reports: "t: passed 9: cancel a; 9: cancel b; 9: cancel c; 9: cancel d")
    }

    /// `mapValues` calls its closure in the order of the keys.
    @Test func mapValuesCallsItsClosureInKeyOrder() {
        let source = """
            test "t"
              let    d = Just(["c": 3, "a": 1, "d": 4, "b": 2, "e": 5]).map { $0.mapValues { v -> Int in print("\\(v)"); return v }.count }
              expect d  ({5}|)

            """
        expectEveryRun(source, reports: "t: passed 0: 1; 0: 2; 0: 3; 0: 4; 0: 5")
    }
}
