// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's names, spelled as in the SDK so provider code builds unchanged.)

import Foundation

/// An immutable instant messaging address: a username on a service.
///
/// Mirrors Apple's `CNInstantMessageAddress`; services are the `CNInstantMessageService…`
/// constants. Two addresses are equal when username and service are.
open class CNInstantMessageAddress: NSObject, NSCopying, NSSecureCoding {
    /// The user's name on the service.
    public let username: String
    /// The service, such as ``CNInstantMessageServiceSkype``.
    public let service: String

    /// An address for `username` on `service`.
    public init(username: String, service: String) {
        self.username = username
        self.service = service
        super.init()
    }

    /// `true`: addresses support secure coding.
    public class var supportsSecureCoding: Bool { true }

    /// Decodes an address archived by ``encode(with:)``.
    public required init?(coder: NSCoder) {
        username = coder.decodeString(forKey: CNInstantMessageAddressUsernameKey)
        service = coder.decodeString(forKey: CNInstantMessageAddressServiceKey)
        super.init()
    }

    /// Encodes username and service with a keyed encoder.
    open func encode(with coder: NSCoder) {
        coder.encode(username as NSString, forKey: CNInstantMessageAddressUsernameKey)
        coder.encode(service as NSString, forKey: CNInstantMessageAddressServiceKey)
    }

    /// Returns this address: it is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Whether `object` is an address with the same username and service.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CNInstantMessageAddress else { return false }
        return username == other.username && service == other.service
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(username)
        hasher.combine(service)
        return hasher.finalize()
    }
}

/// The key of ``CNInstantMessageAddress/username``.
public let CNInstantMessageAddressUsernameKey: String = "username"
/// The key of ``CNInstantMessageAddress/service``.
public let CNInstantMessageAddressServiceKey: String = "service"

/// AIM.
public let CNInstantMessageServiceAIM: String = "AIM"
/// Facebook Messenger.
public let CNInstantMessageServiceFacebook: String = "Facebook"
/// Gadu-Gadu.
public let CNInstantMessageServiceGaduGadu: String = "GaduGadu"
/// Google Talk.
public let CNInstantMessageServiceGoogleTalk: String = "GoogleTalk"
/// ICQ.
public let CNInstantMessageServiceICQ: String = "ICQ"
/// Jabber (XMPP).
public let CNInstantMessageServiceJabber: String = "Jabber"
/// MSN.
public let CNInstantMessageServiceMSN: String = "MSN"
/// QQ.
public let CNInstantMessageServiceQQ: String = "QQ"
/// Skype.
public let CNInstantMessageServiceSkype: String = "Skype"
/// Yahoo.
public let CNInstantMessageServiceYahoo: String = "Yahoo"
