extension Publishers {
    /// Turns a failure into one last value followed by `.finished`. The value waits for
    /// downstream demand: with none outstanding it is sent on the next request (OpenCombine
    /// `Publishers.ReplaceError.swift`).
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never
        public let upstream: Upstream
        public let output: Upstream.Output

        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.receive(subscriber: Link(downstream: subscriber, output: output))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
            private let output: Upstream.Output
            private var demand: Subscribers.Demand = .none
            /// Upstream failed while downstream had no demand: the replacement waits for a request.
            private var owesReplacement = false

            init(downstream: Downstream, output: Upstream.Output) {
                self.output = output
                super.init(downstream: downstream)
            }

            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                demand -= 1
                let more = downstream.receive(input)
                demand += more
                return more
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard !isTerminated, !owesReplacement else { return }
                switch completion {
                case .finished:
                    terminate()
                    downstream.receive(completion: .finished)
                case .failure:
                    guard demand > 0 else {
                        owesReplacement = true
                        return
                    }
                    sendReplacement()
                }
            }

            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated, demand > 0 else { return }
                if owesReplacement {
                    sendReplacement()
                    return
                }
                self.demand += demand
                requestUpstream(demand)
            }

            private func sendReplacement() {
                guard terminate() else { return }
                _ = downstream.receive(output)
                downstream.receive(completion: .finished)
            }
        }
    }
}

extension Publisher {
    /// Replaces a failure with `output` followed by `.finished` (sent once there is demand).
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}
