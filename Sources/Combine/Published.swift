/// A property of an ``ObservableObject`` that announces its changes.
///
/// Mirrors Combine's `@Published`: setting the property sends the object's `objectWillChange`,
/// then the new value to the subscribers of its projected publisher (`$property`), which also
/// receive the current value when they subscribe. Only class properties can be `@Published`.
/// A publisher can drive the property with `publisher.assign(to: &$property)`.
@propertyWrapper
public struct Published<Value> {
    private let box: Box

    /// A published property with the given initial value.
    public init(initialValue: Value) {
        box = Box(initialValue)
    }

    /// A published property with the given initial value (`@Published var x = value`).
    public init(wrappedValue: Value) {
        box = Box(wrappedValue)
    }

    /// Use the property of the enclosing class instead; as in Combine, only classes can hold one.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The property's publisher (`$property`). Setting it changes nothing: it is settable, as Combine's
    /// is, so `assign(to: &$property)` can take it `inout`.
    public var projectedValue: Publisher {
        get { Publisher(box: box) }
        set {}
    }

    /// Reads and writes the property through the enclosing object, so a change can announce itself.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get {
            let box = object[keyPath: storageKeyPath].box
            box.owner = object
            return box.value
        }
        set {
            let box = object[keyPath: storageKeyPath].box
            box.owner = object
            box.publish(newValue)
        }
    }

    /// The projected publisher, read through the enclosing object so `assign(to:)` can announce changes.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        projected projectedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Publisher>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Publisher {
        get {
            let box = object[keyPath: storageKeyPath].box
            box.owner = object
            return Publisher(box: box)
        }
        set {}
    }

    /// The publisher of a `@Published` property: the current value, then every new one.
    public struct Publisher: Combine.Publisher {
        /// The property's value type.
        public typealias Output = Value
        /// It never fails.
        public typealias Failure = Never

        fileprivate let box: Box

        /// Calls `receiveValue` with the current value now, then with every new value.
        public func sink(receiveValue: @escaping (Value) -> Void) -> AnyCancellable {
            receiveValue(box.value)
            return box.subscribers.add(receiveValue)
        }

        /// Sets the property to every value of `upstream` while the property lives (``Combine/Publisher/assign(to:)``).
        func assign<Upstream: Combine.Publisher>(from upstream: Upstream) where Upstream.Output == Value {
            let token = upstream.sink { [weak box] in box?.publish($0) }
            box.assignments.append(token)
        }
    }

    /// The value, its subscribers and its object, shared by the property and its publishers.
    ///
    /// Not `Sendable`, like Combine's: a model object and its publishers belong to one isolation domain.
    fileprivate final class Box {
        var value: Value
        let subscribers = SubscriberList<Value>()
        /// The enclosing object, whose `objectWillChange` a change sends (known once the property is used).
        weak var owner: AnyObject?
        /// The subscriptions of `assign(to:)`, which last as long as the property.
        var assignments: [AnyCancellable] = []

        init(_ value: Value) { self.value = value }

        /// Announces the change to the owner, sets the value, then sends it to the subscribers.
        func publish(_ newValue: Value) {
            if let owner { ObservableObjectPublisher.registry.existingPublisher(for: owner)?.send() }
            value = newValue
            subscribers.send(newValue)
        }
    }
}
