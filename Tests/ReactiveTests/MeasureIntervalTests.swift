import MarbleTesting
import Testing
@testable import Reactive

@Suite struct MeasureIntervalTests {
    @Test func measuresFromTheSubscriptionThenBetweenValues() {
        let bench = Bench()
        #expect(bench.run(bench.hot("---a--b-|").measureInterval(using: bench.scheduler).map { String($0.frames) }, subscribeAt: 1) == "---2--3-|")
    }

    @Test func sameFrameValuesMeasureZeroAndFailurePasses() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-(ab)#").measureInterval(using: bench.scheduler).map { String($0.frames) }) == "-(10)#")
    }
}
