// MarbleTesting drives Reactive only where Combine cannot be imported (on Apple platforms it
// drives Combine): the engine's tests written with it run there.
#if !canImport(Combine)
import MarbleTesting
@testable import Reactive
import Testing

/// One operator of the engine, applied to the contract check's cold upstream (`1…9`, one
/// every two frames, then `|`).
struct OperatorUnderContract: Sendable, CustomTestStringConvertible {
    var name: String
    var check: @Sendable () -> [ContractViolation]
    /// Rules Combine's own operator breaks (the engine reproduces Combine, not the rule), and why.
    var combineBreaks: Set<ContractRule> = []
    var why = ""
    var testDescription: String { name }

    init<P: Publisher & SendableMetatype>(_ name: String, _ apply: @escaping @Sendable (TestPublisher<Int, ContractError>, TestScheduler) -> P) {
        self.name = name
        check = { PublisherContract.check(operator: name, apply) }
    }

    func breaking(_ rules: Set<ContractRule>, because why: String) -> Self {
        var copy = self
        copy.combineBreaks = rules
        copy.why = why
        return copy
    }
}

/// Every operator of the engine (the catalogue's `marbles operators`), each checked against
/// the publisher contract: demand, completion, cancellation, request(.none), double cancel,
/// re-entrant requests.
let engineOperators: [OperatorUnderContract] = [
    .init("map") { upstream, _ in upstream.map { $0 * 2 } },
    .init("tryMap") { upstream, _ in upstream.tryMap { $0 * 2 } },
    .init("compactMap") { upstream, _ in upstream.compactMap { $0 % 2 == 0 ? $0 : nil } },
    .init("tryCompactMap") { upstream, _ in upstream.tryCompactMap { $0 % 2 == 0 ? $0 : nil } },
    .init("filter") { upstream, _ in upstream.filter { $0 % 3 != 0 } },
    .init("tryFilter") { upstream, _ in upstream.tryFilter { $0 % 3 != 0 } },
    .init("scan") { upstream, _ in upstream.scan(0, +) },
    .init("tryScan") { upstream, _ in upstream.tryScan(0, +) },
    .init("removeDuplicates") { upstream, _ in upstream.map { $0 / 2 }.removeDuplicates() },
    .init("tryRemoveDuplicates") { upstream, _ in upstream.tryRemoveDuplicates { $0 / 2 == $1 / 2 } },
    .init("mapError") { upstream, _ in upstream.mapError { $0 } },
    .init("setFailureType") { upstream, _ in upstream.replaceError(with: 0).setFailureType(to: ContractError.self) },
    .init("replaceError") { upstream, _ in upstream.replaceError(with: 0) },
    .init("replaceEmpty") { upstream, _ in upstream.replaceEmpty(with: 0) }
        .breaking([.demand, .requestNone], because: "Combine's ReplaceEmpty asks upstream for .unlimited and forwards every value whatever the downstream demand (OpenCombine's ReplaceEmpty)"),
    .init("ignoreOutput") { upstream, _ in upstream.ignoreOutput() },
    .init("handleEvents") { upstream, _ in upstream.handleEvents() },
    .init("print") { upstream, _ in upstream.print("contract") { _ in } },
    .init("eraseToAnyPublisher") { upstream, _ in upstream.eraseToAnyPublisher() },
    .init("dropFirst") { upstream, _ in upstream.dropFirst(2) },
    .init("drop(while:)") { upstream, _ in upstream.drop { $0 < 3 } },
    .init("tryDrop(while:)") { upstream, _ in upstream.tryDrop { $0 < 3 } },
    .init("prefix") { upstream, _ in upstream.prefix(3) },
    .init("prefix(while:)") { upstream, _ in upstream.prefix { $0 < 6 } },
    .init("tryPrefix(while:)") { upstream, _ in upstream.tryPrefix { $0 < 6 } },
    .init("output(at:)") { upstream, _ in upstream.output(at: 2) },
    .init("output(in:)") { upstream, _ in upstream.output(in: 1..<4) },
    .init("first") { upstream, _ in upstream.first() },
    .init("first(where:)") { upstream, _ in upstream.first { $0 > 2 } },
    .init("tryFirst(where:)") { upstream, _ in upstream.tryFirst { $0 > 2 } },
    .init("last") { upstream, _ in upstream.last() },
    .init("last(where:)") { upstream, _ in upstream.last { $0 < 5 } },
    .init("tryLast(where:)") { upstream, _ in upstream.tryLast { $0 < 5 } },
    .init("collect") { upstream, _ in upstream.collect() },
    .init("collect(count)") { upstream, _ in upstream.collect(2) },
    .init("collect(byTime)") { upstream, scheduler in upstream.collect(.byTime(scheduler, .milliseconds(3))) },
    .init("collect(byTimeOrCount)") { upstream, scheduler in upstream.collect(.byTimeOrCount(scheduler, .milliseconds(5), 2)) },
    .init("reduce") { upstream, _ in upstream.reduce(0, +) },
    .init("tryReduce") { upstream, _ in upstream.tryReduce(0, +) },
    .init("count") { upstream, _ in upstream.count() },
    .init("min") { upstream, _ in upstream.min() },
    .init("max") { upstream, _ in upstream.max() },
    .init("tryMin(by:)") { upstream, _ in upstream.tryMin(by: <) },
    .init("tryMax(by:)") { upstream, _ in upstream.tryMax(by: <) },
    .init("contains") { upstream, _ in upstream.contains(4) },
    .init("tryContains(where:)") { upstream, _ in upstream.tryContains { $0 == 4 } },
    .init("allSatisfy") { upstream, _ in upstream.allSatisfy { $0 < 5 } },
    .init("tryAllSatisfy") { upstream, _ in upstream.tryAllSatisfy { $0 < 50 } },
    .init("append") { upstream, _ in upstream.append(10, 11) },
    .init("append(publisher)") { upstream, scheduler in upstream.append(scheduler.cold("-a|", values: ["a": 10], error: ContractError())) },
    .init("prepend") { upstream, _ in upstream.prepend(0) },
    .init("prepend(publisher)") { upstream, scheduler in upstream.prepend(scheduler.cold("-a|", values: ["a": 0], error: ContractError())) },
    .init("merge") { upstream, scheduler in upstream.merge(with: scheduler.cold("--a--b|", values: ["a": 10, "b": 11], error: ContractError())) },
    .init("merge3") { upstream, scheduler in upstream.merge(with: upstream, scheduler.cold("--a|", values: ["a": 10], error: ContractError())) },
    .init("zip") { upstream, scheduler in upstream.zip(scheduler.cold("a-b-c-d|", values: ["a": 1, "b": 2, "c": 3, "d": 4], error: ContractError())) },
    .init("combineLatest") { upstream, scheduler in upstream.combineLatest(scheduler.cold("a---b|", values: ["a": 1, "b": 2], error: ContractError())) },
    .init("flatMap") { upstream, scheduler in upstream.flatMap { value in scheduler.cold("-a|", values: ["a": value], error: ContractError()) } },
    .init("flatMap(maxPublishers: 1)") { upstream, scheduler in
        upstream.flatMap(maxPublishers: .max(1)) { value in scheduler.cold("---a|", values: ["a": value], error: ContractError()) }
    },
    .init("switchToLatest") { upstream, scheduler in upstream.map { value in scheduler.cold("-a--b|", values: ["a": value, "b": -value], error: ContractError()) }.switchToLatest() },
    .init("catch") { upstream, scheduler in upstream.catch { _ in scheduler.cold("a|", values: ["a": 0]) } },
    .init("tryCatch") { upstream, _ in upstream.tryCatch { _ in upstream } },
    .init("retry") { upstream, _ in upstream.retry(2) },
    .init("drop(untilOutputFrom:)") { upstream, scheduler in upstream.drop(untilOutputFrom: scheduler.cold("---a|", values: ["a": 0], error: ContractError())) }
        .breaking([.reentrantRequest], because: "a dropped value still uses up a unit of downstream demand (OpenCombine's DropUntilOutput: pendingDemand -= 1), so a subscriber that asks for one more only when a value arrives waits forever"),
    .init("prefix(untilOutputFrom:)") { upstream, scheduler in upstream.prefix(untilOutputFrom: scheduler.cold("-------a|", values: ["a": 0], error: ContractError())) },
    .init("buffer(byRequest)") { upstream, _ in upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest) },
    .init("buffer(keepFull)") { upstream, _ in upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest) },
    .init("share") { upstream, _ in upstream.share() },
    .init("multicast") { upstream, _ in upstream.multicast { PassthroughSubject<Int, ContractError>() }.autoconnect() },
    .init("makeConnectable") { upstream, _ in upstream.replaceError(with: 0).makeConnectable().autoconnect() },
    .init("debounce") { upstream, scheduler in upstream.debounce(for: .milliseconds(3), scheduler: scheduler) },
    .init("throttle(latest)") { upstream, scheduler in upstream.throttle(for: .milliseconds(3), scheduler: scheduler, latest: true) },
    .init("throttle(first)") { upstream, scheduler in upstream.throttle(for: .milliseconds(3), scheduler: scheduler, latest: false) },
    .init("delay") { upstream, scheduler in upstream.delay(for: .milliseconds(3), scheduler: scheduler) },
    .init("timeout") { upstream, scheduler in upstream.timeout(.milliseconds(3), scheduler: scheduler) },
    .init("receive(on:)") { upstream, scheduler in upstream.receive(on: scheduler) },
    .init("subscribe(on:)") { upstream, scheduler in upstream.subscribe(on: scheduler) },
    .init("measureInterval") { upstream, scheduler in upstream.measureInterval(using: scheduler) },
]

