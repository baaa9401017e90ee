import Testing
@testable import Reactive

@Suite struct ReduceTests {
    private func bracketed<P: Publisher>(_ p: P) -> Publishers.Map<P, String> where P.Output == [String] {
        p.map { "[" + $0.joined() + "]" }
    }

    @Test func collectDeliversOneArrayAtFinish() {
        let bench = Bench()
        #expect(bench.run(bracketed(bench.hot("-a-b-|").collect())) == "-----({[ab]}|)")
        let empty = Bench()
        #expect(empty.run(bracketed(empty.hot("--|").collect())) == "--({[]}|)")
        let failing = Bench()
        #expect(failing.run(bracketed(failing.hot("-a-#").collect())) == "---#")
    }

    @Test func reducersHoldTheResultUntilDemand() {
        let bench = Bench()
        let (events, subscriber) = bench.runKeepingSubscriber(bench.hot("-a-b-|").count(), initialDemand: .none, requests: [(8, .max(1))])
        #expect(events == "--------(2|)")
        #expect(subscriber.valuesWithoutDemand.isEmpty)
        let collected = Bench()
        #expect(collected.run(bracketed(collected.hot("-a-|").collect()), initialDemand: .none, requests: [(5, .max(1))]) == "-----({[a]}|)")
    }

    @Test func reducerCancellation() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-|", log: log).collect(), cancelAt: 2) == "")
        #expect(render(log) == ["^-!"])
    }

    @Test func collectByCountEmitsFullChunksAndThePartialRestAtFinish() {
        let bench = Bench()
        #expect(bench.run(bracketed(bench.hot("-a-b-c-|").collect(2))) == "---{[ab]}---({[c]}|)")
        let exact = Bench()
        #expect(exact.run(bracketed(exact.hot("-a-b-|").collect(2))) == "---{[ab]}-|")
    }

    @Test func collectByCountFailureDiscardsThePartialChunk() {
        let bench = Bench()
        #expect(bench.run(bracketed(bench.hot("-a-b-c-#").collect(2))) == "---{[ab]}---#")
    }

    @Test func collectByCountAsksUpstreamForDemandTimesCount() {
        let source = SequenceTestSource<Int, Never>()
        let subscriber = SequenceLogSubscriber<[Int], Never>(initialDemand: .max(2), log: { _ in }, demandFor: { _ in .max(1) })
        source.collect(3).subscribe(subscriber)
        #expect(source.subscription.requests == [.max(6)])
        #expect(source.send(1) == .none)
        #expect(source.send(2) == .none)
        // A chunk's returned demand is scaled too.
        #expect(source.send(3) == .max(3))
        subscriber.subscription?.request(.max(1))
        #expect(source.subscription.requests == [.max(6), .max(3)])

        let bench = Bench()
        let log = SubscriptionLog()
        let (events, checked) = bench.runKeepingSubscriber(bracketed(bench.cold("abcde|", log: log).collect(2)), initialDemand: .max(1), cancelAt: 9, requests: [(7, .max(1))])
        #expect(events == "-{[ab]}-----{[cd]}")
        #expect(checked.valuesWithoutDemand.isEmpty)
        #expect(render(log) == ["^--------!"])
    }

    @Test func reduceAndTryReduce() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b-|").reduce("x") { $0 + $1 }.map { $0.uppercased() }) == "-----({XAB}|)")
        let empty = Bench()
        #expect(empty.run(empty.hot("--|").reduce("x") { $0 + $1 }) == "--(x|)")
        let failing = Bench()
        #expect(failing.run(failing.hot("-a-#").reduce("x") { $0 + $1 }) == "---#")
        let throwing = Bench()
        let log = SubscriptionLog()
        let pipeline = throwing.hot("-a-b-c-|", log: log).tryReduce("") { result, value in
            if value == "b" { throw TestFailure("boom") }
            return result + value
        }
        #expect(throwing.run(pipeline) == "---#{boom}")
        #expect(render(log) == ["^--!"])
    }

    @Test func countCountsAtFinish() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b-c-|").count()) == "-------(3|)")
        let empty = Bench()
        #expect(empty.run(empty.hot("--|").count()) == "--(0|)")
        let failing = Bench()
        #expect(failing.run(failing.hot("-a-#").count()) == "---#")
    }

    @Test func minAndMax() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-b-c-a-|").max()) == "-------(c|)")
        let low = Bench()
        #expect(low.run(low.hot("-b-c-a-|").min()) == "-------(a|)")
        let empty = Bench()
        #expect(empty.run(empty.hot("--|").max()) == "--|")
        let failing = Bench()
        #expect(failing.run(failing.hot("-b-#").min()) == "---#")
    }

    @Test func tiesKeepTheFirstReceived() {
        let caseless: (String, String) -> Bool = { $0.lowercased() < $1.lowercased() }
        let high = Bench()
        #expect(high.run(high.hot("-a-b-B-|").max(by: caseless)) == "-------(b|)")
        let low = Bench()
        #expect(low.run(low.hot("-B-b-c-|").min(by: caseless)) == "-------(B|)")
    }

    @Test func tryMinAndTryMax() {
        let bench = Bench()
        let log = SubscriptionLog()
        let pipeline = bench.hot("-a-b-c-|", log: log).tryMax { lhs, rhs in
            if rhs == "c" { throw TestFailure("boom") }
            return lhs < rhs
        }
        #expect(bench.run(pipeline) == "-----#{boom}")
        #expect(render(log) == ["^----!"])
        let low = Bench()
        #expect(low.run(low.hot("-b-a-c-|").tryMin(by: <)) == "-------(a|)")
        let high = Bench()
        #expect(high.run(high.hot("-b-a-c-|").tryMax(by: <)) == "-------(c|)")
    }

    @Test func containsAnswersTrueOnTheMatchAndCancelsUpstream() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-c-|", log: log).contains("b")) == "---({true}|)")
        #expect(render(log) == ["^--!"])
        let none = Bench()
        #expect(none.run(none.hot("-a-c-|").contains("b")) == "-----({false}|)")
        let failing = Bench()
        #expect(failing.run(failing.hot("-a-#").contains("b")) == "---#")
    }

    @Test func containsHoldsItsAnswerUntilDemand() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-|", log: log).contains("a"), initialDemand: .none, requests: [(4, .max(1))]) == "----({true}|)")
        #expect(render(log) == ["^!"])
    }

    @Test func containsWhereAndTryContainsWhere() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-c-|", log: log).contains(where: { $0 > "a" })) == "---({true}|)")
        #expect(render(log) == ["^--!"])
        let throwing = Bench()
        let throwingLog = SubscriptionLog()
        let pipeline = throwing.hot("-a-b-|", log: throwingLog).tryContains { value in
            if value == "b" { throw TestFailure("boom") }
            return false
        }
        #expect(throwing.run(pipeline) == "---#{boom}")
        #expect(render(throwingLog) == ["^--!"])
        let plain = Bench()
        #expect(plain.run(plain.hot("-a-|").tryContains(where: { $0 == "z" })) == "---({false}|)")
    }

    @Test func allSatisfyAnswersFalseAtOnceOrTrueAtFinish() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-c-|", log: log).allSatisfy({ $0 != "b" })) == "---({false}|)")
        #expect(render(log) == ["^--!"])
        let all = Bench()
        #expect(all.run(all.hot("-a-b-|").allSatisfy({ $0 < "z" })) == "-----({true}|)")
        let empty = Bench()
        #expect(empty.run(empty.hot("--|").allSatisfy({ _ in false })) == "--({true}|)")
        let failing = Bench()
        #expect(failing.run(failing.hot("-a-#").allSatisfy({ _ in true })) == "---#")
    }

    @Test func tryAllSatisfy() {
        let bench = Bench()
        let log = SubscriptionLog()
        let pipeline = bench.hot("-a-b-|", log: log).tryAllSatisfy { value in
            if value == "b" { throw TestFailure("boom") }
            return true
        }
        #expect(bench.run(pipeline) == "---#{boom}")
        #expect(render(log) == ["^--!"])
        let plain = Bench()
        #expect(plain.run(plain.hot("-a-b-|").tryAllSatisfy({ $0 == "a" })) == "---({false}|)")
    }

    @Test func ignoreOutputForwardsOnlyTheCompletion() {
        let bench = Bench()
        #expect(bench.run(bench.hot("-a-b-|").ignoreOutput()) == "-----|")
        let failing = Bench()
        #expect(failing.run(failing.hot("-a-#").ignoreOutput()) == "---#")
        let cancelled = Bench()
        let log = SubscriptionLog()
        #expect(cancelled.run(cancelled.hot("-a-b-|", log: log).ignoreOutput(), cancelAt: 3) == "")
        #expect(render(log) == ["^--!"])
        let source = SequenceTestSource<Int, Never>()
        source.ignoreOutput().subscribe(SequenceLogSubscriber<Never, Never>(initialDemand: .none, log: { _ in }))
        #expect(source.subscription.requests == [.unlimited])
    }
}

