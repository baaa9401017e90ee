/// An object that announces its changes before they happen (Combine's `ObservableObject`).
/// A class whose state is in `@Published` properties gets `objectWillChange` for free: every
/// change of one of them sends it first.
public protocol ObservableObject: AnyObject {
    /// The publisher that fires before the object changes.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher where ObjectWillChangePublisher.Failure == Never
    /// Fires before the object changes.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// One publisher per object, shared by all its `@Published` properties (its superclasses'
    /// included), installed in them the first time it is asked for. An object without
    /// `@Published` properties gets a new publisher that nothing sends on.
    public var objectWillChange: ObservableObjectPublisher {
        var properties: [any PublishedProperty] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                guard let property = child.value as? any PublishedProperty else { continue }
                if let installed = property.willChangePublisher { return installed }
                properties.append(property)
            }
            mirror = current.superclassMirror
        }
        let publisher = ObservableObjectPublisher()
        for property in properties { property.willChangePublisher = publisher }
        return publisher
    }
}

/// The `objectWillChange` publisher of an `ObservableObject` (Combine's
/// `ObservableObjectPublisher`): `send()` tells every subscriber with demand; it never finishes.
public final class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never

    private let subject = PassthroughSubject<Void, Never>()

    public init() {}

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// Tells every subscriber that the object is about to change.
    public func send() { subject.send(()) }
}
