/// Where an operator tells the values it discards because its subscriber has no demand: a
/// debounced value whose wait ends, a value reaching `throttle`, a timer's tick. A test runner
/// sets `subscribed` to draw them. Until then the operators only test it for nil as each
/// subscription begins; a value passed on with demand never reaches it.
public final class DemandDrops<Value> {
    /// Asked as each subscription to the operator begins (synchronously, inside `receive(subscriber:)`);
    /// the function it returns, if any, is called with each value that subscription discards.
    public var subscribed: (() -> ((Value) -> Void)?)?

    public init() {}

    /// What to tell of one new subscription's discarded values (nil: nobody watches).
    @inlinable
    public func subscription() -> ((Value) -> Void)? { subscribed?() }
}
