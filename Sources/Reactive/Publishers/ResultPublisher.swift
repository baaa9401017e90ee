extension Result {
    /// A publisher of this result: the value then `.finished` on demand, or the failure at once
    /// (Combine's `Result.Publisher`).
    public struct Publisher: Reactive.Publisher {
        public typealias Output = Success

        /// The result published.
        public let result: Result<Success, Failure>

        public init(_ result: Result<Success, Failure>) { self.result = result }
        public init(_ output: Success) { result = Result<Success, Failure>.success(output) }
        public init(_ failure: Failure) { result = Result<Success, Failure>.failure(failure) }
        fileprivate init(published result: Result<Success, Failure>) { self.result = result }

        /// Sends the result (a value then `.finished`, or the failure) on the first request.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let output): Just(output).setFailureType(to: Failure.self).receive(subscriber: subscriber)
            case .failure(let error): Fail<Success, Failure>(error: error).receive(subscriber: subscriber)
            }
        }
    }

    /// This result as a publisher.
    public var publisher: Publisher { Publisher(published: self) }
}
