extension Publishers {
    /// Passes only the values whose index (0-based) lies in `range`; behind `prefix(_:)`,
    /// `output(at:)` and `output(in:)`. Values before the range are asked for again upstream.
    ///
    /// Disputed completion timing — chosen: eager. Right after the last in-range value is
    /// delivered, upstream is cancelled and `.finished` sent, at the same instant (CombineX;
    /// measured on Apple Combine by heckj `SequentialOperatorTests.testPrefix`/`testOutput`, run on
    /// the iOS simulator: the sink is finished right after the n-th send). OpenCombine's lazy variant
    /// (finish on the next value) agrees with its compatibility tests only because those never
    /// look between the last in-range value and the next one. A value that arrives with the range
    /// already used up (`prefix(0)`) also finishes the stream. Upstream completion passes through.
    public struct Output<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let range: CountableRange<Int>

        public init(upstream: Upstream, range: CountableRange<Int>) {
            precondition(range.lowerBound >= 0, "output(in:): lowerBound must not be negative")
            precondition(range.upperBound >= 0, "output(in:): upperBound must not be negative")
            self.upstream = upstream
            self.range = range
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Upstream.Output, S.Failure == Upstream.Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, range: range))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
            var remainingUntilStart: Int
            var remainingCount: Int
            init(downstream: Downstream, range: CountableRange<Int>) {
                remainingUntilStart = range.lowerBound
                remainingCount = range.count
                super.init(downstream: downstream)
            }
            /// No check for a cancel: as in Combine, values upstream still sends after one are
            /// counted, and those in range delivered (OpenCombine `Publishers.Output`); the
            /// completion is not. After the stream's own finish the range is used up.
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                if remainingUntilStart > 0 {
                    remainingUntilStart -= 1
                    return .max(1)
                }
                guard remainingCount > 0 else {
                    finish()
                    return .none
                }
                remainingCount -= 1
                let demand = downstream.receive(input)
                if remainingCount == 0 { finish() }
                return demand
            }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                forwardOnce(completion)
            }
            private func finish() {
                guard !isTerminated else { return }
                cancel()
                downstream.receive(completion: .finished)
            }
        }
    }
}

extension Publisher {
    /// The first `maxLength` values, then `.finished` (see `Publishers.Output` for the timing).
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        output(in: ..<maxLength)
    }

    /// Only the value at `index`, then `.finished`.
    public func output(at index: Int) -> Publishers.Output<Self> {
        output(in: index...index)
    }

    /// The values whose indices lie in `range` (any `Int` range expression: `2..<5`, `2...4`, `..<3`, `2...`).
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0 ..< Int.max))
    }
}
