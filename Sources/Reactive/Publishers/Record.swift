/// Replays a recorded list of values and a completion to each subscriber, synchronously as
/// demand allows. The completion follows the last value at once, even when the demand was
/// exact; with no values it is sent at subscription, demand or not.
public struct Record<Output, Failure: Error>: Publisher {
    public let recording: Recording

    public init(recording: Recording) { self.recording = recording }

    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.init(recording: Recording(output: output, completion: completion))
    }

    /// Builds the recording by calling `receive(_:)` and `receive(completion:)` on it.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.init(recording: recording)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        guard !recording.output.isEmpty else {
            subscriber.receive(subscription: EmptySubscription())
            subscriber.receive(completion: recording.completion)
            return
        }
        subscriber.receive(subscription: RecordSubscription(recording.output, completion: recording.completion, downstream: subscriber))
    }

    /// Values and a completion, recorded in order. A recording started empty finishes normally
    /// unless told otherwise; nothing may be recorded after its completion.
    public struct Recording {
        public private(set) var output: [Output]
        public private(set) var completion: Subscribers.Completion<Failure>
        private var isComplete: Bool

        public init() {
            output = []
            completion = .finished
            isComplete = false
        }

        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            isComplete = true
        }

        public mutating func receive(_ input: Output) {
            precondition(!isComplete, "Record: a value was recorded after the completion")
            output.append(input)
        }

        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            precondition(!isComplete, "Record: a second completion was recorded")
            self.completion = completion
            isComplete = true
        }
    }
}

// Coded as Combine codes them: a record as `{"recording": …}`, a recording as its `output` and
// `completion` (OpenCombine `Record.swift`). A decoded recording is complete.
extension Record: Codable where Output: Codable, Failure: Codable {}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output, completion
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(output: try container.decode([Output].self, forKey: .output), completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }
}

private final class RecordSubscription<Downstream: Subscriber>: Subscription {
    private let values: [Downstream.Input]
    private let completion: Subscribers.Completion<Downstream.Failure>
    private var index = 0
    private var downstream: Downstream?
    private var demand: Subscribers.Demand = .none
    private var isEmitting = false

    init(_ values: [Downstream.Input], completion: Subscribers.Completion<Downstream.Failure>, downstream: Downstream) {
        self.values = values
        self.completion = completion
        self.downstream = downstream
    }

    func request(_ demand: Subscribers.Demand) {
        guard downstream != nil, demand > 0 else { return }
        self.demand += demand
        // A request made from inside `receive(_:)` only raises the demand; the loop below serves it.
        guard !isEmitting else { return }
        isEmitting = true
        defer { isEmitting = false }
        while self.demand > 0, index < values.count, let downstream {
            self.demand -= 1
            let value = values[index]
            index += 1
            self.demand += downstream.receive(value)
            if index == values.count, self.downstream != nil {
                self.downstream = nil
                downstream.receive(completion: completion)
            }
        }
    }

    func cancel() { downstream = nil }
}
