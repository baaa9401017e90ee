import Foundation
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

/// `Record` is `Codable` when its output and failure are, coded as Combine codes it (OpenCombine
/// `Record.swift`, `Subscribers.Completion.swift`): `{"recording": {"output": […], "completion":
/// {"success": …, "error": …}}}`.
@Suite struct RecordCodingTests {
    enum Offline: String, Error, Codable { case offline }

    private func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func encodesAsCombineDoes() throws {
        #expect(try json(Record<Int, Offline>(output: [1, 2], completion: .finished)) == #"{"recording":{"completion":{"success":true},"output":[1,2]}}"#)
        #expect(try json(Record<Int, Offline>(output: [], completion: .failure(.offline))) == #"{"recording":{"completion":{"error":"offline","success":false},"output":[]}}"#)
    }

    @Test func aDecodedRecordReplaysTheSameEvents() throws {
        let data = Data(#"{"recording":{"output":["a","b"],"completion":{"success":false,"error":"offline"}}}"#.utf8)
        let record = try JSONDecoder().decode(Record<String, Offline>.self, from: data)
        #expect(record.recording.output == ["a", "b"])
        #expect(record.recording.completion == .failure(.offline))
        let bench = Bench()
        #expect(bench.run(record.mapError { _ in TestFailure() }) == "(ab#)")
        let again = try JSONDecoder().decode(Record<String, Offline>.self, from: try JSONEncoder().encode(record))
        #expect(again.recording.output == record.recording.output && again.recording.completion == record.recording.completion)
    }

    @Test func aCompletionMissingItsFieldsIsADecodingError() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Record<String, Offline>.self, from: Data(#"{"recording":{"output":[],"completion":{}}}"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Record<String, Offline>.self, from: Data(#"{"recording":{"output":[],"completion":{"success":false}}}"#.utf8)) }
    }

    @Test func aDecodedRecordingIsComplete() async {
        await #expect(processExitsWith: .failure) {
            guard var recording = try? JSONDecoder().decode(Record<String, Offline>.Recording.self, from: Data(#"{"output":[],"completion":{"success":true}}"#.utf8)) else { return }
            recording.receive("x")
        }
    }
}
