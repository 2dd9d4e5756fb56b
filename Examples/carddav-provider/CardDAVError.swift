// The provider's errors: each says what failed and what to do, without secrets.

import Foundation

/// Why a sync with the CardDAV server failed. The system shows `errorDescription`; nothing of the
/// failed page or batch is committed, and the next sync starts again from the last committed point.
enum CardDAVError: Error, LocalizedError, CustomStringConvertible {
    /// `carddav.json` or the password file is missing or wrong.
    case configuration(String)
    /// The server could not be reached (refused, timed out, DNS).
    case unreachable(url: String, reason: String)
    /// The server answered with an HTTP error.
    case http(method: String, url: String, status: Int)
    /// The server's answer could not be understood.
    case badResponse(url: String, reason: String)

    var errorDescription: String? {
        switch self {
        case .configuration(let message):
            return "CardDAV configuration: \(message)"
        case .unreachable(let url, let reason):
            return "CardDAV server unreachable at \(url): \(reason); nothing was committed, the next sync retries"
        case .http(let method, let url, let status):
            let hint = status == 401 ? " (check the user name and password file)" : ""
            return
                "CardDAV \(method) \(url) failed with HTTP \(status)\(hint); nothing was committed, the next sync retries"
        case .badResponse(let url, let reason):
            return "CardDAV server at \(url) sent a response that cannot be read: \(reason)"
        }
    }

    var description: String { errorDescription ?? "CardDAV error" }
}
