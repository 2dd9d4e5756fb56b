extension Publisher where Failure == Never {
    /// Republishes every value through a `@Published` property (`.assign(to: &$value)`), as long as the
    /// property's object lives.
    ///
    /// As in Combine, no token is returned: the subscription belongs to the property. Each value sets the
    /// property, so its object's `objectWillChange` fires and its `$property` subscribers receive it.
    public func assign(to published: inout Published<Output>.Publisher) {
        published.assign(from: self)
    }

    /// Sets `object[keyPath: keyPath]` to every value until the returned token is cancelled or released.
    /// The token holds `object`, as Combine's does.
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        sink { object[keyPath: keyPath] = $0 }
    }
}
