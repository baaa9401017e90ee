extension Publishers {
    /// `prefix(while:)` and `tryPrefix(while:)`: passes values while `predicate` holds. The first
    /// value that fails it is not emitted: upstream is cancelled and `.finished` sent at that
    /// instant. A throw (only `TryPrefixWhile`'s predicate can) cancels upstream and fails the stream.
    public struct PrefixWhileOrTry<Upstream: Publisher, Failure: Error>: Publisher {
        public typealias Output = Upstream.Output
        public let upstream: Upstream
        public let predicate: (Output) throws -> Bool
        private let kind: FailureKind<Upstream.Failure, Failure>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(name: kind.name("PrefixWhile"), downstream: subscriber, kind: kind, predicate: predicate))
        }

        private final class Link<Downstream: Subscriber>: FilteringLink<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Failure {
            let predicate: (Output) throws -> Bool
            init(name: String, downstream: Downstream, kind: FailureKind<Upstream.Failure, Downstream.Failure>, predicate: @escaping (Output) throws -> Bool) {
                self.predicate = predicate
                super.init(name: name, downstream: downstream, kind: kind)
            }
            override func receive(_ input: Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                do {
                    if try predicate(input) { return downstream.receive(input) }
                    end(.finished)
                } catch {
                    fail(error)
                }
                return .none
            }
        }
    }

    /// Passes values while `predicate` holds; the first that fails it finishes the stream.
    public typealias PrefixWhile<Upstream: Publisher> = PrefixWhileOrTry<Upstream, Upstream.Failure>
    /// Like `PrefixWhile`, but the predicate may throw, which cancels upstream and fails the stream.
    public typealias TryPrefixWhile<Upstream: Publisher> = PrefixWhileOrTry<Upstream, any Error>
}

extension Publishers.PrefixWhileOrTry where Failure == Upstream.Failure {
    /// The publisher of `prefix(while:)`: fails only as upstream does.
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .plain) }
}

extension Publishers.PrefixWhileOrTry where Failure == any Error {
    /// The publisher of `tryPrefix(while:)`: a throw from the closure fails it with that error.
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) { self.init(upstream: upstream, predicate: predicate, kind: .throwing) }
}

extension Publisher {
    /// Forwards values while `predicate` holds; the first that fails it finishes the stream and cancels upstream.
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }

    /// Like `prefix(while:)`; a throw from `predicate` cancels upstream and fails the stream.
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}
