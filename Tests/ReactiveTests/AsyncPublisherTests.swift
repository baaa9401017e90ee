import Foundation
import Testing
@testable import Reactive

/// Shared between a test and the task it starts.
private final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func append(_ entry: String) { lock.lock(); entries.append(entry); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return entries }
}

/// Sends two values for every unit of demand: more than was asked for.
private struct GreedyPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    final class Link: Subscription {
        var next = 1
        let subscriber: any Subscriber<Int, Never>
        init(_ subscriber: any Subscriber<Int, Never>) { self.subscriber = subscriber }
        func request(_ demand: Subscribers.Demand) {
            for _ in 0..<2 { _ = subscriber.receive(next); next += 1 }
        }
        func cancel() {}
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Link(subscriber))
    }
}

private final class Progress: ObservableObject {
    @Published var fraction = 0.0
}

@Suite struct AsyncPublisherTests {
    @Test func iteratesEveryValueThenEnds() async {
        var seen: [Int] = []
        for await value in [1, 2, 3].publisher.values { seen.append(value) }
        #expect(seen == [1, 2, 3])
    }

    @Test func subscribesOnMakingTheIteratorAndAsksForOneValuePerNext() async {
        let log = Log()
        let values = [1, 2, 3].publisher
            .handleEvents(receiveSubscription: { _ in log.append("subscribed") }, receiveRequest: { log.append("request \($0)") })
            .values
        var iterator = values.makeAsyncIterator()
        #expect(log.all == ["subscribed"])
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 2)
        #expect(log.all == ["subscribed", "request max(1)", "request max(1)"])
    }

    @Test func aFailureIsThrownByTheNextThatMeetsIt() async throws {
        var iterator = [1, 2, 3].publisher.tryMap { value -> Int in
            if value == 3 { throw TestFailure("three") }
            return value
        }.values.makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        #expect(try await iterator.next() == 2)
        await #expect(throws: TestFailure("three")) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func aFailureWhileNobodyWaitsIsThrownByTheFollowingNext() async throws {
        // OpenCombine's AsyncThrowingPublisher drops it (its `.terminal` state returns nil, marked
        // TODO); Combine documents the sequence as throwing the publisher's failure.
        let subject = PassthroughSubject<Int, TestFailure>()
        var iterator = subject.values.makeAsyncIterator()
        subject.send(completion: .failure(TestFailure("early")))
        await #expect(throws: TestFailure("early")) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func finishingEndsEveryLaterNext() async throws {
        let subject = PassthroughSubject<Int, TestFailure>()
        var iterator = subject.values.makeAsyncIterator()
        subject.send(completion: .finished)
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
    }

    @Test func cancellingTheTaskCancelsTheSubscriptionAndEndsTheLoop() async {
        let log = Log()
        let subject = PassthroughSubject<Int, Never>()
        let values = subject.handleEvents(receiveCancel: { log.append("cancelled") }).values
        let task = Task {
            for await value in values { log.append("value \(value)") }
            return "ended"
        }
        task.cancel()
        #expect(await task.value == "ended")
        #expect(log.all == ["cancelled"])
    }

    @Test func valuesBeyondDemandAreDroppedNotQueued() async {
        var iterator = GreedyPublisher().values.makeAsyncIterator()
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == 3)
    }

    @Test @MainActor func publishedValuesFromAnIsolatedLoop() async {
        let progress = Progress()
        progress.fraction = 1
        var seen: [Double] = []
        for await fraction in progress.$fraction.values where fraction >= 1 {
            seen.append(fraction)
            break
        }
        #expect(seen == [1])
    }

    @Test func leavingALoopEarlyCancelsItsSubscriptionAndLetsThePipelineGo() async throws {
        let log = Log()
        let subject = CurrentValueSubject<Int, TestFailure>(1)
        weak var plain: Probe?
        weak var throwing: Probe?
        do {
            let (first, second) = (Probe(), Probe())
            (plain, throwing) = (first, second)
            let values = subject.replaceError(with: 0).map { _ in first }.handleEvents(receiveCancel: { log.append("for await") }).values
            for await _ in values { break }
            let throwingValues = subject.map { _ in second }.handleEvents(receiveCancel: { log.append("for try await") }).values
            for try await _ in throwingValues { break }
        }
        #expect(log.all == ["for await", "for try await"])
        #expect(plain == nil)
        #expect(throwing == nil)
    }
}

/// Held by a pipeline's closure: gone once the pipeline is.
private final class Probe {}
