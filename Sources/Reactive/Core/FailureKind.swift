/// Which of an `X`/`TryX` pair a publisher is, for the pairs written as one generic publisher
/// (`DropWhileOrTry<Upstream, Failure>` is both `DropWhile` and `TryDropWhile`), and for the
/// shared links: the plain one fails only as upstream does, the throwing one with `any Error`, a
/// throw from its closure included. What differs is the name `print` shows and how a failure
/// reaches downstream.
///
/// The closures are stored as plain `throws`, not `throws(Failure)`: a non-throwing closure
/// converts to `throws` for free, whereas a typed throw of a generic error goes through a thunk
/// that looks up generic metadata on every call (callgrind: ~360 instructions a value).
struct FailureKind<UpstreamFailure: Error, Failure: Error> {
    let isThrowing: Bool
    let mapFailure: (UpstreamFailure) -> Failure
    /// The failure for an error the operator's closure threw (only a throwing twin's closure can).
    let thrown: (any Error) -> Failure

    /// The operator's Combine name: `base`, or `Try` + `base` for the throwing twin.
    func name(_ base: String) -> String { isThrowing ? "Try" + base : base }
}

extension FailureKind where Failure == UpstreamFailure {
    static var plain: Self {
        FailureKind(isThrowing: false, mapFailure: { $0 }, thrown: { error in preconditionFailure("a non-throwing closure threw \(error)") })
    }
}

extension FailureKind where Failure == any Error {
    static var throwing: Self { FailureKind(isThrowing: true, mapFailure: { $0 }, thrown: { $0 }) }
}
