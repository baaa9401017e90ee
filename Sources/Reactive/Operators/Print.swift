extension Publishers {
    /// Logs every event as a line, in Combine's exact wording (`prefix: ` first when the prefix is
    /// not empty): "receive subscription: (…)", "request unlimited", "request max: (n)",
    /// "receive value: (…)", "request max: (n) (synchronous)" / "request unlimited (synchronous)"
    /// for a non-zero demand returned from downstream's `receive`, "receive finished",
    /// "receive error: (…)", "receive cancel". Requests and cancels are logged even after the
    /// stream has ended, as Combine does. `output` receives each line without a newline.
    public struct Print<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let prefix: String
        public let output: (String) -> Void

        public init(upstream: Upstream, prefix: String, to output: @escaping (String) -> Void) {
            self.upstream = upstream
            self.prefix = prefix
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, prefix: prefix, output: output))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
            let prefix: String
            let output: (String) -> Void

            init(downstream: Downstream, prefix: String, output: @escaping (String) -> Void) {
                self.prefix = prefix.isEmpty ? "" : prefix + ": "
                self.output = output
                super.init(downstream: downstream)
            }

            private func log(_ line: String) { output(prefix + line) }

            private func describe(_ demand: Subscribers.Demand) -> String {
                demand.max.map { "request max: (\($0))" } ?? "request unlimited"
            }

            override func receive(subscription: any Subscription) {
                log("receive subscription: (\(printName(of: subscription)))")
                super.receive(subscription: subscription)
            }

            /// After a cancel, what upstream still sends is logged and forwarded (OpenCombine
            /// `Publishers.Print`: its value and completion paths check no state).
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated || isCancelledByDownstream else { return .none }
                log("receive value: (\(input))")
                let demand = downstream.receive(input)
                if demand > 0 { log(describe(demand) + " (synchronous)") }
                return demand
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard !isTerminated || endPassThrough() else { return }
                switch completion {
                case .finished: log("receive finished")
                case .failure(let error): log("receive error: (\(error))")
                }
                terminate()
                downstream.receive(completion: completion)
            }

            override func request(_ demand: Subscribers.Demand) {
                log(describe(demand))
                super.request(demand)
            }

            override func cancel() {
                log("receive cancel")
                super.cancel()
            }
        }
    }
}

/// How `print` names a subscription: its `description` when it has one, otherwise the name of the
/// operator or source type that made it ("Drop", "Just", "Sequence"), as Combine's subscriptions
/// describe themselves. Behind `map` and the other operators that hand their upstream's
/// subscription through, that is the upstream's name.
public func printName(of subscription: any Subscription) -> String {
    if let described = subscription as? any CustomStringConvertible { return described.description }
    var plain = ""
    var depth = 0
    for character in String(reflecting: type(of: subscription)) {
        switch character {
        case "<": depth += 1
        case ">": depth -= 1
        default: if depth == 0 { plain.append(character) }
        }
    }
    // Drop the module and the "(unknown context at …)" scopes of private types.
    var parts = plain.split(separator: ".").map(String.init).filter { !$0.hasPrefix("(") }
    if parts.count > 1 { parts.removeFirst() }
    let helperNames: Set<String> = ["Link", "Inner", "Conduit", "Subscription"]
    while parts.count > 1, let last = parts.last, helperNames.contains(last) { parts.removeLast() }
    var name = parts.last ?? plain
    for suffix in ["Subscription", "Conduit", "Link"] where name.count > suffix.count && name.hasSuffix(suffix) {
        name.removeLast(suffix.count)
        break
    }
    return name
}

extension Publisher {
    /// Logs every event through `output`, one line each, in Combine's wording (see `Publishers.Print`).
    public func print(_ prefix: String = "", to output: @escaping (String) -> Void) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: output)
    }

    /// Logs every event to `stream`, or to standard output, one line each, in Combine's wording
    /// (Combine's `print(_:to:)`).
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        guard let stream else { return print(prefix, to: { Swift.print($0) }) }
        let output = TextOutput(stream: stream)
        return print(prefix, to: { output.write($0) })
    }
}

/// A text stream written by `print(_:to:)`, kept in a box so that every event appends to it.
private final class TextOutput {
    var stream: any TextOutputStream
    init(stream: any TextOutputStream) { self.stream = stream }
    func write(_ line: String) { stream.write(line + "\n") }
}
