extension Publishers {
    /// `drop(while:)` and `tryDrop(while:)`: skips values while `predicate` holds; from the first
    /// value that fails it, passes everything. Each skipped value is asked for again upstream. A
    /// throw (only `TryDropWhile`'s predicate can) cancels upstream and fails the stream.
    public struct DropWhileOrTry<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output
        public let upstream: Upstream
        public let predicate: (Output) throws -> Bool
        private let kind: FailureKind<Upstream.Failure, Failure>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(name: kind.name("DropWhile"), downstream: subscriber, kind: kind, predicate: predicate))
        }

        private final class Link<Downstream: Subscriber>: FilteringLink<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Failure {
            let predicate: (Output) throws -> Bool
            var isDropping = true
            init(name: String, downstream: Downstream, kind: FailureKind<Upstream.Failure, Downstream.Failure>, predicate: @escaping (Output) throws -> Bool) {
                self.predicate = predicate
                super.init(name: name, downstream: downstream, kind: kind)
            }
            override func receive(_ input: Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                if isDropping {
                    do {
                        if try predicate(input) { return .max(1) }
                    } catch {
                        fail(error)
                        return .none
                    }
                    isDropping = false
                }
                return downstream.receive(input)
            }
        }
    }

    /// Skips values while `predicate` holds, then passes everything.
    public typealias DropWhile<Upstream: Publisher> = DropWhileOrTry<Upstream, Upstream.Failure>
    /// Like `DropWhile`, but the predicate may throw, which cancels upstream and fails the stream.
    public typealias TryDropWhile<Upstream: Publisher> = DropWhileOrTry<Upstream, any Error>
}

extension Publishers.DropWhileOrTry where Failure == Upstream.Failure {
    /// The publisher of `drop(while:)`: fails only as upstream does.
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .plain) }
}

extension Publishers.DropWhileOrTry where Failure == any Error {
    /// The publisher of `tryDrop(while:)`: a throw from the closure fails it with that error.
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .throwing) }
}

extension Publisher {
    /// Skips values while `predicate` holds, then forwards everything.
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    /// Like `drop(while:)`; a throw from `predicate` cancels upstream and fails the stream.
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}
