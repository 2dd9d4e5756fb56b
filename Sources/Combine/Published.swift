/// A property of an ``ObservableObject`` that announces its changes.
///
/// Mirrors Combine's `@Published`: setting the property sends the object's `objectWillChange`,
/// then the new value to the subscribers of its projected publisher (`$property`), which also
/// receive the current value when they subscribe. Only class properties can be `@Published`.
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

    /// The property's publisher (`$property`).
    public var projectedValue: Publisher {
        Publisher(box: box)
    }

    /// Reads and writes the property through the enclosing object, so a change can announce itself.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].box.value }
        set {
            ObservableObjectPublisher.registry.existingPublisher(for: object)?.send()
            let box = object[keyPath: storageKeyPath].box
            box.value = newValue
            box.subscribers.send(newValue)
        }
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
    }

    /// The value and its subscribers, shared by the property and its publishers.
    fileprivate final class Box {
        var value: Value
        let subscribers = SubscriberList<Value>()
        init(_ value: Value) { self.value = value }
    }
}