@Suite struct OperatorContractTests {
    @Test(arguments: engineOperators)
    func keepsThePublisherContract(_ op: OperatorUnderContract) {
        guard !op.combineBreaks.isEmpty else {
            #expect(op.check().isEmpty)
            return
        }
        // Exactly the rules Combine breaks, no other: the check's own issue is the known one.
        var broken: Set<ContractRule> = []
        withKnownIssue(Comment(rawValue: op.why)) { broken = Set(op.check().map(\.rule)) }
        #expect(broken == op.combineBreaks)
    }
}

/// A time operator on the virtual scheduler, over `String` values, erased so that one table
/// holds them all.
struct TimeOperatorRow: Sendable, CustomTestStringConvertible {
    var name: String
    var apply: @Sendable (AnyPublisher<String, TestFailure>, VirtualTimeScheduler) -> AnyPublisher<String, TestFailure>
    var testDescription: String { name }

    init<P: Publisher & SendableMetatype>(_ name: String, _ apply: @escaping @Sendable (AnyPublisher<String, TestFailure>, VirtualTimeScheduler) -> P)
    where P.Output == String, P.Failure == TestFailure {
        self.name = name
        self.apply = { apply($0, $1).eraseToAnyPublisher() }
    }
}

/// Rules every time operator keeps, one table each: what the operators' suites would otherwise
/// each write again (the publisher contract itself — cancel, demand, completion — is
/// `OperatorContractTests` above).
@Suite struct TimeOperatorTableTests {
    /// A value sent at frame 2 arrives at frame 2, and, for an operator that goes through the
    /// scheduler, only after the send has returned — even with an interval of 0 (pointfree
    /// combine-schedulers testDelay0Advance, testReceiveOnAdvance: nothing scheduled runs
    /// inside the call that schedules it).
    static let hops: [(TimeOperatorRow, hops: Bool, arrives: String)] = [
        (.init("debounce(for: 0)") { $0.debounce(for: 0, scheduler: $1) }, true, "a@2"),
        (.init("delay(for: 0)") { $0.delay(for: 0, scheduler: $1) }, true, "a@2"),
        (.init("throttle's leading value") { $0.throttle(for: 3, scheduler: $1, latest: true) }, true, "a@2"),
        (.init("receive(on:)") { $0.receive(on: $1) }, true, "a@2"),
        (.init("measureInterval (synchronous)") { $0.measureInterval(using: $1).map { String($0.frames) } }, false, "2@2"),
        (.init("subscribe(on:) values (synchronous)") { $0.subscribe(on: $1) }, false, "a@2"),
    ]

