import Testing
@testable import Reactive

@Suite struct RecordTests {
    @Test func replaysValuesAndCompletionToEachSubscriber() {
        let record = Record<String, TestFailure>(output: ["a", "b"], completion: .finished)
        let bench = Bench()
        #expect(bench.run(record) == "(ab|)")
        let later = Bench()
        #expect(later.run(record, subscribeAt: 2) == "--(ab|)")
        let failing = Bench()
        #expect(failing.run(Record<String, TestFailure>(output: ["a"], completion: .failure(TestFailure()))) == "(a#)")
    }

    @Test func followsDemandAndCompletesRightAfterTheLastValue() {
        let bench = Bench()
        let record = Record<String, TestFailure>(output: ["a", "b"], completion: .failure(TestFailure()))
        let (events, subscriber) = bench.runKeepingSubscriber(record, initialDemand: .max(1), requests: [(2, .max(1))])
        #expect(events == "a-(b#)")
        #expect(subscriber.valuesWithoutDemand.isEmpty)
    }

    @Test func anEmptyRecordingCompletesAtSubscriptionWithoutDemand() {
        let bench = Bench()
        #expect(bench.run(Record<String, TestFailure>(output: [], completion: .failure(TestFailure())), initialDemand: .none, subscribeAt: 1) == "-#")
    }

    @Test func cancellationStopsTheReplay() {
        let bench = Bench()
        #expect(bench.run(Record<String, TestFailure>(output: ["a", "b"], completion: .finished), initialDemand: .max(1), cancelAt: 1, requests: [(2, .max(1))]) == "a")
    }

    @Test func recordingClosure() {
        let record = Record<String, TestFailure> { recording in
            recording.receive("a")
            recording.receive("b")
            recording.receive(completion: .failure(TestFailure("x")))
        }
        #expect(record.recording.output == ["a", "b"])
        let bench = Bench()
        #expect(bench.run(record) == "(ab#{x})")
        let unfinished = Record<String, TestFailure> { $0.receive("a") }
        let defaulted = Bench()
        #expect(defaulted.run(unfinished) == "(a|)")
    }
}
