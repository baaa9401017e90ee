import MarbleSyntax

/// `marbles compare`: searches generated input marbles for one on which two pipelines over the
/// same named inputs differ, then shrinks it to the smallest it can find.
///
/// Every case is an ordinary `.marble` test — the inputs as `hot`/`cold` lines, the pipelines as
/// `let left` and `let right`, an optional `demand` line, and `expect left == right` — so that
/// what the search finds is a test that can be pasted into a file, and it runs on the same
/// engine, type check and limits as any test. Cases are run many to a file, in one batch.
/// Deterministic: the same seed and bounds generate the same cases in the same order.
public enum PipelineSearch {
    public struct Options: Sendable {
        /// Seed of the generator (SplitMix64).
        public var seed: UInt64 = 1
        /// Generated cases to try at most.
        public var cases = 500
        /// Frames of an input line at most (its events, gaps and completion).
        public var maxFrames = 8
        /// Shrinking rounds at most (each keeps the first smaller case that still differs).
        public var maxShrinkRounds = 60
        public init() {}
    }

    /// The outcome of a search.
    public enum Outcome: Sendable {
        /// The smallest differing case found: its test source and its report (the `==` check
        /// holds both outputs); how many cases ran before the first difference; shrinking steps.
        case difference(source: String, report: TestReport, casesTried: Int, shrinkSteps: Int)
        /// No generated case told the pipelines apart; `skipped` cases stopped with an error;
        /// `unfailed` names the inputs whose failure stopped every case it was in, so that later
        /// cases did not fail them.
        case noDifference(cases: Int, skipped: Int, unfailed: [String])
    }

    /// What one case may do: at most this many actions at one frame and in its run (a run's
    /// limits are 100,000 and more, but a case's inputs are a few frames long). A case that
    /// reaches them, such as `x.retry()` resubscribing to a failed hot `x` at one frame, tells
    /// nothing, and must cost little: it stops after a thousand resubscriptions, not a hundred
    /// thousand.
    public static var caseOptions: RunOptions {
        var options = RunOptions()
        options.maxActionsPerInstant = 1_000
        options.maxActions = 10_000
        return options
    }

    /// Cases of an input whose failure stopped every one of them, after which the search stops
    /// generating failures for it (they cannot tell the pipelines apart).
    static let failuresBeforeGivingUp = 3

    /// A mistake in a pipeline, located in the argument it was written in.
    public struct PipelineError: Error, Sendable, Equatable {
        /// 1 for the first pipeline, 2 for the second; nil when it concerns both.
        public var argument: Int?
        /// 1-based, in the argument's text.
        public var column: Int
        public var length: Int
        public var message: String
        public var hint: String?
    }

    public static func run(_ left: String, _ right: String, options: Options = Options()) -> Result<Outcome, PipelineError> {
        switch CaseShape.make(left: left, right: right) {
        case .failure(let error): return .failure(error)
        case .success(let shape):
            var search = Search(shape: shape, options: options)
            return search.run()
        }
    }
}

/// What a case is built from: the two pipelines, their inputs and how each input is declared.
struct CaseShape {
    var left: String
    var right: String
    /// Input names in order of first use; `cold` for a name used inside a closure (an inner
    /// publisher, subscribed per use), `hot` otherwise.
    var inputs: [(name: String, cold: Bool)]
    /// Per input, whether its values are `Int`s (digits) or one-letter `String`s: the first
    /// choice the type check accepts.
    var numeric: [Bool] = []

    static let leftName = "left"
    static let rightName = "right"
    /// The lines of a case, in order: the test line, one line per input, then `let left`, `let right`.
    static func leftLine(inputs: Int) -> Int { 2 + inputs }

