/// A property that publishes its changes (Combine's `@Published`), for properties of classes.
///
/// As in Combine, a change is published in `willSet`: the enclosing `ObservableObject`'s
/// `objectWillChange` fires first, then `$property` emits the new value, and only then is the
/// property set, so a subscriber reading the property while it is told still sees the old value.
/// `$property` emits the current value to each new subscriber, then every change. Like the rest
/// of the engine it is not thread-safe: change a property from one thread (or actor).
@propertyWrapper
public struct Published<Value> {
    /// The publisher of a `@Published` property: `$property`. It never fails or finishes.
    public struct Publisher: Reactive.Publisher {
        public typealias Output = Value
        public typealias Failure = Never

        let storage: PublishedStorage<Value>

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            storage.subject.receive(subscriber: subscriber)
        }
    }

    let storage: PublishedStorage<Value>

    public init(wrappedValue: Value) { storage = PublishedStorage(wrappedValue) }
    /// The older spelling of `init(wrappedValue:)`.
    public init(initialValue: Value) { self.init(wrappedValue: initialValue) }

    /// `$property`. Setting it (as `assign(to: &$property)` does) keeps the same storage.
    public var projectedValue: Publisher {
        get { Publisher(storage: storage) }
        set {}
    }

    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The class property's value, read and set through its storage.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].storage.value }
        set { object[keyPath: storageKeyPath].storage.set(newValue) }
    }
}

/// What a `@Published` property keeps: its value, the subject behind `$property`, the
/// enclosing object's `objectWillChange` once someone asked for it, and the subscriptions that
/// `assign(to: &$property)` made (they end with the property).
final class PublishedStorage<Value> {
    private(set) var value: Value
    let subject: CurrentValueSubject<Value, Never>
    var objectWillChange: ObservableObjectPublisher?
    var assignments: [AnyCancellable] = []

    init(_ value: Value) {
        self.value = value
        subject = CurrentValueSubject(value)
    }

    /// A change: `objectWillChange`, then `$property`'s subscribers, then the value.
    func set(_ newValue: Value) {
        objectWillChange?.send()
        subject.send(newValue)
        value = newValue
    }
}

/// How `ObservableObject` finds the `@Published` properties of an object by reflection.
protocol PublishedProperty {
    var willChangePublisher: ObservableObjectPublisher? { get nonmutating set }
}

extension Published: PublishedProperty {
    var willChangePublisher: ObservableObjectPublisher? {
        get { storage.objectWillChange }
        nonmutating set { storage.objectWillChange = newValue }
    }
}

extension Publisher where Failure == Never {
    /// Sets the `@Published` property behind `published` to every value, publishing each change
    /// as a set would (Combine's `assign(to:)`). The subscription lasts as long as the property.
    public func assign(to published: inout Published<Output>.Publisher) {
        let storage = published.storage
        let sink = Subscribers.Sink<Output, Never>(receiveCompletion: { _ in }) { [weak storage] value in
            storage?.set(value)
        }
        storage.assignments.append(AnyCancellable(sink))
        receive(subscriber: sink)
    }
}
