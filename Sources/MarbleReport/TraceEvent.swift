/// One event of a run as seen at a named stream or at an operator, in the words Combine's
/// `print()` uses — or a line written by `print` / `handleEvents` itself.
public struct TraceEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The subscription arrived at the node's subscriber ("receive subscription").
        case subscription
        /// The node's subscriber asked for more: `unlimited` or `max: (n)`; `synchronous` when
        /// the demand was returned from `receive(_:)` rather than requested.
        case request(demand: String, synchronous: Bool)
        /// A value the node delivered, as a marble token (`a`, `{42}`).
        case value(String)
        case finished
        /// A failure the node delivered: nil for the default error, else its `{literal}`.
        case failure(String?)
        /// The node's subscriber cancelled.
        case cancel
        /// A line written by a `print` operator or a `print(…)` in a closure.
        case printed(String)
    }

    public enum Node: Sendable, Hashable {
        /// A stream the test names (`hot`, `cold`, `subject`, `let`).
        case stream
        /// A publisher built by an operator or a constructor, named by its source text.
        case `operator`
        /// A `print` line: it belongs to no node.
        case output
    }

    public var frame: Int
    /// The stream's name, or the operator as written (`typing.debounce(for: 3, scheduler: s)`);
    /// empty for printed lines.
    public var node: String
    public var nodeKind: Node
    /// Which subscription to this node the event belongs to: 1 for the first, 2 for the next…
    /// (0 for printed lines). Publishers written once but built many times (the inner
    /// publishers of flatMap) count their subscriptions together.
    public var subscription: Int
    public var kind: Kind

    public init(frame: Int, node: String, nodeKind: Node, subscription: Int, kind: Kind) {
        self.frame = frame
        self.node = node
        self.nodeKind = nodeKind
        self.subscription = subscription
        self.kind = kind
    }
}
