extension Publishers {
    /// Skips the first `count` values. Downstream gets its subscription before upstream is
    /// subscribed; upstream is then asked for the demand gathered so far plus `count` at once,
    /// so the skipped values cost no downstream demand (Combine's `Drop`).
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let count: Int

        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            precondition(count >= 0, "dropFirst: count must not be negative")
            let link = Link(downstream: subscriber, count: count)
            subscriber.receive(subscription: link)
            upstream.receive(subscriber: link)
        }

        private final class Link<Downstream: Subscriber>: Subscriber, Subscription where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
            typealias Input = Upstream.Output
            typealias Failure = Upstream.Failure

            let downstream: Downstream
            var upstream: (any Subscription)?
            var remaining: Int
            var pendingDemand: Subscribers.Demand = .none
            /// Cancelled or completed: requests and cancels go no further.
            var isTerminated = false
            /// Upstream completed: nothing more passes.
            var isCompleted = false

            init(downstream: Downstream, count: Int) {
                self.downstream = downstream
                remaining = count
            }

            func receive(subscription: any Subscription) {
                guard upstream == nil, !isTerminated else { subscription.cancel(); return }
                upstream = subscription
                let demand = pendingDemand + remaining
                pendingDemand = .none
                if demand > 0 { subscription.request(demand) }
            }

            /// No check for a cancel: Combine's `Drop` keeps counting and forwarding what its
            /// upstream still sends after one (OpenCombine `DropTests.testReusableSubscription`).
            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard !isCompleted else { return .none }
                if remaining > 0 {
                    remaining -= 1
                    return .none
                }
                return downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard !isCompleted else { return }
                isCompleted = true
                isTerminated = true
                upstream = nil
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                guard !isTerminated, demand > 0 else { return }
                if let upstream { upstream.request(demand) } else { pendingDemand += demand }
            }

            func cancel() {
                guard !isTerminated else { return }
                isTerminated = true
                let upstream = self.upstream
                self.upstream = nil
                upstream?.cancel()
            }
        }
    }

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
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }

    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}
