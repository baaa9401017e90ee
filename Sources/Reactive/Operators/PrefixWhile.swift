extension Publishers {
    /// Passes values while `predicate` holds. The first value that fails it is not emitted:
    /// upstream is cancelled and `.finished` sent at that instant.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let predicate: (Output) -> Bool

        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, predicate: predicate))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
            let predicate: (Upstream.Output) -> Bool
            init(downstream: Downstream, predicate: @escaping (Upstream.Output) -> Bool) {
                self.predicate = predicate
                super.init(downstream: downstream)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                if predicate(input) { return downstream.receive(input) }
                cancel()
                downstream.receive(completion: .finished)
                return .none
            }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                downstream.receive(completion: completion)
            }
        }
    }

    /// Like `PrefixWhile`, but the predicate may throw, which cancels upstream and fails the stream.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error
        public let upstream: Upstream
        public let predicate: (Output) throws -> Bool

        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Link(downstream: subscriber, predicate: predicate))
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Upstream.Output, Upstream.Failure, Downstream> where Downstream.Input == Upstream.Output, Downstream.Failure == any Error {
            let predicate: (Upstream.Output) throws -> Bool
            init(downstream: Downstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
                self.predicate = predicate
                super.init(downstream: downstream)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                let completion: Subscribers.Completion<any Error>
                do {
                    if try predicate(input) { return downstream.receive(input) }
                    completion = .finished
                } catch {
                    completion = .failure(error)
                }
                cancel()
                downstream.receive(completion: completion)
                return .none
            }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                downstream.receive(completion: completion.eraseError)
            }
        }
    }
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
