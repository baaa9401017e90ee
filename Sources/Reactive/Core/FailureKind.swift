/// Which of an `X`/`TryX` pair a publisher is, for the pairs written as one generic publisher
/// (`DropWhileOrTry<Upstream, Failure>` is both `DropWhile` and `TryDropWhile`): the plain one
/// fails only as upstream does, the throwing one with `any Error`, a throw from its closure
/// included. What differs is only the name `print` shows and how an upstream failure is passed on.
struct FailureKind<UpstreamFailure: Error, Failure: Error> {
    let isThrowing: Bool
    let mapFailure: (UpstreamFailure) -> Failure

    /// The operator's Combine name: `base`, or `Try` + `base` for the throwing twin.
    func name(_ base: String) -> String { isThrowing ? "Try" + base : base }
}

extension FailureKind where Failure == UpstreamFailure {
    static var plain: Self { FailureKind(isThrowing: false, mapFailure: { $0 }) }
}

extension FailureKind where Failure == any Error {
    static var throwing: Self { FailureKind(isThrowing: true, mapFailure: { $0 }) }
}
