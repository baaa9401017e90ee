extension Publishers {
    /// Turns a failure into one last value followed by `.finished`. The value waits for
    /// downstream demand: with none outstanding it is sent on the next request (OC
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

    /// Sends `output` then `.finished` when upstream finishes without having sent a value; a
    /// failure passes through. As in Combine (OC `Publishers.ReplaceEmpty.swift`, compatibility
    /// test `testDemand`), after handing downstream its subscription it asks upstream for
    /// `.unlimited`, and the replacement waits until downstream has made a request.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let output: Upstream.Output

        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, output: output))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
            private let output: Upstream.Output
            private var receivedValue = false
            private var downstreamRequested = false
            private var owesReplacement = false

            init(downstream: Downstream, output: Upstream.Output) {
                self.output = output
                super.init(downstream: downstream)
            }

            override func receive(subscription: any Subscription) {
                guard upstream == nil, !isTerminated else { subscription.cancel(); return }
                super.receive(subscription: subscription)
                requestUpstream(.unlimited)
            }

            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                receivedValue = true
                return downstream.receive(input)
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard !isTerminated, !owesReplacement else { return }
                guard !receivedValue, case .finished = completion else {
                    terminate()
                    downstream.receive(completion: completion)
                    return
                }
                guard downstreamRequested else {
                    owesReplacement = true
                    return
                }
                terminate()
                _ = downstream.receive(output)
                downstream.receive(completion: .finished)
            }

            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated, demand > 0 else { return }
                downstreamRequested = true
                if owesReplacement {
                    terminate()
                    _ = downstream.receive(output)
                    downstream.receive(completion: .finished)
                    return
                }
                requestUpstream(demand)
            }
        }
    }

    /// Changes the failure type of a publisher that cannot fail; values and completion pass
    /// through, and the upstream subscription is handed straight through (like `Map`).
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        public typealias Output = Upstream.Output
        public let upstream: Upstream

        public init(upstream: Upstream) { self.upstream = upstream }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber))
        }

        public func setFailureType<E: Error>(to failureType: E.Type) -> SetFailureType<Upstream, E> {
            SetFailureType<Upstream, E>(upstream: upstream)
        }

        private final class Link<Downstream: Subscriber>: PassThroughSubscriber<Upstream.Output, Never, Downstream> where Downstream.Input == Upstream.Output {
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                downstream.receive(input)
            }

            override func receive(completion: Subscribers.Completion<Never>) {
                downstream.receive(completion: .finished)
            }
        }
    }

    /// Passes everything through; an upstream failure — a trap in Combine — calls `onFailure`
    /// with Combine's fatal-error message (`"<prefix>: <error>"`, or `"<error>"` without a prefix,
    /// as OC `Publishers.AssertNoFailure.swift` builds it), after which the stream is silent:
    /// nothing more is delivered and nothing is cancelled. Otherwise the upstream subscription
    /// is handed straight through (like `Map`; OpenCombine `Publishers.AssertNoFailure.swift`).
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never
        public let upstream: Upstream
        public let prefix: String
        public let onFailure: (String) -> Void

        public init(upstream: Upstream, prefix: String, onFailure: @escaping (String) -> Void) {
            self.upstream = upstream
            self.prefix = prefix
            self.onFailure = onFailure
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.receive(subscriber: Link(downstream: subscriber, prefix: prefix, onFailure: onFailure))
        }

        /// The message Combine's `fatalError` prints for `error`.
        public static func message(prefix: String, error: Upstream.Failure) -> String {
            (prefix.isEmpty ? "" : prefix + ": ") + "\(error)"
        }

        private final class Link<Downstream: Subscriber>: PassThroughSubscriber<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
            private let prefix: String
            private let onFailure: (String) -> Void
            /// Set by a failure: Combine has trapped by then, so nothing more may pass.
            private var hasTrapped = false

            init(downstream: Downstream, prefix: String, onFailure: @escaping (String) -> Void) {
                self.prefix = prefix
                self.onFailure = onFailure
                super.init(downstream: downstream)
            }

            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                hasTrapped ? .none : downstream.receive(input)
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard !hasTrapped else { return }
                switch completion {
                case .finished: downstream.receive(completion: .finished)
                case .failure(let error):
                    hasTrapped = true
                    onFailure(AssertNoFailure.message(prefix: prefix, error: error))
                }
            }
        }
    }
}

extension Publisher {
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }

    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }

    /// Combine traps on a failure; the engine calls `onFailure` with the trap's message instead
    /// and then goes silent (see `Publishers.AssertNoFailure`).
    public func assertNoFailure(_ prefix: String = "", onFailure: @escaping (String) -> Void) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, onFailure: onFailure)
    }
}

extension Publisher where Failure == Never {
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}