@Suite struct SynchronousUpstreamTests {
    private let letters = ["a", "b", "c"]

    @Test func operatorsOnASequencePublisher() {
        #expect(Bench().run(letters.publisher.dropFirst()) == "(bc|)")
        #expect(Bench().run(letters.publisher.prefix(2)) == "(ab|)")
        #expect(Bench().run(letters.publisher.first()) == "(a|)")
        #expect(Bench().run(letters.publisher.last()) == "(c|)")
        #expect(Bench().run(letters.publisher.collect().map { $0.joined() }) == "({abc}|)")
        #expect(Bench().run(letters.publisher.collect(2).map { $0.joined() }) == "({ab}c|)")
        #expect(Bench().run(letters.publisher.contains("b")) == "({true}|)")
        #expect(Bench().run(letters.publisher.buffer(size: 1, prefetch: .keepFull, whenFull: .dropNewest)) == "(abc|)")
        #expect(Bench().run(letters.publisher.scan("") { $0 + $1 }.count()) == "(3|)")
    }

    @Test func sequenceWithLimitedDemand() {
        #expect(Bench().run(letters.publisher.dropFirst(), initialDemand: .max(1), requests: [(2, .max(1))]) == "b-(c|)")
        #expect(Bench().run(letters.publisher.collect(2).map { $0.joined() }, initialDemand: .max(1), requests: [(3, .max(1))]) == "{ab}--(c|)")
        #expect(Bench().run(letters.publisher.buffer(size: 1, prefetch: .byRequest, whenFull: .dropOldest), initialDemand: .none, requests: [(2, .max(2))]) == "--(c|)")
    }
}
