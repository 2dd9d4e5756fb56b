import Foundation

extension NotificationCenter {
    /// A publisher of the notifications a center posts (Combine's `NotificationCenter.Publisher`).
    ///
    /// Each subscriber is an observer of the center: it receives each matching notification on the thread
    /// that posted it, and stops being one when its token is cancelled or released.
    public struct Publisher: Combine.Publisher {
        /// The notification posted.
        public typealias Output = Notification
        /// It never fails.
        public typealias Failure = Never

        /// The center observed.
        public let center: NotificationCenter
        /// The name of the notifications published.
        public let name: Notification.Name
        /// The sender whose notifications are published; nil for any sender.
        public let object: AnyObject?

        /// A publisher of `center`'s notifications named `name`, from `object` (nil: from anyone).
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Observes the center until the returned token is cancelled or released.
        public func sink(receiveValue: @escaping (Notification) -> Void) -> AnyCancellable {
            let receive = UncheckedSendable(value: receiveValue)
            let observer = UncheckedSendable(
                value: center.addObserver(forName: name, object: object, queue: nil) { receive.value($0) })
            return AnyCancellable { [center] in center.removeObserver(observer.value) }
        }
    }

    /// A publisher of the notifications named `name` this center posts, from `object` (nil: from anyone).
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        NotificationCenter.Publisher(center: self, name: name, object: object)
    }
}
