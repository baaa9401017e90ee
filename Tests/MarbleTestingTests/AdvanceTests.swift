import MarbleTesting
import Testing

/// `advance(by:)` / `advance(to:)`: step-by-step tests in combine-schedulers' style.
@Suite struct AdvanceTests {
    @Test func runsWhatIsDueByThenAndNothingLater() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let subject = PassthroughSubject<String, Never>()
        var received: [String] = []
        let cancellable = subject.debounce(for: .milliseconds(300), scheduler: scheduler).sink { received.append($0) }
        subject.send("a")
        scheduler.advance(by: .milliseconds(299))
        #expect(received == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(received == ["a"])
        #expect(scheduler.now == .init(nanoseconds: 300_000_000))
        cancellable.cancel()
    }

    @Test func advancesShorterThanAFrameAddUp() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        var ran = false
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(200))) { ran = true }
        for _ in 1...3 { scheduler.advance(by: .milliseconds(50)) }
        // 150 ms reached: time stays at the frame that began at 100 ms.
        #expect(!ran)
        #expect(scheduler.now == .init(nanoseconds: 100_000_000))
        scheduler.advance(by: .milliseconds(50))
        #expect(ran)
    }

    @Test func idleTimePassesAndAdvanceToThePastRunsOnlyWhatIsDueNow() {
        let scheduler = TestScheduler(frame: .milliseconds(10))
        scheduler.advance(by: .seconds(1))
        #expect(scheduler.currentFrame == 100)
        var ran = 0
        scheduler.schedule { ran += 1 }
        scheduler.advance(to: .init(nanoseconds: 0))
        #expect(ran == 1)
        #expect(scheduler.currentFrame == 100)
        scheduler.advance()
        #expect(ran == 1)
    }

    @Test func hotSourcesStartPlayingAtTheFirstAdvanceAndRunChecksTheRest() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let recording = scheduler.expect(scheduler.hot("-a-b|"), "-a-b|")
        scheduler.advance(by: .milliseconds(150))
        #expect(recording.values == ["a"])
        #expect(scheduler.run().isEmpty)
        #expect(recording.values == ["a", "b"])
    }

    @Test func aRunThatNeverSettlesIsRecordedAtTheAdvance() throws {
        var line = 0
        let issues = recordedIssues {
            let scheduler = neverSettlingScheduler()
            line = #line + 1
            scheduler.advance(by: .milliseconds(5))
        }
        let issue = try #require(issues.first)
        #expect(issue.message == "the run stopped at frame 0: more than 50 actions ran at frame 0: the pipeline never settles")
        #expect(issue.sourceLocation?.line == line)
    }
}
