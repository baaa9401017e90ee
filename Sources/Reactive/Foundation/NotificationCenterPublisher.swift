import Foundation

extension NotificationCenter {
    /// A publisher of the notifications named `name` (from `object`, or from anyone), posted
    /// on this center (Foundation's `NotificationCenter.publisher(for:object:)`).
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> Publisher {
        Publisher(center: self, name: name, object: object)
    }

    /// The publisher of `publisher(for:object:)`: each subscriber observes from its subscription
    /// until it cancels; a notification posted while it has no demand is dropped. Notifications
    /// arrive on the thread that posts them. Never finishes.
    public struct Publisher: Reactive.Publisher {
        public typealias Output = Notification
        public typealias Failure = Never

        /// The center observed.
        public let center: NotificationCenter
        /// The notifications' name.
        public let name: Notification.Name
        /// The sender observed, or nil for any.
        public let object: AnyObject?

        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            let subscription = Observation(downstream: AnySubscriber(subscriber), center: center)
            subscriber.receive(subscription: subscription)
            subscription.start(name: name, object: object)
        }
    }

    private final class Observation: Subscription {
        private var downstream: AnySubscriber<Notification, Never>?
        private var demand: Subscribers.Demand = .none
        private let center: NotificationCenter
        private var observer: (any NSObjectProtocol)?

        init(downstream: AnySubscriber<Notification, Never>, center: NotificationCenter) {
            self.downstream = downstream
            self.center = center
        }

        func start(name: Notification.Name, object: AnyObject?) {
            guard downstream != nil else { return }
            let this = UncheckedObservation(observation: self)
            observer = center.addObserver(forName: name, object: object, queue: nil) { notification in
                this.observation?.deliver(notification)
            }
        }

        private func deliver(_ notification: Notification) {
            guard let downstream, demand > 0 else { return }
            demand -= 1
            demand += downstream.receive(notification)
        }

        func request(_ demand: Subscribers.Demand) { self.demand += demand }

        func cancel() {
            downstream = nil
            if let observer { center.removeObserver(observer) }
            observer = nil
        }
    }

    /// The observation reached from the observer block, weakly (cancel or release ends it).
    private struct UncheckedObservation: @unchecked Sendable {
        weak var observation: Observation?
    }
}
