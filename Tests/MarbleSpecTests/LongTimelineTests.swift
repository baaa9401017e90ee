import Testing
@testable import MarbleSpec

/// Long timelines through the whole runner, checked against answers computed here in Swift.
/// They exercise every optimised path at once (byte scanning, integer literals, compiled
/// closures with reused argument arrays, the subscriber's record, comparison and rendering
/// done once); the benchmark measures how fast, these tests only what comes out.
@Suite struct LongTimelineTests {
    /// `-{v1}{v2}…|` with one value per frame, starting at frame 1.
    static func marbles(_ values: [Int?], end: Int? = nil) -> String {
        var text = "-"
        for value in values { text += value.map { "{\($0)}" } ?? "-" }
        return text + (end == nil ? "|" : "")
    }

    static let count = 3_000
    /// Mixed signs and sizes, a value every frame.
    static let inputs: [Int] = (1...count).map { ($0 % 7 == 0 ? -1 : 1) * ($0 * 7_919 % 100_003) }

    @Test func mapFilterScanOverALongTimeline() {
        var total = 0
        let expected: [Int?] = Self.inputs.map { value in
            let doubled = value * 2
            guard doubled % 3 != 0 else { return nil }
            total += doubled
            return total
        }
        let report = runMarble("""
        test "long"
          hot    source  \(Self.marbles(Self.inputs))
          let    out   = source.map { $0 * 2 }.filter { $0 % 3 != 0 }.scan(0) { $0 + $1 }
          expect out     \(Self.marbles(expected))
        """)
        #expect(problems(report) == [])
        let observed = report.tests.first?.streams.first { $0.name == "out" }?.observed ?? []
        #expect(observed.count == expected.compactMap { $0 }.count + 1)
        #expect(observed.dropLast().last?.event == .value("{\(total)}"))
    }

    @Test func aSingleWrongValueDeepInIsFoundAtItsFrame() {
        var wrong = Self.inputs.map { $0 + 1 } as [Int?]
        wrong[2_500] = 0
        let report = runMarble("""
        test "long"
          hot    source  \(Self.marbles(Self.inputs))
          let    out   = source.map { x in x + 1 }
          expect out     \(Self.marbles(wrong))
        """)
        #expect(problems(report) == ["out frame 2501: expected 0, got {\(Self.inputs[2_500] + 1)}"])
    }

    @Test func namedParametersTuplesAndStringsStayExact() {
        // Two sources zipped through a two-parameter closure, and a string result.
        let left = Array(Self.inputs.prefix(1_000))
        let right = left.map { $0 % 10 }
        let expected: [String?] = zip(left, right).map { "\($0 - $1)" }
        let quoted = expected.map { $0.map { "\"\($0)\"" } }
        var expectLine = "-"
        for value in quoted { expectLine += value.map { "{\($0)}" } ?? "-" }
        expectLine += "|"
        let report = runMarble("""
        test "zip"
          hot    a       \(Self.marbles(left))
          hot    b       \(Self.marbles(right))
          let    out   = a.zip(b) { x, y in "\\(x - y)" }
          expect out     \(expectLine)
        """)
        #expect(problems(report) == [])
    }
}

/// Lines are parsed straight into engine events, resolving literals as they are read; a line that
/// turns out broken, or a send to a missing subject, still reports only that one problem.
@Suite struct StreamedLineDiagnosticTests {
    @Test func aBrokenLineReportsOnlyItsSyntaxError() {
        let report = runMarble("""
        test "t"
          hot    a  -{1 +}-b-)
          expect a  -
        """)
        #expect(problems(report).count == 1)
        #expect(problems(report).first?.contains("')' has no matching '('") == true)
    }

    @Test func aSendToAMissingSubjectReportsOnlyThat() {
        let report = runMarble("""
        test "t"
          send   s  -{1 +}-|
        """)
        #expect(problems(report).count == 1)
        #expect(problems(report).first?.contains("cannot find subject 's'") == true)
    }

    @Test func aBadLiteralInAGoodLineIsStillReported() {
        let report = runMarble("""
        test "t"
          hot    a  -{1 +}-|
          expect a  -
        """)
        #expect(problems(report).count == 1)
        #expect(problems(report).first?.hasPrefix("2:") == true)
    }
}