    static func make(left: String, right: String) -> Result<CaseShape, PipelineSearch.PipelineError> {
        let known = Set(Builtins.globalNames + Catalogue.constructorNames + ["Publishers", "Timer", "true", "false", "nil"])
        var inputs: [(name: String, cold: Bool)] = []
        var expressions: [Expr] = []
        for (argument, text) in [left, right].enumerated() {
            guard !text.allSatisfy(\.isWhitespace) else {
                return .failure(.init(argument: argument + 1, column: 1, length: 1, message: "the pipeline is empty",
                                      hint: "write a publisher expression over named inputs, such as 'taps.map { $0 * 2 }'"))
            }
            do {
                let expr = try MarbleFileParser.parseExpression(text, at: SourceLocation(line: 1, column: 1))
                expressions.append(expr)
                for (name, _) in NameCheck(known: known).undefinedNames(in: expr) where !inputs.contains(where: { $0.name == name }) {
                    guard name != leftName && name != rightName else {
                        return .failure(.init(argument: argument + 1, column: 1, length: 1, message: "'\(name)' names one of the two pipelines",
                                              hint: "call the inputs something else, such as 'taps' or 'request'"))
                    }
                    inputs.append((name, false))
                }
            } catch {
                return .failure(.init(argument: argument + 1, column: error.location.column, length: error.length, message: error.message, hint: error.hint))
            }
        }
        guard !inputs.isEmpty else {
            return .failure(.init(argument: nil, column: 1, length: 1, message: "the pipelines read no named input, so every case is the same",
                                  hint: "name the inputs the pipelines read, such as 'taps.map { $0 * 2 }'"))
        }
        let names = Set(inputs.map(\.name))
        for expr in expressions {
            for inner in NameCheck.references(in: expr, to: names).inClosures {
                if let index = inputs.firstIndex(where: { $0.name == inner }) { inputs[index].cold = true }
            }
        }
        return .success(CaseShape(left: left, right: right, inputs: inputs))
    }
}

/// One generated input marble line: frames of gaps and values, then perhaps a completion.
struct InputLine: Hashable {
    enum Frame: Hashable {
        case gap
        /// The nth value of the input's alphabet (0 is the smallest).
        case value(Int)
    }
    enum End: Hashable { case open, finished, failed }

    var frames: [Frame]
    var end: End

    func marbles(numeric: Bool) -> String {
        var text = ""
        for frame in frames {
            switch frame {
            case .gap: text += "-"
            case .value(let index): text += numeric ? String(index + 1) : String(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(index))))
            }
        }
        switch end {
        case .open: if text.isEmpty { text = "-" }
        case .finished: text += "|"
        case .failed: text += "#"
        }
        return text
    }

    /// What shrinking minimises: frames first, then events, then how large the values are.
    var size: Int {
        let values = frames.reduce(0) { total, frame in
            if case .value(let index) = frame { total + 2 + index } else { total }
        }
        return frames.count * 4 + values + (end == .open ? 0 : end == .finished ? 1 : 2)
    }
}

/// One case: a line per input and perhaps a demand line for both test subscribers.
struct GeneratedCase: Hashable {
    var inputs: [InputLine]
    /// Requests, frame by frame (nil: `.unlimited` at subscription, the default).
    var demand: [Int?]?

    var size: Int { inputs.reduce(0) { $0 + $1.size } + (demand.map { $0.count + 4 } ?? 0) }

