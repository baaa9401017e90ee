extension Optional {
    /// A publisher of this optional: the value then `.finished` on the first request, or, for
    /// `nil`, `.finished` at once without a value (Combine's `Optional.Publisher`; OpenCombine
    /// `Optional.Publisher.swift` and `OptionalPublisherTests.swift`).
    public struct Publisher: Reactive.Publisher {
        public typealias Output = Wrapped
        public typealias Failure = Never

        /// The value published, if any.
        public let output: Wrapped?

        public init(_ output: Wrapped?) { self.output = output }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            if let output {
                Just(output).receive(subscriber: subscriber)
            } else {
                Empty<Wrapped, Never>().receive(subscriber: subscriber)
            }
        }
    }

    /// This optional as a publisher.
    public var publisher: Publisher { Publisher(self) }
}
