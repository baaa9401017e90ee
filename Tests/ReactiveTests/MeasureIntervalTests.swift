// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
import Testing
@testable import Reactive

@Suite struct MeasureIntervalTests {
    @Test func measuresFromTheSubscriptionThenBetweenValues() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.hot("---a--b-|").measureInterval(using: scheduler.clock).map { String($0.frames) }, "---2--3-|", subscription: "-^")
        scheduler.run()
    }

    @Test func sameFrameValuesMeasureZeroAndFailurePasses() {
        let scheduler = TestScheduler()
        scheduler.expect(scheduler.failingHot("-(ab)#").measureInterval(using: scheduler.clock).map { String($0.frames) }, "-(10)#", error: TestFailure())
        scheduler.run()
    }
}
#endif
