import Testing
@testable import Reactive

/// `VirtualTimeScheduler.rearm` must behave exactly like cancelling the previous arming and
/// scheduling anew (`schedule(at:)`), whatever the mix of re-arms to later, equal, earlier and
/// past times, cancels, re-arms from inside the timer's own action, other work at the same
/// instants, deadlines and time limits. Random scripts are run both ways and compared.
@Suite struct SchedulerRearmTests {
    struct Lcg {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Runs one random script; `rearm` picks the implementation of the timers.
    final class Script {
        let scheduler: VirtualTimeScheduler
        let rearm: Bool
        var random: Lcg
        var log: [String] = []
        let timers = (0..<3).map { _ in ScheduledAction.timer() }
        var handles: [ScheduledAction?] = [nil, nil, nil]
        var fires: [() -> Void] = []

        init(rearm: Bool, seed: UInt64, maxTime: Int, maxActionsPerInstant: Int) {
            self.rearm = rearm
            random = Lcg(state: seed)
            scheduler = VirtualTimeScheduler(limits: .init(maxTime: maxTime, maxActionsPerInstant: maxActionsPerInstant))
            for index in 0..<3 {
                fires.append { [unowned self] in
                    log.append("t\(index)@\(scheduler.currentFrame)")
                    // Sometimes the timer re-arms itself, possibly for the same instant.
                    if random.next(3) == 0 { arm(index, at: scheduler.currentFrame + random.next(3)) }
                }
            }
        }

        func arm(_ index: Int, at time: Int) {
            if rearm {
                scheduler.rearm(timers[index], at: time, fires[index])
            } else {
                handles[index]?.cancel()
                handles[index] = scheduler.schedule(at: time, fires[index])
            }
        }

        func cancel(_ index: Int) {
            if rearm { timers[index].cancel() } else { handles[index]?.cancel() }
        }

        func step(_ name: Int) {
            log.append("s\(name)@\(scheduler.currentFrame) next=\(scheduler.nextActionTime.map(String.init) ?? "-")")
            for _ in 0...random.next(3) {
                let index = random.next(3)
                switch random.next(8) {
                case 0...3: arm(index, at: scheduler.currentFrame + random.next(9) - 3)
                case 4: cancel(index)
                case 5:
                    let delay = random.next(4)
                    scheduler.schedule(afterFrames: delay) { [unowned self] in log.append("w\(name)@\(scheduler.currentFrame)") }
                case 6: scheduler.schedule { [unowned self] in log.append("h\(name)@\(scheduler.currentFrame)") }
                default: arm(index, at: scheduler.currentFrame - 1)
                }
            }
        }

        func run() -> [String] {
            for name in 0..<80 {
                scheduler.schedule(at: random.next(40)) { [unowned self] in step(name) }
            }
            let first = scheduler.run(until: 17)
            log.append("paused \(String(describing: first)) now=\(scheduler.currentFrame) next=\(scheduler.nextActionTime.map(String.init) ?? "-") pending=\(scheduler.hasPendingWork)")
            let second = scheduler.run()
            log.append("stopped \(String(describing: second)) now=\(scheduler.currentFrame) next=\(scheduler.nextActionTime.map(String.init) ?? "-") pending=\(scheduler.hasPendingWork)")
            return log
        }
    }

    @Test func rearmMatchesCancelAndReschedule() {
        for seed in UInt64(1)...300 {
            // Some scripts hit the time limit, some the per-instant action budget.
            let maxTime = seed.isMultiple(of: 3) ? 30 : 1_000
            let perInstant = seed.isMultiple(of: 5) ? 6 : 1_000
            let reference = Script(rearm: false, seed: seed, maxTime: maxTime, maxActionsPerInstant: perInstant).run()
            let rearmed = Script(rearm: true, seed: seed, maxTime: maxTime, maxActionsPerInstant: perInstant).run()
            #expect(rearmed == reference, "seed \(seed)")
            if rearmed != reference { break }
        }
    }

    @Test func rearmToAnEarlierTimeLeavesTheOldArmingStale() {
        let scheduler = VirtualTimeScheduler()
        let timer = ScheduledAction.timer()
        var log: [Int] = []
        let fire = { log.append(scheduler.currentFrame) }
        scheduler.rearm(timer, at: 10, fire)
        scheduler.rearm(timer, at: 4, fire)
        #expect(scheduler.nextActionTime == 4)
        scheduler.run()
        #expect(log == [4])
        #expect(!scheduler.hasPendingWork)
    }

    @Test func rearmAfterCancelRunsAgainAndCancelStopsIt() {
        let scheduler = VirtualTimeScheduler()
        let timer = ScheduledAction.timer()
        var log: [Int] = []
        let fire = { log.append(scheduler.currentFrame) }
        scheduler.rearm(timer, at: 3, fire)
        timer.cancel()
        #expect(scheduler.nextActionTime == nil)
        scheduler.rearm(timer, at: 5, fire)
        #expect(scheduler.nextActionTime == 5)
        scheduler.schedule(at: 6) {
            scheduler.rearm(timer, at: 8, fire)
            timer.cancel()
        }
        scheduler.run()
        #expect(log == [5])
        #expect(scheduler.currentFrame == 6)
    }

    @Test func manyRearmsKeepOneEntryThatMovesOnce() {
        let scheduler = VirtualTimeScheduler()
        let timer = ScheduledAction.timer()
        var fired: [Int] = []
        scheduler.schedule(at: 1) {
            for step in 0..<1_000 { scheduler.rearm(timer, at: 2 + step, { fired.append(scheduler.currentFrame) }) }
        }
        scheduler.run(until: 1)
        #expect(scheduler.nextActionTime == 1_001)
        #expect(scheduler.run() == nil)
        #expect(fired == [1_001])
    }
}
