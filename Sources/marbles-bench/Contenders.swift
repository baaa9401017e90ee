import Reactive

/// W1–W3, W5 through the engine's Swift API: hot sources are `PassthroughSubject`s fed by
/// `VirtualTimeScheduler.play`, the subscriber is a checksumming `Subscribers.Sink` (it keeps
/// no events, so peak memory is the engine's own).
enum EngineContender {
    static func prepare(_ workload: Workload) -> [[TimedEvent<Int, Never>]] {
        workload.sources.map { source in
            source.events.map { TimedEvent($0.time, .value($0.value)) } + [TimedEvent(source.completion, .completion(.finished))]
        }
    }

    static func run(_ workload: Workload, timelines: [[TimedEvent<Int, Never>]]) -> Checksum {
        let scheduler = VirtualTimeScheduler()
        let checksum = Checksum()
        let subjects = timelines.map { _ in PassthroughSubject<Int, Never>() }
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { _ in checksum.finished(at: scheduler.currentFrame) },
            receiveValue: { checksum.value($0, at: scheduler.currentFrame) })
        switch workload.pipeline {
        case .mapFilterScan:
            subjects[0].map { $0 * 2 }.filter { $0 % 3 != 0 }.scan(0, +).subscribe(sink)
        case .debounce(let frames):
            subjects[0].debounce(for: .init(frames: frames), scheduler: scheduler).subscribe(sink)
        case .merge:
            Publishers.MergeMany(subjects).subscribe(sink)
        }
        for (subject, timeline) in zip(subjects, timelines) {
            scheduler.play(timeline) { event in
                switch event {
                case .value(let value): subject.send(value)
                case .completion(let completion): subject.send(completion: completion)
                }
            }
        }
        scheduler.run()
        return checksum
    }
}

/// The floor: a hand-written loop over the same input arrays computing the same output timeline.
/// Like a test, it materialises that timeline (an array of timed events, the thing a test compares)
/// and checksums it; `arithmetic: true` skips the array and checksums on the fly (a lower floor
/// still, reported in docs/performance.md).
enum FloorContender {
    static func run(_ workload: Workload, recording: Bool = false, arithmetic: Bool = false) -> Checksum {
        let checksum = Checksum(recording: recording)
        if !arithmetic {
            for event in timeline(workload) {
                switch event.event {
                case .value(let value): checksum.value(value, at: event.time)
                case .completion: checksum.finished(at: event.time)
                }
            }
            return checksum
        }
        switch workload.pipeline {
        case .mapFilterScan:
            let source = workload.sources[0]
            var sum = 0
            for event in source.events {
                let doubled = event.value * 2
                if doubled % 3 != 0 {
                    sum += doubled
                    checksum.value(sum, at: event.time)
                }
            }
            checksum.finished(at: source.completion)
        case .debounce(let frames):
            // A value is published `frames` after it arrived unless a newer one arrived first
            // (a newer one at the very frame it is due wins: it was queued earlier); the
            // completion drops a value still pending.
            let source = workload.sources[0]
            var pending: (value: Int, due: Int)?
            for event in source.events {
                if let held = pending, held.due < event.time { checksum.value(held.value, at: held.due) }
                pending = (event.value, event.time + frames)
            }
            if let held = pending, held.due < source.completion { checksum.value(held.value, at: held.due) }
            checksum.finished(at: source.completion)
        case .merge:
            // A k-way merge by frame (sources never share a frame in W3).
            var positions = [Int](repeating: 0, count: workload.sources.count)
            while true {
                var best = -1
                var bestTime = Int.max
                for (k, source) in workload.sources.enumerated() where positions[k] < source.events.count {
                    let time = source.events[positions[k]].time
                    if time < bestTime { bestTime = time; best = k }
                }
                guard best >= 0 else { break }
                checksum.value(workload.sources[best].events[positions[best]].value, at: bestTime)
                positions[best] += 1
            }
            checksum.finished(at: workload.sources.map(\.completion).max() ?? 0)
        }
        return checksum
    }

    /// The output timeline, computed by hand.
    static func timeline(_ workload: Workload) -> [TimedEvent<Int, Never>] {
        var output: [TimedEvent<Int, Never>] = []
        switch workload.pipeline {
        case .mapFilterScan:
            let source = workload.sources[0]
            var sum = 0
            for event in source.events {
                let doubled = event.value * 2
                if doubled % 3 != 0 {
                    sum += doubled
                    output.append(TimedEvent(event.time, .value(sum)))
                }
            }
            output.append(TimedEvent(source.completion, .completion(.finished)))
        case .debounce(let frames):
            let source = workload.sources[0]
            var pending: (value: Int, due: Int)?
            for event in source.events {
                if let held = pending, held.due < event.time { output.append(TimedEvent(held.due, .value(held.value))) }
                pending = (event.value, event.time + frames)
            }
            if let held = pending, held.due < source.completion { output.append(TimedEvent(held.due, .value(held.value))) }
            output.append(TimedEvent(source.completion, .completion(.finished)))
        case .merge:
            var positions = [Int](repeating: 0, count: workload.sources.count)
            while true {
                var best = -1
                var bestTime = Int.max
                for (k, source) in workload.sources.enumerated() where positions[k] < source.events.count {
                    let time = source.events[positions[k]].time
                    if time < bestTime { bestTime = time; best = k }
                }
                guard best >= 0 else { break }
                output.append(TimedEvent(bestTime, .value(workload.sources[best].events[positions[best]].value)))
                positions[best] += 1
            }
            output.append(TimedEvent(workload.sources.map(\.completion).max() ?? 0, .completion(.finished)))
        }
        return output
    }
}
