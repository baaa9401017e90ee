import MarbleReport

/// How a diagram's carets and notes are highlighted: the CLI colours them on a terminal; a test
/// failure message is plain text.
public protocol DiagramStyle {
    func red(_ text: String) -> String
    func dim(_ text: String) -> String
}

/// No highlighting.
public struct PlainStyle: DiagramStyle, Sendable {
    public init() {}
    public func red(_ text: String) -> String { text }
    public func dim(_ text: String) -> String { text }
}

extension TextDiagramLayout {
    /// The diagram of a failing expectation: the sources that feed the checked stream, then the
    /// expected and the actual line of `check`. Event rows are labelled with the stream's name
    /// when the test has more than one expectation; subscription and request rows always are
    /// (`expected request.subscriptions`).
    public init(failing check: CheckReport, of test: TestReport, labelled: Bool, indent: Int) {
        var rows: [DiagramRow] = Self.sources(of: check.stream, in: test).map { source in
            source.isCold
                ? .unaligned(label: source.name, events: source.events, frameNanoseconds: test.frameNanoseconds,
                             note: "(cold: plays from each subscription)")
                : .aligned(label: source.name, events: source.events)
        }
        let suffix: String
        switch check.kind {
        case .subscriptions, .requests: suffix = " " + check.label
        case .events: suffix = labelled ? " " + check.label : ""
        }
        // `expect a == b` compares two streams: each row says which one it shows.
        let sides = check.expectedStream.map { (expected: " (\($0))", actual: " (\(check.stream))") } ?? (expected: suffix, actual: suffix)
        rows.append(.aligned(label: "expected" + sides.expected, events: check.expected))
        rows.append(.aligned(label: "actual" + sides.actual, events: check.actual))
        self.init(rows: rows, differences: check.differences, notes: check.notes, indent: indent)
    }

    /// The source lines that feed `stream`, directly or through other streams and closures (the
    /// stream itself included when it is a source), in file order. Without stream information
    /// every source of the test.
    public static func sources(of stream: String, in test: TestReport) -> [SourceLine] {
        guard !test.streams.isEmpty else { return test.sources }
        let streams = Dictionary(test.streams.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var feeding: Set<String> = []
        var pending = [stream]
        while let name = pending.popLast() {
            guard feeding.insert(name).inserted, let report = streams[name] else { continue }
            pending += report.inputs + report.innerSources
        }
        return test.sources.filter { feeding.contains($0.name) }
    }
}
