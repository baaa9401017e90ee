import Foundation
import Reactive
import Testing

/// combine-schedulers' spellings of the injected schedulers (`.main` in the app, `.immediate`
/// in a test), as its users write them.
@Suite struct SchedulerSpellingsTests {
    /// A view model as combine-schedulers' users write one.
    final class Model {
        var seen: [String] = []
        init(scheduler: AnySchedulerOf<DispatchQueue> = .main) {
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { self.seen.append("later") }
            scheduler.schedule { self.seen.append("soon") }
        }
    }

    @Test func immediateRunsEverythingAtOnce() {
        #expect(Model(scheduler: .immediate).seen == ["later", "soon"])
        let loop: AnySchedulerOf<RunLoop> = .immediate
        let operations: AnySchedulerOf<OperationQueue> = .immediate
        var seen: [String] = []
        loop.schedule(after: loop.now.advanced(by: 5)) { seen.append("loop") }
        let repeating = operations.schedule(after: operations.now, interval: 1) { seen.append("operations") }
        repeating.cancel()
        #expect(seen == ["loop", "operations"])
    }

    @Test func theImmediateSchedulersHaveTheirBasesTime() {
        #expect(DispatchQueue.immediate.now == DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
        #expect(RunLoop.immediate.now == RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 0)))
        #expect(OperationQueue.immediate.now.advanced(by: 3) == OperationQueue.immediate.now.advanced(by: 3))
        // `now` never moves, whatever runs.
        let scheduler = DispatchQueue.immediate
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {}
        #expect(scheduler.now == DispatchQueue.immediate.now)
    }

    @Test func mainIsTheMainQueueAndGlobalAGlobalQueue() async {
        // Which queue ran the work: the main queue carries a mark.
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        defer { DispatchQueue.main.setSpecific(key: key, value: nil) }
        let main: AnySchedulerOf<DispatchQueue> = .main
        let onMain = await withCheckedContinuation { continuation in
            main.schedule { continuation.resume(returning: DispatchQueue.getSpecific(key: key)) }
        }
        #expect(onMain == "main")
        let global: AnySchedulerOf<DispatchQueue> = .global(qos: .userInitiated)
        let offMain = await withCheckedContinuation { continuation in
            global.schedule { continuation.resume(returning: DispatchQueue.getSpecific(key: key)) }
        }
        #expect(offMain == nil)
        let loop: AnySchedulerOf<RunLoop> = .main
        let queue: AnySchedulerOf<OperationQueue> = .main
        #expect(abs(loop.now.date.timeIntervalSinceNow) < 60)
        #expect(abs(queue.now.date.timeIntervalSinceNow) < 60)
    }
}
