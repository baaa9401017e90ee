/// A publisher that does nothing until `connect()` is called (Combine's `ConnectablePublisher`):
/// `multicast`, `makeConnectable()` and timers. `connect()` returns the handle that disconnects.
public protocol ConnectablePublisher: Publisher {
    func connect() -> any Cancellable
}
