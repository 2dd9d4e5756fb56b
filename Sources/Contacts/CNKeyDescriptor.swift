import Foundation

/// A key (or a set of keys) that names contact properties to fetch, such as ``CNContactGivenNameKey``.
///
/// Mirrors Apple's `CNKeyDescriptor`. On Apple platforms `NSString` adopts it and Swift bridges
/// a `String` key with `key as CNKeyDescriptor`; Linux has no such bridging, so `String` adopts
/// it too and the usual `[CNContactGivenNameKey as CNKeyDescriptor]` compiles unchanged. (Apple's
/// protocol also refines `NSCopying` and `NSSecureCoding`, which `String` cannot adopt; nothing a
/// provider writes depends on that.)
public protocol CNKeyDescriptor {}

extension String: CNKeyDescriptor {}
extension NSString: CNKeyDescriptor {}

/// A descriptor standing for several keys, such as `descriptorForRequiredKeys()` returns.
final class CNContactKeyDescriptorList: NSObject, CNKeyDescriptor {
    let keys: [String]

    init(keys: [String]) {
        self.keys = keys
    }
}

extension CNKeyDescriptor {
    /// The contact keys this descriptor names.
    var contactKeys: [String] {
        switch self {
        case let key as String: return [key]
        case let key as NSString: return [key as String]
        case let list as CNContactKeyDescriptorList: return list.keys
        default: return []
        }
    }
}
