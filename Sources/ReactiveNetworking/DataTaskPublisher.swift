// URLSession's publisher lives in its own module: on Linux, FoundationNetworking brings libcurl
// and some thirty libraries with it, which every program linking `Reactive` (the `marbles`
// command among them) would load at start. App code that loads URLs imports FoundationNetworking
// there anyway, and imports this module beside it.
@_exported import Reactive
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// A publisher that loads `url` once per subscription (Foundation's
    /// `URLSession.dataTaskPublisher(for:)`).
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// A publisher that loads `request` once per subscription.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// The publisher of `dataTaskPublisher(for:)`: the task starts at the first request for a
    /// value; its data and response, then `.finished`, or a `URLError`, arrive on the session's
    /// delegate queue (use `receive(on:)` to move them). Cancelling cancels the task.
    public struct DataTaskPublisher: Publisher {
        public typealias Output = (data: Data, response: URLResponse)
        public typealias Failure = URLError

        public let request: URLRequest
        public let session: URLSession

        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == URLError {
            subscriber.receive(subscription: Load(downstream: AnySubscriber(subscriber), request: request, session: session))
        }
    }

    private final class Load: Subscription {
        private var downstream: AnySubscriber<DataTaskPublisher.Output, URLError>?
        private let request: URLRequest
        private let session: URLSession
        private var task: URLSessionDataTask?
        private let lock = NSLock()

        init(downstream: AnySubscriber<DataTaskPublisher.Output, URLError>, request: URLRequest, session: URLSession) {
            self.downstream = downstream
            self.request = request
            self.session = session
        }

        func request(_ demand: Subscribers.Demand) {
            guard demand > 0 else { return }
            lock.lock()
            guard downstream != nil, task == nil else { lock.unlock(); return }
            let this = UncheckedLoad(load: self)
            let task = session.dataTask(with: request) { data, response, error in
                this.load.finish(data: data, response: response, error: error)
            }
            self.task = task
            lock.unlock()
            task.resume()
        }

        private func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
            lock.lock()
            let downstream = self.downstream
            self.downstream = nil
            lock.unlock()
            guard let downstream else { return }
            if let error {
                downstream.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
            } else if let response {
                _ = downstream.receive((data ?? Data(), response))
                downstream.receive(completion: .finished)
            } else {
                downstream.receive(completion: .failure(URLError(.badServerResponse)))
            }
        }

        func cancel() {
            lock.lock()
            let task = self.task
            downstream = nil
            lock.unlock()
            task?.cancel()
        }
    }

    /// The load reached from the task's completion handler (guarded by its lock).
    private struct UncheckedLoad: @unchecked Sendable {
        let load: Load
    }
}
