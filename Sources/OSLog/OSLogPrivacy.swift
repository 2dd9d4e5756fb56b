/// How a value interpolated into a log message should be treated for privacy.
///
/// Mirrors Apple's `OSLogPrivacy` so `"\(value, privacy: .public)"` compiles.
/// This stand-in records the choice but always writes values in full, as Apple's
/// logging does while a debugger is attached.
public struct OSLogPrivacy: Equatable, Sendable {
    /// How a redacted value may be replaced.
    public struct Mask: Equatable, Sendable {
        /// Whether the mask replaces the value with a hash of it.
        let isHash: Bool

        /// Replace the value with a hash, so equal values can still be matched up.
        public static let hash = Mask(isHash: true)
        /// Replace the value with `<private>`.
        public static let none = Mask(isHash: false)
    }

    /// The kinds of privacy.
    enum Kind: Equatable, Sendable {
        case auto, `public`, `private`, sensitive
    }

    /// The kind of privacy chosen.
    let kind: Kind
    /// The mask chosen.
    let mask: Mask

    /// Let the system decide: on Apple platforms, strings and objects are redacted
    /// and scalars are not.
    public static let auto = OSLogPrivacy(kind: .auto, mask: .none)
    /// The value is not sensitive and may be shown.
    public static let `public` = OSLogPrivacy(kind: .public, mask: .none)
    /// The value is private and should be redacted outside development.
    public static let `private` = OSLogPrivacy(kind: .private, mask: .none)
    /// The value is sensitive and should be redacted even more strictly than private values.
    public static let sensitive = OSLogPrivacy(kind: .sensitive, mask: .none)

    /// Let the system decide, redacting with the given mask.
    ///
    /// - Parameter mask: How a redacted value is replaced.
    public static func auto(mask: Mask) -> OSLogPrivacy {
        OSLogPrivacy(kind: .auto, mask: mask)
    }

    /// The value is private, redacted with the given mask.
    ///
    /// - Parameter mask: How a redacted value is replaced.
    public static func `private`(mask: Mask) -> OSLogPrivacy {
        OSLogPrivacy(kind: .private, mask: mask)
    }

    /// The value is sensitive, redacted with the given mask.
    ///
    /// - Parameter mask: How a redacted value is replaced.
    public static func sensitive(mask: Mask) -> OSLogPrivacy {
        OSLogPrivacy(kind: .sensitive, mask: mask)
    }
}
