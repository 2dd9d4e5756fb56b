// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (Apple's names, spelled as in the SDK so provider code builds unchanged.)

import ContactsInterop
import Foundation

/// An immutable social network profile: its URL, the user's name and identifier, and the service.
///
/// Mirrors Apple's `CNSocialProfile`; services are the `CNSocialProfileService…` constants.
/// Missing values read as empty strings. Two profiles are equal when all four values are.
open class CNSocialProfile: NSObject, NSCopying, NSSecureCoding {
    /// The profile's URL.
    public let urlString: String
    /// The user's name on the service.
    public let username: String
    /// The user's identifier on the service.
    public let userIdentifier: String
    /// The service, such as ``CNSocialProfileServiceTwitter``.
    public let service: String

    /// A profile with the given values (nil reads as empty).
    public init(urlString: String?, username: String?, userIdentifier: String?, service: String?) {
        self.urlString = urlString ?? ""
        self.username = username ?? ""
        self.userIdentifier = userIdentifier ?? ""
        self.service = service ?? ""
        super.init()
    }

    /// `true`: profiles support secure coding.
    public class var supportsSecureCoding: Bool { true }

    /// Decodes a profile archived by ``encode(with:)``.
    public required init?(coder: NSCoder) {
        urlString = coder.decodeString(forKey: CNSocialProfileURLStringKey)
        username = coder.decodeString(forKey: CNSocialProfileUsernameKey)
        userIdentifier = coder.decodeString(forKey: CNSocialProfileUserIdentifierKey)
        service = coder.decodeString(forKey: CNSocialProfileServiceKey)
        super.init()
    }

    /// Encodes the four values with a keyed encoder.
    open func encode(with coder: NSCoder) {
        coder.encode(urlString as NSString, forKey: CNSocialProfileURLStringKey)
        coder.encode(username as NSString, forKey: CNSocialProfileUsernameKey)
        coder.encode(userIdentifier as NSString, forKey: CNSocialProfileUserIdentifierKey)
        coder.encode(service as NSString, forKey: CNSocialProfileServiceKey)
    }

    /// Returns this profile: it is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Whether `object` is a profile with the same four values.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CNSocialProfile else { return false }
        return (urlString, username, userIdentifier, service)
            == (other.urlString, other.username, other.userIdentifier, other.service)
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(urlString)
        hasher.combine(username)
        hasher.combine(userIdentifier)
        hasher.combine(service)
        return hasher.finalize()
    }
}

/// The key of ``CNSocialProfile/urlString``.
public let CNSocialProfileURLStringKey: String = "urlString"
/// The key of ``CNSocialProfile/username``.
public let CNSocialProfileUsernameKey: String = "username"
/// The key of ``CNSocialProfile/userIdentifier``.
public let CNSocialProfileUserIdentifierKey: String = "userIdentifier"
/// The key of ``CNSocialProfile/service``.
public let CNSocialProfileServiceKey: String = "service"

/// Facebook.
public let CNSocialProfileServiceFacebook: String = "Facebook"
/// Flickr.
public let CNSocialProfileServiceFlickr: String = "Flickr"
/// LinkedIn.
public let CNSocialProfileServiceLinkedIn: String = "LinkedIn"
/// MySpace.
public let CNSocialProfileServiceMySpace: String = "MySpace"
/// Sina Weibo.
public let CNSocialProfileServiceSinaWeibo: String = "SinaWeibo"
/// Tencent Weibo.
public let CNSocialProfileServiceTencentWeibo: String = "TencentWeibo"
/// Twitter.
public let CNSocialProfileServiceTwitter: String = ContactLabel.socialServiceTwitter
/// Yelp.
public let CNSocialProfileServiceYelp: String = "Yelp"
/// Game Center.
public let CNSocialProfileServiceGameCenter: String = "GameCenter"