    @Test(arguments: 0..<TimeOperatorTableTests.hops.count) func aValueArrivesInItsFrameByAHopOrInline(_ index: Int) {
        let (row, hops, arrives) = Self.hops[index]
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<String, TestFailure>()
        let subscriber = TestSubscriber<String, TestFailure>(scheduler: scheduler)
        row.apply(subject.eraseToAnyPublisher(), scheduler).subscribe(subscriber)
        var seenInline = -1
        scheduler.schedule(at: 2) {
            subject.send("a")
            seenInline = subscriber.events.count
        }
        scheduler.run()
        #expect(seenInline == (hops ? 0 : 1), "\(row.name)")
        #expect(trace(subscriber.events) == [arrives], "\(row.name)")
        // The subject never finishes: the subscriber and the chain hold each other until cancelled.
        letGo(scheduler, subscriber)
    }

    /// Operators that pass demand through: a cold source (which sends only what is asked for)
    /// behind them is asked exactly what the subscriber asks, when it asks, and delivers that.
    /// (row, source, subscriber's demand, output, the source's requests, the subscriber's
    /// subscription if it cancels, the source's subscription if it is checked)
    static let demand: [(ClockedOperatorRow, source: String, demand: String, output: String, requests: String, subscriber: String?, subscription: String?)] = [
        // `b` and the completion wait in the source until the request at 5, then take 2 frames.
        (.init("delay") { $0.delay(for: 2, scheduler: $1.clock) }, "ab|", "1----1", "--a----(b|)", "1----1", nil, nil),
        (.init("measureInterval") { $0.measureInterval(using: $1.clock).map { String($0.frames) } }, "ab|", "1---1", "0---(4|)", "1---1", nil, nil),
        // Only `a` is asked for; the source holds the rest, and the silence ends the stream.
        (.init("timeout") { $0.timeout(10, scheduler: $1.clock) }, "abc|", "1", "a---------|", "1", nil, "^---------!"),
        // The request at 3 brings `b`; the cancel at 5 reaches the source.
        (.init("receive(on:)") { $0.receive(on: $1.clock) }, "abc|", "1--1", "a--b", "1--1", "^----!", "^----!"),
    ]

