import Testing
@testable import MarbleSpec

/// Combine's surface that app code uses, in a `.marble` file (issue 25 item 4): an optional's
/// `publisher` (its value once, or nothing for nil) and `assertNoFailure()` with its defaults.
@Suite struct CombineSurfaceLanguageTests {
    @Test func anOptionalsPublisherPublishesItsValueOnceOrNothing() {
        let report = runMarble("""
            test "t"
              hot    words  -ab-c-|
              let    firsts = words.flatMap { word -> AnyPublisher<String, Never> in
                let found: String? = word == "b" ? nil : word.uppercased()
                return found.publisher.eraseToAnyPublisher()
              }
              expect firsts -A--C-|
            """)
        #expect(problems(report) == [])
        #expect(report.tests.map(\.outcome) == [.passed])
    }

    @Test func theFirstOfAnArrayAsAPublisher() {
        let report = runMarble("""
            test "t"
              hot    lists  -a-b-|
              let    heads  = lists.map { $0 == "a" ? [1, 2] : [] }.flatMap { $0.first.publisher }
              expect heads  -1---|
            """)
        #expect(problems(report) == [])
    }

    @Test func anOptionalArraysPublisherIsRefusedInWords() {
        let report = runMarble("""
            test "t"
              hot    lists  -a-|
              let    all    = lists.flatMap { x -> AnyPublisher<[Int], Never> in let found: [Int]? = [1]; return found.publisher.eraseToAnyPublisher() }
              expect all    -a-|
            """)
        #expect(report.allDiagnostics.map { "\($0.line):\($0.column): \($0.message)" } == [
            "3:108: the publisher of an optional array is not supported in a .marble file yet (it would publish the whole array once)",
        ])
    }

    @Test func assertNoFailureWithItsDefaults() {
        let report = runMarble("""
            test "t"
              hot    input  -1-2-|
              let    safe   = input.assertNoFailure()
              expect safe   -1-2-|
            """)
        #expect(problems(report) == [])
    }
}
