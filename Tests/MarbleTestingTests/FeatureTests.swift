@testable import MarbleTesting
import Foundation
import Testing

private struct Item: Equatable { var id: Int; var title: String }
private enum Mood: Equatable { case calm, angry }
private enum Failure: Error, Equatable { case timeout, offline }

@Suite struct FeatureTests {
    @Test func valuesOfAnyEquatableType() {
        let scheduler = TestScheduler()
        let items = scheduler.cold("-a-b|", values: ["a": Item(id: 1, title: "one"), "b": Item(id: 2, title: "two")])
        scheduler.expect(items.map(\.id), "-1-2|")
        let moods = scheduler.hot("-c-a-|", values: ["c": Mood.calm, "a": Mood.angry])
        scheduler.expect(moods, "-c-a-|", values: ["c": .calm, "a": .angry])
        let optionals = scheduler.cold("n-s|", values: ["n": nil, "s": "some"] as [Character: String?])
        scheduler.expect(optionals, "n-s|", values: ["n": nil, "s": "some"])
        #expect(scheduler.run().isEmpty)
    }

    @Test func aValueOfTheWrongTypeFails() throws {
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            let moods = scheduler.hot("-c-a-|", values: ["c": Mood.calm, "a": Mood.angry])
            scheduler.expect(moods, "-c-c-|", values: ["c": .calm, "a": .angry])
            scheduler.run()
        }
        let issue = try #require(issues.first)
        #expect(issue.message.contains("^ frame 3: expected c, got a"))
    }

    @Test func literalsAndDigitsWithoutAValuesTable() {
        let scheduler = TestScheduler()
        let numbers = scheduler.cold("-1-{42}-|", values: [Character: Int]())
        scheduler.expect(numbers.map { $0 + 1 }, "-2-{43}-|")
        let words = scheduler.cold("-{\"two words\"}|")
        scheduler.expect(words, "-{\"two words\"}|")
        #expect(scheduler.run().isEmpty)
    }

    @Test func errorsOfAnyEquatableType() {
        let scheduler = TestScheduler()
        let request = scheduler.cold("--#", values: [Character: Int](), error: Failure.timeout)
        scheduler.expect(request, "--#", error: .timeout)
        let named = scheduler.cold("-1-#{offline}", values: [Character: Int](), errors: ["offline": Failure.offline])
        scheduler.expect(named.retry(1), "-1--1-#{offline}", errors: ["offline": .offline])
        #expect(scheduler.run().isEmpty)
    }

    @Test func theWrongErrorIsNamedInTheDiff() throws {
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            let request = scheduler.cold("--#", values: [Character: Int](), error: Failure.offline)
            scheduler.expect(request, "--#", error: .timeout)
            scheduler.run()
        }
        let issue = try #require(issues.first)
        #expect(issue.message.contains("actual     --#{offline}"))
        #expect(issue.message.contains("^ frame 2: expected failure #, got failure #{offline}"))
    }

    @Test func aHashWithoutAnErrorIsAMistakeAtTheLine() throws {
        var line = 0
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            line = #line + 1
            _ = scheduler.cold("-a-#")
        }
        let issue = try #require(issues.first)
        #expect(issue.sourceLocation?.line == line)
        #expect(issue.message == """
            error in cold marbles: '#' fails the stream, but no error was given
              "-a-#"
                  ^
                  pass error: (the Never that '#' stands for)
            """)
    }

    @Test func aNameWithoutAValueIsAMistake() throws {
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            _ = scheduler.hot("-a-x|", values: ["a": 1])
        }
        #expect(issues.first?.message == """
            error in hot marbles: no value named 'x'
              "-a-x|"
                  ^
                  add "x": … to values:
            """)
    }

    @Test func inOrderIgnoresTiming() throws {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a---b-----c|")
        scheduler.expect(source, inOrder: "abc|")
        #expect(scheduler.run().isEmpty)

        let issues = recordedIssues {
            let scheduler = TestScheduler()
            let source = scheduler.hot("-a---b|")
            scheduler.expect(source, inOrder: "a b c |")
            scheduler.run()
        }
        let issue = try #require(issues.first)
        #expect(issue.message == """
            source did not emit the expected events in order:

              source     -a---b|
              expected   abc|
              actual     ab|
                           ^ index 2: expected c, got finished
                            ^ index 3: expected finished, got nothing
            """)
    }

    @Test func subscriptionsOfASource() throws {
        let scheduler = TestScheduler()
        let taps = scheduler.hot("-a-b--------c---|")
        let request = scheduler.cold("---x|")
        scheduler.expect(taps.map { _ in request }.switchToLatest(), "------x--------x|")
        scheduler.expect(request.subscriptions, "-^-!", "---^---!", "------------^---!")
        #expect(scheduler.run().isEmpty)

        // The test's subscriber cancels at frame 3 (not an operator: `prefix(1)` finishes at once
        // in Apple's Combine and Reactive, at the next event in OpenCombine).
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            let request = scheduler.cold("----x|", name: "request")
            scheduler.expect(request, "---", subscription: "^--!")
            scheduler.expect(request.subscriptions, "^-!")
            scheduler.run()
        }
        #expect(issues.map(\.message) == ["""
            the first subscription to request differs:

              request                          ----x|  (cold: plays from each subscription)
              expected request.subscriptions   ^-!
              actual request.subscriptions     ^--!
                                                 ^ frame 2: expected the first subscription to end here, but it ended at frame 3
            """])
    }

    @Test func aSourceThatMustNeverBeSubscribed() throws {
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            let fallback = scheduler.cold("a|", name: "fallback")
            scheduler.expect(scheduler.cold("-#", values: [Character: String](), error: Failure.offline).catch { _ in fallback }, "-a|")
            scheduler.expect(fallback.subscriptions)
            scheduler.run()
        }
        #expect(issues.count == 1)
        #expect(issues.first?.message.contains("^ frame 1: expected fallback never to be subscribed, but it was subscribed here") == true)
    }

    @Test func demandScriptAndRequests() throws {
        let scheduler = TestScheduler()
        let source = scheduler.cold("abcd|")
        scheduler.expect(source, "a---b-(cd|)", demand: "1---1-*")
        scheduler.expect(source.requests, "1---1-*")
        #expect(scheduler.run().isEmpty)

        let issues = recordedIssues {
            let scheduler = TestScheduler()
            let source = scheduler.cold("abcd|", name: "source")
            scheduler.expect(source.dropFirst(), "-bc", demand: "2")
            scheduler.expect(source.requests, "2")
            scheduler.run()
        }
        // dropFirst asks for the value it drops as soon as it is subscribed, before any demand.
        #expect(issues.map(\.message) == ["""
            source was not asked for the expected demand:

              source                     abcd|  (cold: plays from each subscription)
              expected source.requests   2
              actual source.requests     (12)
                                         ^ frame 0: expected source to be asked for .max(2), got .max(1) then .max(2)
            """])
    }

    @Test func aSubscriptionScriptSubscribesAndCancels() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b-c-d-|")
        let recording = scheduler.expect(source, "---b-c", subscription: "--^---!")
        scheduler.expect(source.subscriptions, "--^---!")
        #expect(scheduler.run().isEmpty)
        #expect(recording.values == ["b", "c"])
    }

    @Test func aCancelWithoutACaretSubscribesAtFrameZero() {
        // RxJS's `expectObservable(result, '----!')`: subscribed at 0, cancelled at 4.
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-b-c-d-|")
        let recording = scheduler.expect(source, "-a-b", subscription: "----!")
        scheduler.expect(source.subscriptions, "----!")
        #expect(scheduler.run().isEmpty)
        #expect(recording.values == ["a", "b"])
    }

    @Test func timeBeforeTheCaretIsReal() {
        let scheduler = TestScheduler()
        let source = scheduler.hot("-a-^-b-|")
        scheduler.expect(source, "--b-|")
        #expect(scheduler.run().isEmpty)
    }

    @Test func sendDrivesYourSubjectsAndProperties() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        scheduler.send("-1-2-|", values: [Character: Int](), to: subject)
        scheduler.expect(subject.map { $0 * 10 }, "-{10}-{20}-|")
        final class Model { var query = "" }
        let model = Model()
        var seen: [String] = []
        scheduler.send("-a--b") { model.query = $0; seen.append(model.query) }
        #expect(scheduler.run().isEmpty)
        #expect(seen == ["a", "b"])
    }

    @Test func theSchedulerRunsWorkAtTheFirstFrameNotBeforeItsTime() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        var frames: [Int] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(250))) { frames.append(scheduler.currentFrame) }
        scheduler.schedule(after: scheduler.now.advanced(by: 1)) { frames.append(scheduler.currentFrame) }
        let timer = scheduler.schedule(after: scheduler.now, interval: .milliseconds(400)) { frames.append(-scheduler.currentFrame) }
        scheduler.clock.schedule(at: 9) { timer.cancel() }
        scheduler.run()
        #expect(frames == [0, 3, -4, -8, 10])
        #expect(scheduler.now == TestScheduler.SchedulerTimeType(nanoseconds: 1_000_000_000))
    }

    @Test func theDispatchQueueStandInRunsOnTheVirtualClock() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let queue = scheduler.dispatchQueue
        let typing = scheduler.hot("-a-b-c-----d--e-|")
        scheduler.expect(typing.debounce(for: .milliseconds(300), scheduler: queue), "--------c-------|")
        var frames: [Int] = []
        queue.schedule(after: queue.now.advanced(by: .milliseconds(250))) { frames.append(scheduler.currentFrame) }
        let timer = queue.schedule(after: queue.now.advanced(by: .milliseconds(200)), interval: .milliseconds(300)) { frames.append(-scheduler.currentFrame) }
        scheduler.clock.schedule(at: 9) { timer.cancel() }
        #expect(scheduler.run().isEmpty)
        #expect(frames == [-2, 3, -5, -8])
        // Frame 0 at an uptime of 1,000 s; each frame 100 ms later. (Where the run ends is the
        // engine's: Reactive's debounce leaves a spent one-shot at frame 17, OpenCombine's does not.)
        #expect(scheduler.currentFrame >= 16)
        #expect(queue.now == DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: UInt64(1_000_000_000_000 + scheduler.currentFrame * 100_000_000))))
    }

    /// The stand-ins' time types are the real schedulers' own, so a type eraser of the app's (or
    /// combine-schedulers' `AnyScheduler`) wraps them as it wraps `DispatchQueue.main`.
    @Test func aTypeEraserWrapsTheStandIns() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        let queue = AppScheduler(scheduler.dispatchQueue)
        let loop = AppScheduler(scheduler.runLoop)
        let operations = AppScheduler(scheduler.operationQueue)
        let typing = scheduler.hot("-a-b-c-----d--e-|")
        scheduler.expect(typing.debounce(for: .milliseconds(300), scheduler: queue), "--------c-------|")
        scheduler.expect(typing.debounce(for: .milliseconds(300), scheduler: loop), "--------c-------|")
        scheduler.expect(typing.delay(for: .milliseconds(200), scheduler: operations), "---a-b-c-----d--e-|")
        var frames: [Int] = []
        loop.schedule(after: loop.now.advanced(by: .seconds(0.25))) { frames.append(scheduler.currentFrame) }
        operations.schedule(after: operations.now.advanced(by: 0.1)) { frames.append(scheduler.currentFrame) }
        #expect(scheduler.run().isEmpty)
        #expect(frames == [1, 3])
        // The delayed completion ran last, at frame 18: 1.8 s after 2001-01-01, Foundation's reference date.
        #expect(scheduler.currentFrame == 18)
        #expect(loop.now == RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 1.8)))
        #expect(operations.now == OperationQueue.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 1.8)))
    }

    /// Frames before `^` are real instants of the stand-ins too.
    @Test func theStandInsReachBeforeFrameZero() {
        let scheduler = TestScheduler(frame: .milliseconds(100))
        var seen: [DispatchQueue.SchedulerTimeType] = []
        scheduler.send("a-^-b", values: ["a": 1, "b": 2]) { _ in seen.append(scheduler.dispatchQueue.now) }
        #expect(scheduler.run().isEmpty)
        #expect(seen.map { Int($0.dispatchTime.uptimeNanoseconds) - 1_000_000_000_000 } == [-200_000_000, 200_000_000])
    }

    @Test func anExpectationNeverRunIsReported() throws {
        var line = 0
        let issues = recordedIssues {
            let scheduler = TestScheduler()
            line = #line + 1
            scheduler.expect(scheduler.hot("-a|"), "-a|")
        }
        let issue = try #require(issues.first)
        #expect(issue.sourceLocation?.line == line)
        #expect(issue.message == "this expectation was never checked: call run() on its TestScheduler after the last expect")
    }

    @Test func aFailureAttachesItsDiagramAndWritesItWhereAsked() throws {
        let scheduler = TestScheduler()
        let failures = recordedIssues {
            scheduler.expect(scheduler.hot("-a|"), "-b|")
            scheduler.run()
        }
        #expect(failures.count == 1)
        let failure = MarbleFailure(message: "m", location: MarbleSourceLocation(fileID: "M/T.swift", filePath: #filePath, line: 3, column: 1),
                                    svg: "<svg/>", diagramName: "t--line-3.svg")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marbles-diagrams-\(UUID().uuidString)").path
        let written = try #require(DiagramFolder.write(failure, to: folder))
        #expect(written == folder + "/t--line-3.svg")
        #expect(try String(contentsOfFile: written, encoding: .utf8) == "<svg/>")
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test func theDiagramOfAFailureIsAnSVGOfTheMismatch() throws {
        let scheduler = TestScheduler()
        let typing = scheduler.hot("-a-b|", name: "typing")
        var failures: [MarbleFailure] = []
        _ = recordedIssues {
            scheduler.expect(typing, "-a-c|")
            failures = scheduler.run()
        }
        let failure = try #require(failures.first)
        let svg = try #require(failure.svg)
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.contains("expected c, got b"))
        #expect(failure.diagramName == "featuretests-swift--line-\(failure.location.line).svg")
    }
}

/// A type eraser as an app writes one (combine-schedulers' `AnyScheduler` has this shape): it
/// keeps the wrapped scheduler's time and options types.
private struct AppScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    private let nowBody: () -> SchedulerTimeType
    private let toleranceBody: () -> SchedulerTimeType.Stride
    private let onceBody: (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void
    private let soonBody: (SchedulerOptions?, @escaping () -> Void) -> Void
    private let repeatingBody: (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> any Cancellable

    init<S: Scheduler>(_ scheduler: S) where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
        nowBody = { scheduler.now }
        toleranceBody = { scheduler.minimumTolerance }
        onceBody = { scheduler.schedule(after: $0, tolerance: $1, options: $2, $3) }
        soonBody = { scheduler.schedule(options: $0, $1) }
        repeatingBody = { scheduler.schedule(after: $0, interval: $1, tolerance: $2, options: $3, $4) }
    }

    var now: SchedulerTimeType { nowBody() }
    var minimumTolerance: SchedulerTimeType.Stride { toleranceBody() }
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) { soonBody(options, action) }
    func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void) {
        onceBody(date, tolerance, options, action)
    }
    func schedule(after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
                  _ action: @escaping () -> Void) -> any Cancellable {
        repeatingBody(date, interval, tolerance, options, action)
    }
}
