import Foundation

#if canImport(FoundationNetworking)
// Where URLSession lives in FoundationNetworking (Linux), its publisher is in ReactiveNetworking,
// so that programs linking Reactive (the `marbles` command among them) do not load libcurl. App
// code written for Combine calls `URLSession.shared.dataTaskPublisher(for:)` with Foundation's
// import alone; without these it gets "value of type 'URLSession' has no member
// 'dataTaskPublisher'" (and, in one real file, a compiler crash: "failed to produce diagnostic
// for expression"). Declared on `NSObject`, URLSession's superclass, because Reactive must not
// import FoundationNetworking to name URLSession: with ReactiveNetworking imported, URLSession's
// own members are the ones found (a subclass's declaration shadows its superclass's, and an
// available one an unavailable one). The placeholder publisher has Combine's output and failure
// types (the response as `AnyObject`), so the chain after the call type-checks and the missing
// import is the one error reported.
extension NSObject {
    /// Not in Reactive: `URLSession`'s publisher is in ReactiveNetworking.
    @available(*, unavailable, message: "URLSession's publisher is in the module ReactiveNetworking (apart from Reactive, so that programs which load no URLs do not load libcurl): add 'import ReactiveNetworking' beside 'import FoundationNetworking'")
    public func dataTaskPublisher<Request>(for request: Request) -> DataTaskPublisher {
        fatalError("unavailable")
    }

    /// Not in Reactive: `URLSession.DataTaskPublisher` is in ReactiveNetworking.
    @available(*, unavailable, message: "URLSession.DataTaskPublisher is in the module ReactiveNetworking (apart from Reactive, so that programs which load no URLs do not load libcurl): add 'import ReactiveNetworking' beside 'import FoundationNetworking'")
    public typealias DataTaskPublisher = Fail<(data: Data, response: AnyObject), URLError>
}
#endif
