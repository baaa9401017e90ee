extension Publishers {
    /// Skips values while `predicate` holds; from the first value that fails it, passes
    /// everything. Each skipped value is asked for again upstream.
    public struct DropWhile<Upstream: Publisher>: Publisher {
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
            var isDropping = true
            init(downstream: Downstream, predicate: @escaping (Upstream.Output) -> Bool) {
                self.predicate = predicate
                super.init(downstream: downstream)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                if isDropping {
                    if predicate(input) { return .max(1) }
                    isDropping = false
                }
                return downstream.receive(input)
            }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                downstream.receive(completion: completion)
            }
        }
    }

    /// Like `DropWhile`, but the predicate may throw, which cancels upstream and fails the stream.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
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
            var isDropping = true
            init(downstream: Downstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
                self.predicate = predicate
                super.init(downstream: downstream)
            }
            override func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isTerminated else { return .none }
                if isDropping {
                    do {
                        if try predicate(input) { return .max(1) }
                    } catch {
                        cancel()
                        downstream.receive(completion: .failure(error))
                        return .none
                    }
                    isDropping = false
                }
                return downstream.receive(input)
            }
            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                downstream.receive(completion: completion.eraseError)
            }
        }
    }
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
