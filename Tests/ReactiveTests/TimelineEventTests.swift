import Testing
@testable import Reactive

/// Timeline playback with one reused closure and token, a path `make bench` optimised.
@Suite struct PlaybackTests {
    @Test func playbackOrdersAsIfEveryEventWereQueuedUpFront() {
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        let first: [TimedEvent<String, Never>] = [TimedEvent(1, .value("a")), TimedEvent(1, .value("b")), TimedEvent(3, .value("c")), TimedEvent(4, .completion(.finished))]
        let second: [TimedEvent<String, Never>] = [TimedEvent(1, .value("x")), TimedEvent(3, .value("y"))]
        scheduler.play(first) { event in
            if case .value(let value) = event {
                log.append("\(value)@\(scheduler.currentFrame)")
                // Work the delivery queues for the same instant runs after everything already queued for it.
                scheduler.schedule { log.append("after-\(value)@\(scheduler.currentFrame)") }
            } else {
                log.append("|@\(scheduler.currentFrame)")
            }
        }
        scheduler.play(second, offset: 1) { event in
            if case .value(let value) = event { log.append("\(value)@\(scheduler.currentFrame)") }
        }
        scheduler.run()
        #expect(log == ["a@1", "b@1", "after-a@1", "after-b@1", "x@2", "c@3", "after-c@3", "|@4", "y@4"])
    }

    @Test func cancellingStopsThePlaybackMidway() {
        let scheduler = VirtualTimeScheduler()
        var seen: [Int] = []
        let events = (1...10).map { TimedEvent<Int, Never>($0, .value($0)) }
        var playback: (any Cancellable)?
        playback = scheduler.play(events) { event in
            guard case .value(let value) = event else { return }
            seen.append(value)
            if value == 4 { playback?.cancel() }
        }
        scheduler.schedule(at: 7) { playback?.cancel() }
        scheduler.run()
        #expect(seen == [1, 2, 3, 4])
        #expect(!scheduler.hasPendingWork)
    }

    @Test func playbackIsReleasedWhenItEnds() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        let scheduler = VirtualTimeScheduler()
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            scheduler.play([TimedEvent<Int, Never>(1, .value(1)), TimedEvent(2, .value(2))]) { event in
                if case .value(let value) = event { subject.send(value) }
            }
            scheduler.run()
        }
        #expect(weakSubject == nil)
    }

    @Test func emptyTimelineAndPastEventsAreHandled() {
        let scheduler = VirtualTimeScheduler(now: 5)
        var log: [String] = []
        scheduler.play([TimedEvent<Int, Never>]()) { _ in log.append("never") }
        scheduler.play([TimedEvent<Int, Never>(2, .value(1)), TimedEvent(6, .value(2))]) { event in
            if case .value(let value) = event { log.append("\(value)@\(scheduler.currentFrame)") }
        }
        scheduler.run()
        #expect(log == ["1@5", "2@6"])
    }

    @Test func aPlaybackStartedDuringAnothersDeliveryInterleavesByTime() {
        // Each delivery re-queues the playback's own entry after it returns; a playback started
        // inside a delivery queues a fresh one. Both keep the order of queueing everything up front.
        let scheduler = VirtualTimeScheduler()
        var log: [String] = []
        let outer: [TimedEvent<String, Never>] = [TimedEvent(1, .value("a")), TimedEvent(2, .value("b")), TimedEvent(3, .value("c"))]
        scheduler.play(outer) { event in
            guard case .value(let value) = event else { return }
            log.append("\(value)@\(scheduler.currentFrame)")
            if value == "a" {
                let inner: [TimedEvent<String, Never>] = [TimedEvent(0, .value("x")), TimedEvent(1, .value("y")), TimedEvent(2, .value("z"))]
                scheduler.play(inner, offset: scheduler.currentFrame) { event in
                    if case .value(let value) = event { log.append("\(value)@\(scheduler.currentFrame)") }
                }
            }
        }
        scheduler.run()
        // At frame 1 the inner "x" was queued after the outer "b" was reserved, but "b" is at
        // frame 2; at frames 2 and 3 the outer events were reserved first and so come first.
        #expect(log == ["a@1", "x@1", "b@2", "y@2", "c@3", "z@3"])
    }

    @Test func aCancelledPlaybackIsReleasedWhenItsEntrySurfaces() {
        weak var weakPlayback: AnyObject?
        let scheduler = VirtualTimeScheduler()
        var seen: [Int] = []
        do {
            let playback = scheduler.play([TimedEvent<Int, Never>(1, .value(1)), TimedEvent(1_000, .value(2))]) { event in
                if case .value(let value) = event { seen.append(value) }
            }
            weakPlayback = playback as AnyObject
            scheduler.run(until: 1)
            playback.cancel()
        }
        #expect(weakPlayback != nil, "its queued entry still holds it")
        scheduler.run()
        #expect(weakPlayback == nil)
        #expect(seen == [1])
        #expect(!scheduler.hasPendingWork)
    }

    @Test func longTimelinesKeepOneQueueEntry() {
        let scheduler = VirtualTimeScheduler()
        var count = 0
        var sum = 0
        let events = (1...5_000).map { TimedEvent<Int, Never>($0 * 1_000_000, .value($0)) }
        scheduler.play(events) { event in
            if case .value(let value) = event { count += 1; sum += value }
        }
        scheduler.run(until: 3)
        #expect(scheduler.hasPendingWork)
        scheduler.run()
        #expect(count == 5_000 && sum == 5_000 * 5_001 / 2)
        #expect(scheduler.currentFrame == 5_000_000_000)
    }
}
