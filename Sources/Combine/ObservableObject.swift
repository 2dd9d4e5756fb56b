import Foundation

/// An object that announces, through ``objectWillChange``, that it is about to change.
///
/// Mirrors Combine's `ObservableObject`: a class adopts it with no code of its own, and every
/// `@Published` property of the class sends ``objectWillChange`` before its value changes. On
/// Linux nothing (no SwiftUI) subscribes by itself; app-side model types shared with an
/// extension compile and behave as on iOS.
public protocol ObservableObject: AnyObject {
    /// The type of ``objectWillChange``.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// Publishes before the object changes.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The object's publisher, created on first use and kept for the object's lifetime.
    public var objectWillChange: ObservableObjectPublisher {
        ObservableObjectPublisher.registry.publisher(for: self)
    }
}

/// The publisher of an ``ObservableObject``'s `objectWillChange`: sends `()` before each change.
public final class ObservableObjectPublisher: Publisher {
    /// Nothing but the fact of a change.
    public typealias Output = Void
    /// It never fails.
    public typealias Failure = Never

    private let subscribers = SubscriberList<Void>()

    /// A publisher with no subscribers.
    public init() {}

    /// Announces a change to every subscriber.
    public func send() {
        subscribers.send(())
    }

    /// Calls `receiveValue` before every later change.
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        subscribers.add(receiveValue)
    }

    /// One publisher per live object, found again by `@Published` when a value changes.
    static let registry = Registry()

    /// Maps live objects to their publishers; an entry goes when its object does.
    ///
    /// `@unchecked Sendable`: every access to `entries` holds `lock`.
    final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [ObjectIdentifier: Entry] = [:]

        private struct Entry {
            weak var object: AnyObject?
            let publisher: ObservableObjectPublisher
        }

        func publisher(for object: AnyObject) -> ObservableObjectPublisher {
            lock.lock()
            defer { lock.unlock() }
            let key = ObjectIdentifier(object)
            if let entry = entries[key], entry.object === object { return entry.publisher }
            // A dead object's identifier may be reused: drop entries whose objects are gone.
            entries = entries.filter { $0.value.object != nil }
            let publisher = ObservableObjectPublisher()
            entries[key] = Entry(object: object, publisher: publisher)
            return publisher
        }

        /// The publisher of `object`, if anyone asked for it (nobody listening: nothing to send).
        func existingPublisher(for object: AnyObject) -> ObservableObjectPublisher? {
            lock.lock()
            defer { lock.unlock() }
            guard let entry = entries[ObjectIdentifier(object)], entry.object === object else { return nil }
            return entry.publisher
        }
    }
}
