import MarbleTesting

/// W1 through the Swift testing API, as a user's test writes it: `TestScheduler.hot` from a
/// marble line, the operators, `expect` with the expected marble line, `run()`. The lines are
/// written before the clock starts (as a test's source holds them); parsing them is timed.
enum SwiftAPIContender {
    struct Lines {
        var source: String
        var expected: String
    }

    static func prepare(_ workload: Workload) -> Lines? {
        guard case .mapFilterScan = workload.pipeline, let source = workload.sources.first, workload.sources.count == 1 else { return nil }
        let expected = FloorContender.run(workload, recording: true, arithmetic: true).events ?? []
        var values: [(Int, String)] = []
        var completion = 0
        for event in expected {
            if let value = event.value { values.append((event.time, "{\(value)}")) } else { completion = event.time }
        }
        return Lines(source: MarbleFile.line(source.events.map { ($0.time, "{\($0.value)}") }, terminal: source.completion),
                     expected: MarbleFile.line(values, terminal: completion))
    }

    /// The checksum of what the expectation's subscriber recorded; `passed` is false when the
    /// expectation (or anything else) failed.
    static func run(_ lines: Lines) -> (checksum: Checksum, passed: Bool) {
        let scheduler = TestScheduler(frame: .milliseconds(1))
        let source = scheduler.hot(lines.source, values: [Character: Int]())
        let out = source.map { $0 * 2 }.filter { $0 % 3 != 0 }.scan(0, +)
        let recording = scheduler.expect(out, lines.expected)
        let failures = scheduler.run()
        let checksum = Checksum()
        for event in recording.events {
            switch event.event {
            case .value(let value): checksum.value(value, at: event.time)
            case .completion: checksum.finished(at: event.time)
            }
        }
        return (checksum, failures.isEmpty)
    }
}
