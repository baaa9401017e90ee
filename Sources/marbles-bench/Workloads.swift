/// The benchmark workloads as plain data: each source is a list of (frame, value) events and a
/// completion frame. Every contender (the engine's API, a generated `.marble` file, RxPY, the
/// hand-written floor) is fed exactly these timelines and must produce the same output.
struct SourceTimeline {
    var events: [(time: Int, value: Int)]
    var completion: Int
}

/// What a workload does to its sources.
enum Pipeline {
    /// `map { $0 * 2 }.filter { $0 % 3 != 0 }.scan(0, +)` on one source (W1, W5).
    case mapFilterScan
    /// `debounce(for: 2 frames)` on one source (W2).
    case debounce(frames: Int)
    /// The sources merged (W3).
    case merge
}

struct Workload {
    var name: String
    var sources: [SourceTimeline]
    var pipeline: Pipeline

    /// Frames of the `1000000s` idle stretch of W5, at the bench's 1ms frame.
    static let idleFrames = 1_000_000_000
    /// W5 puts an idle stretch after every `idleStride(n)` events: at least one, at most 100 for
    /// 1M events (RxPY's scheduler turns times into dates, which end in the year 9999).
    static func idleStride(_ n: Int) -> Int { min(10_000, max(1, n / 2)) }

    static func make(_ name: String, n: Int) -> Workload? {
        switch name {
        case "W1":
            // One value per frame: the value i at frame i.
            let events = (1...n).map { (time: $0, value: $0) }
            return Workload(name: name, sources: [SourceTimeline(events: events, completion: n + 1)], pipeline: .mapFilterScan)
        case "W5":
            // W1 with a `1000000s` idle stretch after every `idleStride(n)` events.
            let stride = idleStride(n)
            let events = (1...n).map { (time: $0 + ($0 - 1) / stride * idleFrames, value: $0) }
            return Workload(name: name, sources: [SourceTimeline(events: events, completion: events.last!.time + 1)], pipeline: .mapFilterScan)
        case "W2":
            // A value every 3rd frame; the stream finishes after the last debounce has fired.
            let events = (1...n).map { (time: 3 * $0, value: $0) }
            return Workload(name: name, sources: [SourceTimeline(events: events, completion: 3 * n + 3)], pipeline: .debounce(frames: 2))
        case "W3":
            // 8 sources of n/8 values, interleaved: source k sends 8j+k at frame 8j+k+1.
            let per = n / 8
            let sources = (0..<8).map { k in
                SourceTimeline(events: (0..<per).map { j in (time: 8 * j + k + 1, value: 8 * j + k) }, completion: 8 * per + 1)
            }
            return Workload(name: name, sources: sources, pipeline: .merge)
        default:
            return nil
        }
    }

    /// Source events in total (what "events" means in events/s).
    var eventCount: Int { sources.reduce(0) { $0 + $1.events.count } }
}

/// An order-sensitive checksum of an output timeline; RxPY's side computes the same.
final class Checksum {
    /// When recording (for generating `.marble` files), every event: a value, or nil for the completion.
    @exclusivity(unchecked) private(set) var events: [(time: Int, value: Int?)]?
    init(recording: Bool = false) { events = recording ? [] : nil }

    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var hash: UInt64 = 14_695_981_039_346_656_037
    static let prime: UInt64 = 1_099_511_628_211
    static let completionMark: UInt64 = 0xC0FFEE

    func value(_ value: Int, at time: Int) {
        hash = (hash ^ UInt64(bitPattern: Int64(time))) &* Checksum.prime &+ UInt64(bitPattern: Int64(value))
        count += 1
        events?.append((time, value))
    }

    func finished(at time: Int) {
        hash = (hash ^ UInt64(bitPattern: Int64(time))) &* Checksum.prime &+ Checksum.completionMark
        count += 1
        events?.append((time, nil))
    }

    var hex: String { String(hash, radix: 16) }
}
