// Where the address book is and how to log in: `carddav.json` in the App Group.

import Foundation

/// The provider's configuration, read from `carddav.json` in the App Group before each sync (so a
/// reconfigured account takes effect without restarting the extension).
struct CardDAVConfiguration: Decodable, Sendable {
    /// The address book collection's URL (ends with `/`).
    var url: URL
    /// The user name for HTTP basic authentication, if the server needs one.
    var username: String?
    /// A file (mode 0600) holding the password; never the password itself.
    var passwordFile: String?

    /// The file name in the App Group.
    static let fileName = "carddav.json"

    /// Reads and checks the configuration in `container`.
    static func load(from container: URL) throws -> CardDAVConfiguration {
        let file = container.appendingPathComponent(fileName)
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw CardDAVError.configuration(
                "cannot read \(file.path): run 'contacts-host carddav configure --url URL' first")
        }
        var configuration: CardDAVConfiguration
        do {
            configuration = try JSONDecoder().decode(CardDAVConfiguration.self, from: data)
        } catch {
            throw CardDAVError.configuration("\(file.path) is not valid: \(error)")
        }
        guard let scheme = configuration.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw CardDAVError.configuration("\(file.path): 'url' must be an http or https URL")
        }
        if !configuration.url.absoluteString.hasSuffix("/") {
            configuration.url = URL(string: configuration.url.absoluteString + "/") ?? configuration.url
        }
        return configuration
    }

    /// The `Authorization` header value, if a user name is configured.
    func authorization() throws -> String? {
        guard let username, !username.isEmpty else { return nil }
        var password = ""
        if let passwordFile {
            do {
                password = try String(contentsOfFile: passwordFile, encoding: .utf8)
            } catch {
                throw CardDAVError.configuration("cannot read the password file \(passwordFile)")
            }
            // A trailing newline from `echo secret > file` is not part of the password.
            while password.hasSuffix("\n") || password.hasSuffix("\r") { password.removeLast() }
        }
        return "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }
}