    @Test(arguments: 0..<TimeOperatorTableTests.demand.count) func demandPassesThrough(_ index: Int) {
        let row = Self.demand[index]
        let scheduler = TestScheduler()
        let source = scheduler.cold(row.source)
        let output = row.0.apply(source.eraseToAnyPublisher(), scheduler)
        if let subscriber = row.subscriber {
            scheduler.expect(output, row.output, subscription: subscriber, demand: row.demand)
        } else {
            scheduler.expect(output, row.output, demand: row.demand)
        }
        scheduler.expect(source.requests, row.requests)
        if let subscription = row.subscription { scheduler.expect(source.subscriptions, subscription) }
        scheduler.run()
    }
}

/// A time operator on MarbleTesting's scheduler (its `clock`), over `String` values.
struct ClockedOperatorRow: Sendable, CustomTestStringConvertible {
    var name: String
    var apply: @Sendable (AnyPublisher<String, Never>, TestScheduler) -> AnyPublisher<String, Never>
    var testDescription: String { name }

    init<P: Publisher & SendableMetatype>(_ name: String, _ apply: @escaping @Sendable (AnyPublisher<String, Never>, TestScheduler) -> P)
    where P.Output == String, P.Failure == Never {
        self.name = name
        self.apply = { apply($0, $1).eraseToAnyPublisher() }
    }
}
#endif
