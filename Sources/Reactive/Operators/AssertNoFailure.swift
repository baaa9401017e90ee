extension Publishers {
    /// Passes everything through; an upstream failure — a trap in Combine — calls `onFailure`
    /// with Combine's fatal-error message (`"<prefix>: <error>"`, or `"<error>"` without a prefix,
    /// as OpenCombine `Publishers.AssertNoFailure.swift` builds it), after which the stream is silent:
    /// nothing more is delivered and nothing is cancelled. Otherwise the upstream subscription
    /// is handed straight through (like `Map`; OpenCombine `Publishers.AssertNoFailure.swift`).
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never
        public let upstream: Upstream
        public let prefix: String
        public let onFailure: (String) -> Void

        /// Where a trap is reported (Combine's `file` and `line`; `#file` and `#line` of the
        /// `assertNoFailure` call unless given).
        public let file: StaticString
        public let line: UInt

        public init(upstream: Upstream, prefix: String, file: StaticString = #file, line: UInt = #line, onFailure: @escaping (String) -> Void) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
            self.onFailure = onFailure
        }

        /// Traps on a failure as Combine does: `fatalError` with the message, at `file:line`.
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.init(upstream: upstream, prefix: prefix, file: file, line: line) { message in fatalError(message, file: file, line: line) }
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
    /// Passes everything through and traps on a failure, as Combine's does (`fatalError` with
    /// `"<prefix>: <error>"`, reported at `file:line`, the call's own place by default).
    public func assertNoFailure(_ prefix: String = "", file: StaticString = #file, line: UInt = #line) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }

    /// Combine traps on a failure; the engine calls `onFailure` with the trap's message instead
    /// and then goes silent (see `Publishers.AssertNoFailure`).
    public func assertNoFailure(_ prefix: String = "", file: StaticString = #file, line: UInt = #line, onFailure: @escaping (String) -> Void) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line, onFailure: onFailure)
    }
}
