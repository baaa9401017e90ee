extension Publishers {
    /// Delivers every value and the completion by a hop on `scheduler`: same frame, after the
    /// work already queued for it, in arrival order. The subscription, requests and cancel pass
    /// synchronously (iOS 13.3+). Cancelling drops values still queued, unless upstream has
    /// already completed (then the queued values and the completion still arrive).
    public struct ReceiveOn<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let scheduler: VirtualTimeScheduler

        public init(upstream: Upstream, scheduler: VirtualTimeScheduler) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ScheduledDeliveryLink(downstream: subscriber) { [scheduler] action in
                scheduler.schedule(action)
            })
        }
    }

    /// Subscribes to upstream by a hop on `scheduler`, and passes every request and the cancel
    /// by a hop too; values and completions come through synchronously. Values that arrive
    /// between a cancel and its hop are dropped.
    public struct SubscribeOn<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure
        public let upstream: Upstream
        public let scheduler: VirtualTimeScheduler

        public init(upstream: Upstream, scheduler: VirtualTimeScheduler) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let link = Link(downstream: subscriber, scheduler: scheduler)
            scheduler.schedule { [upstream] in upstream.receive(subscriber: link) }
        }

        private final class Link<Downstream: Subscriber>: OperatorLink<Output, Upstream.Failure, Downstream> where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            let scheduler: VirtualTimeScheduler

            init(downstream: Downstream, scheduler: VirtualTimeScheduler) {
                self.scheduler = scheduler
                super.init(downstream: downstream)
            }

            override func receive(_ input: Output) -> Subscribers.Demand {
                isTerminated ? .none : downstream.receive(input)
            }

            override func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                guard terminate() else { return }
                downstream.receive(completion: completion)
            }

            override func request(_ demand: Subscribers.Demand) {
                guard !isTerminated, let upstream else { return }
                scheduler.schedule { upstream.request(demand) }
            }

            override func cancel() {
                let upstream = self.upstream
                // Stop passing events now; upstream hears of the cancel by a hop.
                guard terminate() else { return }
                scheduler.schedule { upstream?.cancel() }
            }
        }
    }
}

extension Publisher {
    /// Combine's `receive(on:options:)` on the virtual scheduler.
    public func receive(on scheduler: VirtualTimeScheduler) -> Publishers.ReceiveOn<Self> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler)
    }

    /// Combine's `subscribe(on:options:)` on the virtual scheduler.
    public func subscribe(on scheduler: VirtualTimeScheduler) -> Publishers.SubscribeOn<Self> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler)
    }
}
