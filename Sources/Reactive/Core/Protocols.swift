/// The namespace Combine uses for subscriber-side types (`Subscribers.Demand`, `.Completion`, `.Sink`).
public enum Subscribers {}

/// The namespace Combine uses for its publisher types (`Publishers.Map`, …).
public enum Publishers {}

extension Subscribers {
    /// The end of a stream: finished normally, or failed with an error.
    public enum Completion<Failure: Error> {
        case finished
        case failure(Failure)
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable {}

// Combine's coding of a completion: `{"success": true}`, or `{"success": false, "error": …}`
// (OpenCombine `Subscribers.Completion.swift`), so a `Record` written by one decodes in the other.
extension Subscribers.Completion {
    private enum CodingKeys: String, CodingKey {
        case success, error
    }
}

extension Subscribers.Completion: Encodable where Failure: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .finished:
            try container.encode(true, forKey: .success)
        case .failure(let error):
            try container.encode(false, forKey: .success)
            try container.encode(error, forKey: .error)
        }
    }
}

extension Subscribers.Completion: Decodable where Failure: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = try container.decode(Bool.self, forKey: .success) ? .finished : .failure(try container.decode(Failure.self, forKey: .error))
    }
}

extension Subscribers.Completion {
    /// The same completion with its error transformed.
    public func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> Subscribers.Completion<NewFailure> {
        switch self {
        case .finished: return .finished
        case .failure(let error): return .failure(transform(error))
        }
    }

    /// The completion with its error type widened to `any Error`.
    public var eraseError: Subscribers.Completion<any Error> { mapError { $0 as any Error } }
}

/// Something that can be cancelled; cancelling twice is harmless. Like Combine's, it may be a
/// value type (a struct wrapping a handle).
public protocol Cancellable {
    func cancel()
}

extension Cancellable {
    /// Keeps this cancellable in `collection` as an `AnyCancellable` (cancelled when released).
    public func store<Cancellables: RangeReplaceableCollection>(in collection: inout Cancellables) where Cancellables.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    /// Keeps this cancellable in `set` as an `AnyCancellable` (cancelled when released).
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}

/// The link a publisher hands to a subscriber: the subscriber asks for values through it and
/// cancels through it. A class, unlike Combine's protocol (which allows value types, though
/// subscriptions hold state and are classes in practice): `any Subscription` stays one reference
/// wide in the engine's links.
public protocol Subscription: AnyObject, Cancellable, CustomCombineIdentifierConvertible {
    func request(_ demand: Subscribers.Demand)
}

/// Receives a subscription, then values (returning how many more it wants), then at most one completion.
public protocol Subscriber<Input, Failure>: AnyObject, CustomCombineIdentifierConvertible {
    associatedtype Input
    associatedtype Failure: Error

    func receive(subscription: any Subscription)
    func receive(_ input: Input) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<Failure>)
}

/// Declares a stream of values; nothing happens until a subscriber attaches.
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches `subscriber` to this publisher (Combine's spelling of `receive(subscriber:)`).
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }
}

/// A subscription that does nothing: handed out by publishers that complete at once
/// (Combine's `Subscriptions.empty`).
public final class EmptySubscription: Subscription {
    public init() {}
    public func request(_ demand: Subscribers.Demand) {}
    public func cancel() {}
}

/// The namespace Combine uses for ready-made subscriptions.
public enum Subscriptions {
    /// A subscription that ignores requests and cancels (Combine's `Subscriptions.empty`).
    public static var empty: any Subscription { EmptySubscription() }
}

/// Wraps a cancel action; cancels when asked or when released (Combine's `AnyCancellable`).
public final class AnyCancellable: Cancellable, Hashable {
    private var action: (() -> Void)?

    public init(_ cancel: @escaping () -> Void) { action = cancel }
    public convenience init(_ cancellable: some Cancellable) {
        if let erased = cancellable as? AnyCancellable {
            self.init { erased.cancel() }
        } else {
            self.init { cancellable.cancel() }
        }
    }

    public func cancel() {
        let action = self.action
        self.action = nil
        action?()
    }

    deinit { action?() }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Keeps this cancellable in `set`; it is cancelled when the set releases it.
    public func store(in set: inout Set<AnyCancellable>) { set.insert(self) }
    /// Keeps this cancellable in `collection` (an array, say); it is cancelled when released.
    public func store<Cancellables: RangeReplaceableCollection>(in collection: inout Cancellables) where Cancellables.Element == AnyCancellable {
        collection.append(self)
    }
}
