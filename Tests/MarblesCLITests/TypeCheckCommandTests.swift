import Testing
@testable import MarblesCLI

@Suite("marbles run: mistakes in closures are found before anything runs")
struct TypeCheckCommandTests {
    /// The second test of issue 10 ("An oracle that cannot pass by accident"): it printed ✓
    /// because no value ever reached the closure.
    @Test func aTypoInAClosureThatNoValueReachesExitsTwo() throws {
        let sandbox = try Sandbox(["typo.marble": """
            test "typo in a closure"
              hot    a  ---|
              let    n = a.map { $0.lenght }
              expect n  ---|

            """])
        let run = marbles("run", sandbox.path("typo.marble"))
        #expect(run.code == 2)
        #expect(run.stdout.contains("typo.marble:3:25: error: value of type 'String' has no member 'lenght'"))
        #expect(run.stdout.contains("      let    n = a.map { $0.lenght }\n                            ^^^^^^"))
        #expect(run.stdout.contains("hint: did you mean 'count'?"))
        #expect(!run.stdout.contains("✓"))
    }
}