    func source(_ shape: CaseShape, name: String) -> String {
        var lines = ["test \"\(name)\""]
        for (index, input) in shape.inputs.enumerated() {
            lines.append("  \(input.cold ? "cold" : "hot") \(input.name) \(inputs[index].marbles(numeric: shape.numeric[index]))")
        }
        lines.append("  let \(CaseShape.leftName) = \(shape.left)")
        lines.append("  let \(CaseShape.rightName) = \(shape.right)")
        if let demand {
            let marbles = demand.map { $0.map(String.init) ?? "-" }.joined()
            lines.append("  demand \(CaseShape.leftName) \(marbles)")
            lines.append("  demand \(CaseShape.rightName) \(marbles)")
        }
        lines.append("  expect \(CaseShape.leftName) == \(CaseShape.rightName)")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// SplitMix64: small, fast and the same on every platform.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private struct Search {
    var shape: CaseShape
    let options: PipelineSearch.Options
    var random: SeededGenerator
    /// Cases per file: a batch shares one parse and one thread.
    static let batchSize = 50

    init(shape: CaseShape, options: PipelineSearch.Options) {
        self.shape = shape
        self.options = options
        random = SeededGenerator(seed: options.seed)
        failedIn = Array(repeating: 0, count: shape.inputs.count)
        stoppedWhenFailed = failedIn
    }

    /// The cases run so far: one the generator gives again tells nothing new and is not run again.
    private var seen: Set<GeneratedCase> = []
    /// Per input: how many cases run failed it, and how many of those stopped with an error.
    private var failedIn: [Int]
    private var stoppedWhenFailed: [Int]

    mutating func run() -> Result<PipelineSearch.Outcome, PipelineSearch.PipelineError> {
        if let error = chooseValueKinds() { return .failure(error) }
        var tried = 0
        var skipped = 0
        var generated = 0
        // The generator may repeat itself (small cases come first, and there are few of them):
        // it is given four times as many draws as there are cases to try.
        let draws = options.cases * 4
        while tried < options.cases, generated < draws {
            var batch: [GeneratedCase] = []
            while batch.count < min(Self.batchSize, options.cases - tried), generated < draws {
                // The first cases are the smallest; later ones grow to the bounds.
                let candidate = generate(scale: min(1, Double(generated + 1) / Double(max(1, options.cases / 4))))
                generated += 1
                if seen.insert(candidate).inserted { batch.append(candidate) }
            }
            guard !batch.isEmpty else { continue }
            let reports = run(batch)
            for (index, report) in reports.enumerated() {
                let stopped: Bool
                switch report?.outcome {
                case .failed?:
                    let (smallest, steps) = shrink(batch[index])
                    let source = smallest.source(shape, name: "the pipelines differ")
                    guard let final = run([smallest]).first ?? nil else { return .failure(internalError) }
                    return .success(.difference(source: source, report: final, casesTried: tried + index + 1, shrinkSteps: steps))
                case .passed?:
                    stopped = false
                case .error?, nil:
                    stopped = true
                    skipped += 1
                }
                for (input, line) in batch[index].inputs.enumerated() where line.end == .failed {
                    failedIn[input] += 1
                    if stopped { stoppedWhenFailed[input] += 1 }
                }
            }
            tried += batch.count
        }
        let unfailed = shape.inputs.indices.filter(neverFails).map { shape.inputs[$0].name }
        return .success(.noDifference(cases: tried, skipped: skipped, unfailed: unfailed))
    }

    /// Whether the search stopped generating failures of input `index`: every case that failed
    /// it stopped with an error (a run that never settles, say), so such cases tell nothing.
    private func neverFails(_ index: Int) -> Bool {
        failedIn[index] >= PipelineSearch.failuresBeforeGivingUp && stoppedWhenFailed[index] == failedIn[index]
    }

    private var internalError: PipelineSearch.PipelineError {
        .init(argument: nil, column: 1, length: 1, message: "the smallest case did not run again the same way", hint: nil)
    }

    // MARK: Value kinds

    /// Digits where the type check accepts them, else letters; if no choice is accepted, the
    /// mistake of the all-digits case, located in its pipeline.
    private mutating func chooseValueKinds() -> PipelineSearch.PipelineError? {
        let count = shape.inputs.count
        let probe = GeneratedCase(inputs: Array(repeating: InputLine(frames: [.value(0)], end: .finished), count: count), demand: nil)
        var firstError: FileDiagnostic?
        // Every choice for up to 3 inputs; beyond that all digits or all letters.
        let choices: [[Bool]] = count <= 3
            ? (0..<(1 << count)).map { mask in (0..<count).map { mask & (1 << $0) == 0 } }
            : [Array(repeating: true, count: count), Array(repeating: false, count: count)]
        for choice in choices {
            shape.numeric = choice
            let report = MarbleRunner.run(source: probe.source(shape, name: "probe"), path: "compare")
            if let diagnostic = report.allDiagnostics.first(where: { $0.severity == .error }) {
                if firstError == nil { firstError = diagnostic }
                continue
            }
            return nil
        }
        shape.numeric = choices[0]
        guard let error = firstError else { return nil }
        let leftLine = CaseShape.leftLine(inputs: count)
        let prefix = { (name: String) in "  let \(name) = ".count }
        switch error.line {
        case leftLine:
            return .init(argument: 1, column: max(1, error.column - prefix(CaseShape.leftName)), length: error.length, message: error.message, hint: error.hint)
        case leftLine + 1:
            return .init(argument: 2, column: max(1, error.column - prefix(CaseShape.rightName)), length: error.length, message: error.message, hint: error.hint)
        default:
            return .init(argument: nil, column: 1, length: 1, message: error.message, hint: error.hint)
        }
    }

    // MARK: Generating

    /// A case whose lines are up to `scale` of the bounds long.
    private mutating func generate(scale: Double) -> GeneratedCase {
        let longest = max(1, Int((Double(options.maxFrames) * scale).rounded(.up)))
        let inputs = shape.inputs.indices.map { index in
            let length = Int.random(in: 0...longest, using: &random)
            let frames = (0..<length).map { _ -> InputLine.Frame in
                Int.random(in: 0..<10, using: &random) < 5 ? .gap : .value(Int.random(in: 0..<3, using: &random))
            }
            let roll = Int.random(in: 0..<10, using: &random)
            let fails = roll >= 5 && roll < 7
            return InputLine(frames: frames, end: roll < 5 || (fails && neverFails(index)) ? .finished : fails ? .failed : .open)
        }
        var demand: [Int?]?
        if Int.random(in: 0..<4, using: &random) == 0 {
            // A first request at subscription, then a few more now and then.
            demand = [Int.random(in: 0...2, using: &random)] + (0..<longest).map { _ in
                Int.random(in: 0..<3, using: &random) == 0 ? 1 : nil
            }
        }
        return GeneratedCase(inputs: inputs, demand: demand)
    }

    // MARK: Running

    /// Each case's report (nil where the file as a whole did not run).
    private func run(_ cases: [GeneratedCase]) -> [TestReport?] {
        let source = cases.enumerated().map { $0.element.source(shape, name: "case \($0.offset + 1)") }.joined(separator: "\n")
        let report = MarbleRunner.run(source: source, path: "compare", options: PipelineSearch.caseOptions)
        guard report.allDiagnostics.allSatisfy({ $0.severity != .error }), report.tests.count == cases.count else {
            return Array(repeating: nil, count: cases.count)
        }
        return report.tests.map { Optional($0) }
    }

    // MARK: Shrinking

    /// The smallest case reachable from `failing` by steps that each keep the difference.
    private func shrink(_ failing: GeneratedCase) -> (GeneratedCase, steps: Int) {
        var current = failing
        var steps = 0
        for _ in 0..<options.maxShrinkRounds {
            let candidates = PipelineShrinking.smaller(than: current).filter { $0.size < current.size }.sorted { $0.size < $1.size }
            guard !candidates.isEmpty else { break }
            let reports = run(candidates)
            guard let index = reports.firstIndex(where: { $0?.outcome == .failed }) else { break }
            current = candidates[index]
            steps += 1
        }
        return (current, steps)
    }
}

enum PipelineShrinking {
    /// Every case one step smaller: without the demand line, a frame removed, a value turned
    /// into a gap or into a smaller value, a failure into a finish, a completion removed.
    static func smaller(than value: GeneratedCase) -> [GeneratedCase] {
        var candidates: [GeneratedCase] = []
        if value.demand != nil { candidates.append(GeneratedCase(inputs: value.inputs, demand: nil)) }
        if let demand = value.demand, demand.count > 1 {
            for index in demand.indices.dropFirst() {
                var fewer = demand
                fewer.remove(at: index)
                candidates.append(GeneratedCase(inputs: value.inputs, demand: fewer))
            }
        }
        for (position, line) in value.inputs.enumerated() {
            func with(_ changed: InputLine) -> GeneratedCase {
                var inputs = value.inputs
                inputs[position] = changed
                return GeneratedCase(inputs: inputs, demand: value.demand)
            }
            for index in line.frames.indices {
                var removed = line
                removed.frames.remove(at: index)
                candidates.append(with(removed))
                if case .value(let n) = line.frames[index] {
                    var gap = line
                    gap.frames[index] = .gap
                    candidates.append(with(gap))
                    if n > 0 {
                        var lower = line
                        lower.frames[index] = .value(n - 1)
                        candidates.append(with(lower))
                    }
                }
            }
            if line.end == .failed { candidates.append(with(InputLine(frames: line.frames, end: .finished))) }
            if line.end != .open { candidates.append(with(InputLine(frames: line.frames, end: .open))) }
        }
        return candidates
    }
}
