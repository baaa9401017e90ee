import Foundation
import Testing
import Reactive

/// `assertNoFailure`: with a callback, the engine's reading of Combine's trap; with Combine's
/// signature (`_ prefix: String = "", file:, line:`), what passes through is unchanged and a
/// failure traps, as Combine's `fatalError` does.
@Suite struct AssertNoFailureTests {
    @Test func passesValuesAndFinish() {
        let bench = Bench()
        var messages: [String] = []
        #expect(bench.run(bench.cold("-a-|").assertNoFailure { messages.append($0) }) == "-a-|")
        #expect(messages.isEmpty)
    }

    /// Combine traps; the engine reports the trap's message and then delivers nothing more.
    @Test func aFailureReportsCombinesMessageAndGoesSilent() {
        let bench = Bench()
        var messages: [String] = []
        let log = SubscriptionLog()
        let pipeline = bench.cold("-a-#", log: log).assertNoFailure("oops") { messages.append($0) }
        #expect(bench.run(pipeline, cancelAt: 5) == "-a")
        #expect(messages == ["oops: error"])
        #expect(render(log) == ["^--!"])

        let bench2 = Bench()
        var plain: [String] = []
        #expect(bench2.run(bench2.cold("#").assertNoFailure { plain.append($0) }) == "")
        #expect(plain == ["error"])
    }

    @Test func cancellationReachesUpstream() {
        let bench = Bench()
        let log = SubscriptionLog()
        #expect(bench.run(bench.hot("-a-b-#", log: log).assertNoFailure { _ in }, cancelAt: 2) == "-a")
        #expect(render(log) == ["^-!"])
    }

    @Test func withItsDefaultsValuesAndTheFinishPassThrough() {
        let bench = Bench()
        let input = bench.hot("-a-b-|")
        #expect(bench.run(input.replaceError(with: "x").setFailureType(to: TestFailure.self).assertNoFailure()) == "-a-b-|")
    }

    @Test func itRecordsWhereItWasCalled() {
        let line: UInt = #line + 1
        let asserted = Just(1).setFailureType(to: TestFailure.self).assertNoFailure("p")
        #expect(asserted.prefix == "p")
        #expect(asserted.line == line)
        #expect("\(asserted.file)".hasSuffix("AssertNoFailureTests.swift"))
    }

    @Test func theTrapsMessageIsThePrefixAndTheError() {
        #expect(Publishers.AssertNoFailure<Fail<Int, TestFailure>>.message(prefix: "loading", error: TestFailure("offline")) == "loading: offline")
        #expect(Publishers.AssertNoFailure<Fail<Int, TestFailure>>.message(prefix: "", error: TestFailure("offline")) == "offline")
    }

    @Test func aFailureTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Fail<Int, TestFailure>(error: TestFailure()).assertNoFailure().sink { _ in }
        }
    }

    @Test func aStreamThatDoesNotFailDoesNotTrap() async {
        await #expect(processExitsWith: .success) {
            let cancellable = [1, 2].publisher.setFailureType(to: TestFailure.self).assertNoFailure().sink { _ in }
            cancellable.cancel()
        }
    }
}
