import Testing
@testable import Reactive

@Suite struct FilterTests {
    @Test func filteredValuesAreAskedForAgain() {
        let bench = Bench()
        let pipeline = bench.cold("abcd|").filter { $0 != "b" }
        #expect(bench.run(pipeline, initialDemand: .max(2)) == "a-c")
    }
}
